// Library edges found by the held-out QA of stop 37 (docs/reference.md):
// sort_by with a bool key (false first, stable), take/drop clamping their
// count to [0, length], and size mismatches naming the operands.

// == test
// in:  [1, 2, 3, 4, 5, 6]
// out: [1, 3, 5, 2, 4, 6]
export int[[*]] by_even(int[[*]] xs) = sort_by(\x -> x % 2 == 0, xs);

// == test
// in:  [[5, 1, 4, 2], [3, 3, 0, 9]]
// out: [1, 2, 5, 4, 0, 3, 3, 9]
export int[[*]] rows_by_big(int[[*,*]] m) = flatten([sort_by(\x -> x > 2, m[i, :]) | i <- iota(m.size(0))]);

// == test
// in:  [1, 2, 3, 4, 5, 6]
// out: [(3, 1), (4, 3), (5, 0), (6, 2), (1, 2), (2, 4)]
export (int, int)[[*]] pairs_by_less(int[[*]] xs) = sort_by(\(a, b) -> a < b, zip(xs, [x * 7 % 5 | x <- xs]));

// The device sort (many tiles) with a bool key; expected from Python's
// stable sorted(xs, key=lambda x: x % 3 == 0).
// == test
// in:  100000
// out: 249851842902L
export long big_by_three(int n) {
  let s = sort_by(\x -> x % 3 == 0, [x * 7919 % 10007 | x <- iota(n)]);
  return sum([long(v) * long(i % 1000) | v <- s | i <- iota(n)]);
}

// == test
// in:  -1 [1, 2]
// out: ([], [1, 2])
// in:  0 [1, 2]
// out: ([], [1, 2])
// in:  1 [1, 2]
// out: ([1], [2])
// in:  2 [1, 2]
// out: ([1, 2], [])
// in:  5 [1, 2]
// out: ([1, 2], [])
// in:  3 []
// out: ([], [])
export (int[[*]], int[[*]]) take_drop(int n, int[[*]] xs) = (take(n, xs), drop(n, xs));

// == test
// in:  [[1, 2, 3], [4, 5, 6]] -1
// out: [6, 15]
// in:  [[1, 2, 3], [4, 5, 6]] 2
// out: [303, 906]
// in:  [[1, 2, 3], [4, 5, 6]] 4
// out: [600, 1500]
export int[[*]] take_drop_rows(int[[*,*]] m, int n) =
  [sum(take(n, m[i, :])) * 100 + sum(drop(n, m[i, :])) | i <- iota(m.size(0))];

// == test
// in:  [1, 2, 3] [1, 2]
// error: the keys and values of reduce_by_key differ in size: 3 vs 2
export (int[[*]], int[[*]]) rbk(int[[*]] k, int[[*]] v) = reduce_by_key((+), 0, k, v);

// == test
// in:  [1, 2, 3] [1, 2]
// error: the indices and values of hist differ in size: 3 vs 2
export int[[*]] hist4(int[[*]] k, int[[*]] v) = hist((+), 0, 4, k, v);

// == test
// in:  [1, 2, 3] [1, 2]
// error: the indices and values of scatter differ in size: 3 vs 2
export int[[*]] scatter4(int[[*]] k, int[[*]] v) = scatter(replicate(4, 0), k, v);

// == test
// in:  [true, false] [1, 2, 3]
// error: the flags and values of segmented_reduce differ in size: 2 vs 3
export int[[*]] segred(bool[[*]] f, int[[*]] v) = segmented_reduce((+), 0, f, v);

// length() and size() are int: an array of 2^31 elements or more is an
// error where its length is taken, not a wrapped value (the replicate is
// never made: its length is n).
// == test
// in:  3000000000L
// error: an array of 2^31 elements or more: its length does not fit the int
// in:  30L
// out: 30
export int len_of(long n) = length(replicate(n, true));

// sort and reduce_by_key take bool elements and keys too (false first)
// == test
// in:  [true, false, true]
// out: [false, true, true]
export bool[[*]] sort_bools(bool[[*]] k) = sort(k);

// == test
// in:  [true, false, true] [1, 2, 3]
// out: ([false, true], [2, 4])
export (bool[[*]], int[[*]]) by_bool(bool[[*]] k, int[[*]] v) = reduce_by_key((+), 0, k, v);

// nested: per row, sorted bools and reduce_by_key over bool keys
// == test
// in:  [[true, false, true], [true, true, true]] [1, 2, 3]
// out: [42, 61]
export int[[*]] rows_by_bool(bool[[*,*]] k, int[[*]] v) =
  [(let (ks, vs) = reduce_by_key((+), 0, k[i, :], v) in vs[length(vs) - 1] * 10 + length(ks)) | i <- iota(k.size(0))];

// the device sort of many bools; Python: sum(i for i, b in enumerate(sorted(x % 3 == 0 for x in range(n))) if b)
// == test
// in:  100000
// out: 2777805555L
export long many_bools(int n) {
  let s = sort([x % 3 == 0 | x <- iota(n)]);
  return sum([if b then long(i) else 0L | b <- s | i <- iota(n)]);
}

// gather from a computed source (iota, a range, replicate) checks its indices
// == test
// in:  [0, 2, 1]
// out: [0, 2, 1]
// in:  [-1, 7, 2]
// error: index -1 out of bounds for axis 0 of size 3
export int[[*]] gather_iota(int[[*]] is) = gather(iota(3), is);
// == test
// in:  [100]
// error: index 100 out of bounds for axis 0 of size 3
export int[[*]] gather_replicate(int[[*]] is) = gather(replicate(3, 9), is);
// == test
// in:  [[1, 2], [3, 4]] [1, 0, 1]
// out: [10, 22]
// in:  [[1, 2], [3, 4]] [1, 2]
// error: index 2 out of bounds for axis 0 of size 2
export int[[*]] gather_rows(int[[*,*]] m, int[[*]] is) = [sum(gather([x * 2 | x <- m[r, :]], is)) | r <- iota(m.size(0))];

// rotate by counts near the int limits (no overflow): Python [xs[(i + r) % n] ...]
// == test
// in:  2147483647 [10, 20, 30, 40, 50]
// out: [30, 40, 50, 10, 20]
// in:  2147483646 [10, 20, 30, 40, 50]
// out: [20, 30, 40, 50, 10]
// in:  -2147483648 [10, 20, 30, 40, 50]
// out: [30, 40, 50, 10, 20]
// in:  -7 [10, 20, 30, 40, 50]
// out: [40, 50, 10, 20, 30]
// in:  3 []
// out: []
export int[[*]] rot(int r, int[[*]] xs) = rotate(r, xs);

// floating point to int/long: toward zero, saturating, NaN as 0 (every
// device, the host and the interpreter alike)
// == test
// in:  [nan, 1e10, -1e10, inf, -inf, 2.9, -2.9]
// out: [0, 2147483647, -2147483648, 2147483647, -2147483648, 2, -2]
export int[[*]] to_int(double[[*]] xs) = [int(x) | x <- xs];
// == test
// in:  [nan, 1e19, -1e19, 2.5]
// out: [0L, 9223372036854775807L, -9223372036854775808L, 2L]
export long[[*]] to_long(double[[*]] xs) = [long(x) | x <- xs];
// == test
// in:  nan
// out: 0
// in:  3e9
// out: 2147483647
export int to_int_host(double x) = int(x);

// NaN keys: those with the sign bit first, the others last; -0.0 equal to 0.0
// == test
// in:  [3.5, nan, 1.0, -inf, -0.0, 0.0, -0.0]
// out: [-inf, -0.0, 0.0, -0.0, 1.0, 3.5, nan]
export double[[*]] sort_nan(double[[*]] xs) = sort(xs);
// == test
// in:  [nan, 1.0, nan, 0.5]
// out: ([0.5, 1.0, nan, nan], [3, 1, 0, 2])
export (double[[*]], int[[*]]) rbk_nan(double[[*]] ks) = reduce_by_key((+), 0, ks, iota(length(ks)));

// long division by -1 wraps (as int's): INT64_MIN / -1 = INT64_MIN
// == test
// in:  -9223372036854775808L -1L
// out: -9223372036854775808L
export long ldiv(long a, long b) = a / b;
