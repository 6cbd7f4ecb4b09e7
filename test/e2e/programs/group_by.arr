// reduce_by_key as relational programs use it (group-by). Integer keys whose
// range is small take the histogram plan, the others the sort plan
// (docs/lowering.md, "reduce_by_key"); ctest e2e.group_by_sorted runs this
// file with every call on the sort plan, e2e.group_by_hist with a limit of
// 2^30 bins, so each case is checked on both.

// == test
// in: [3, 1, 3, 2, 1] [1.0, 2.0, 3.0, 4.0, 5.0]
// out: ([1, 2, 3], [7.0, 4.0, 4.0])
// in: [-5, 3, -5, 0] [1.0, 2.0, 3.0, 4.0]
// out: ([-5, 0, 3], [4.0, 4.0, 2.0])
// in: [] []
// out: ([], [])
// in: [42] [2.5]
// out: ([42], [2.5])
// in: [0, 4095, 0] [1.0, 2.0, 3.0]
// out: ([0, 4095], [4.0, 2.0])
// in: [0, 4096, 0] [1.0, 2.0, 3.0]
// out: ([0, 4096], [4.0, 2.0])
// in: [2147483647, -2147483648, 2147483647] [1.0, 2.0, 3.0]
// out: ([-2147483648, 2147483647], [2.0, 4.0])
// in: [1, 2] [1.0]
// error: the keys and values of reduce_by_key differ in size: 2 vs 1
export (int[[*]], double[[*]]) sales_by_store(int[[*]] store, double[[*]] amount) =
  reduce_by_key((+), 0.0, store, amount);

// long keys: spans that do not fit a long, and the smallest long
// == test
// in: [7L, 7L, 1L, 9L, 1L, 7L]
// out: ([1L, 7L, 9L], [2, 3, 1])
// in: [9223372036854775807L, -9223372036854775807L, 5L, 5L]
// out: ([-9223372036854775807L, 5L, 9223372036854775807L], [1, 2, 1])
// in: [-9223372036854775808L, -9223372036854775807L, -9223372036854775808L]
// out: ([-9223372036854775808L, -9223372036854775807L], [2, 1])
// in: [-9223372036854775808L, 9223372036854775807L]
// out: ([-9223372036854775808L, 9223372036854775807L], [1, 1])
export (long[[*]], int[[*]]) orders_per_customer(long[[*]] cust) =
  reduce_by_key((+), 0, cust, replicate(length(cust), 1));

// == test
// in: [1, 2, 1, 2] [1.5f, 2.5f, 3.5f, -1.0f]
// out: ([1, 2], [3.5f, 2.5f])
export (int[[*]], float[[*]]) max_per_cat(int[[*]] cat, float[[*]] price) =
  reduce_by_key(max, -1.0f / 0.0f, cat, price);

// == test
// in: [4, 4, 1, 4] [3L, -2L, 5L, 7L]
// out: ([1, 4], [5L, -42L])
export (int[[*]], long[[*]]) product_per_key(int[[*]] k, long[[*]] v) = reduce_by_key((*), 1L, k, v);

// A neutral element that is not the operator's identity counts once per key.
// == test
// in: [2, 1, 2] [1, 2, 3]
// out: ([1, 2], [12, 14])
export (int[[*]], int[[*]]) plus_ten(int[[*]] k, int[[*]] v) = reduce_by_key((+), 10, k, v);

// Tuple values, one operator per component.
def (int, double) sum_max((int, double) a, (int, double) b) = (a.0 + b.0, max(a.1, b.1));
// == test
// in: [5, 3, 5, 3, 9] [1, 2, 3, 4, 5] [0.5, -1.0, 2.5, -3.0, 0.0]
// out: ([3, 5, 9], [(6, -1.0), (4, 2.5), (5, 0.0)])
export (int[[*]], (int, double)[[*]]) sum_and_max(int[[*]] k, int[[*]] a, double[[*]] b) =
  reduce_by_key(sum_max, (0, -1.0 / 0.0), k, zip(a, b));

// Mean per group: two reduce_by_key over the same keys.
// == test
// in: [1, 2, 1] [1.0, 5.0, 2.0]
// out: ([1, 2], [1.5, 5.0])
export (int[[*]], double[[*]]) mean_per_group(int[[*]] g, double[[*]] v) {
  let (ks, sums) = reduce_by_key((+), 0.0, g, v);
  let (_ks, cnts) = reduce_by_key((+), 0, g, replicate(length(g), 1));
  return (ks, [s / double(c) | s <- sums | c <- cnts]);
}

// Keys computed from the data (a producer), and operators the histogram
// plan does not take (bool values, a custom operator, float keys).
// == test
// in: [10, 25, 11, 27, 13]
// out: ([1, 2], [34, 52])
export (int[[*]], int[[*]]) by_tens(int[[*]] xs) = reduce_by_key((+), 0, [x / 10 | x <- xs], xs);

// == test
// in: [1, 2, 1] [false, true, true]
// out: ([1, 2], [true, true])
export (int[[*]], bool[[*]]) any_per_key(int[[*]] k, bool[[*]] v) = reduce_by_key(\a b -> a || b, false, k, v);

// == test
// in: [3, 1, 3] [1, 2, 3]
// out: ([1, 3], [2, 3])
export (int[[*]], int[[*]]) last_per_key(int[[*]] k, int[[*]] v) = reduce_by_key(\_a b -> b, 0, k, v);

// == test
// in: [0.5, -0.0, 0.5, 0.0] [1, 2, 3, 4]
// out: ([0.0, 0.5], [6, 4])
export (double[[*]], int[[*]]) by_float_key(double[[*]] k, int[[*]] v) = reduce_by_key((+), 0, k, v);

// Larger inputs, against closed forms: keys i % m over i < n (key k appears
// n / m times, once more where k < n % m; its values sum to the arithmetic
// series k, k + m, ...), with m spans on either side of the plans' limits.
def bool check_mod(long n, long m, long off) {
  let (ks, cs) = reduce_by_key((+), 0L, [i % m + off | i <- iota(n)], replicate(n, 1L));
  let (_, ss) = reduce_by_key((+), 0L, [i % m + off | i <- iota(n)], iota(n));
  let groups = min(n, m);
  let ok_len = long(length(ks)) == groups && long(length(cs)) == groups && long(length(ss)) == groups;
  return ok_len && all(\k -> ks[k] == k + off &&
                            cs[k] == n / m + (if k < n % m then 1L else 0L) &&
                            ss[k] == cs[k] * k + m * (cs[k] * (cs[k] - 1L) / 2L),
                       iota(groups));
}
// == test
// in: 100000L 1000L 0L
// out: true
// in: 100000L 4096L -2048L
// out: true
// in: 100000L 99991L 5L
// out: true
// in: 300000L 200000L 0L
// out: true
// in: 5000L 4097L 1000000000000L
// out: true
// in: 100L 1000L -9223372036854775807L
// out: true
export bool mod_groups(long n, long m, long off) = check_mod(n, m, off);

// Each segment folds from ne, also where ne is not the operator's identity
// (as the interpreter and hist do): ne op x at every segment start. Outside
// the language's contract (ne is op's neutral element), so single-device
// only: the distributed overloads assume a neutral element.
// == test
// tags: single-device
// in: [true, false, true] [1, 2, 3]
// out: [13, 13]
// in: [false, false] [4, 5]
// out: [19]
export int[[*]] segred_ne(bool[[*]] f, int[[*]] xs) = segmented_reduce((+), 10, f, xs);
// == test
// tags: single-device
// in: [true, false, true] [1, 2, 3]
// out: [11, 13, 13]
// in: [false, true, false] [2, 3, 4]
// out: [12, 13, 17]
export int[[*]] segscan_ne(bool[[*]] f, int[[*]] xs) = segmented_scan((+), 10, f, xs);
