// What the distributed overloads (docs/distributed.md) must get right when
// the rows of an array are split among ranks, checked on one device by
// e2e.programs and on 1-4 MPI ranks by e2e.mpi_*: reads of a neighbour's
// rows (windows), a reversed or rotated read, scans whose carry crosses
// ranks (also non-commutative, also exclusive through the comprehension
// fallback), segments that cross ranks, a sort with equal keys (stable
// across ranks), a group-by, a filter that leaves ranks empty, an error
// raised in one rank's part only, host reads of a distributed element,
// arrays through host `if` and `loop`. Expected values: plain Python.

// == test
// in: [5, 3, 8, 8, 1, 10, 2]
// out: [0, -2, 5, 0, -7, 9, -8]
// in: [4]
// out: [0]
// in: []
// out: []
export int[[*]] diffs(int[[*]] xs) = [xs[i] - xs[if i > 0 then i - 1 else 0] | i <- iota(length(xs))];

// == test
// in: [5, 3, 8, 8, 1, 10, 2]
// out: ([2, 10, 1, 8, 8, 3, 5], [8, 8, 1, 10, 2, 5, 3])
export (int[[*]], int[[*]]) turn(int[[*]] xs) = ([xs[length(xs) - 1 - i] | i <- iota(length(xs))], rotate(2, xs));

// == test
// in: [5, 3, 8, 8, 1, 10, 2]
// out: ([5, 8, 16, 24, 25, 35, 37], 37)
// in: [7]
// out: ([7], 7)
export (int[[*]], int) prefix(int[[*]] xs) {
  let s = scan((+), 0, xs);
  return (s, s[length(xs) - 1]);
}

// Affine maps x -> m x + b composed left to right: associative, not commutative.
// == test
// in: [2, 1, 3, 1, 2, 1, 1] [1, 4, 0, 2, 5, 1, 3]
// out: [(2, 1), (2, 5), (6, 15), (6, 17), (12, 39), (12, 40), (12, 43)]
export (int, int)[[*]] affine(int[[*]] ms, int[[*]] bs) =
  scan(\(a, b) (c, d) -> (a * c, c * b + d), (1, 0), zip(ms, bs));

// == test
// in: [false, false, true, false, false, false, true, false, false] [1, 2, 3, 4, 5, 6, 7, 8, 9]
// out: ([1, 3, 3, 7, 12, 18, 7, 15, 24], [3, 18, 24])
// in: [true, false, false, false, false, false, false, false, false] [1, 2, 3, 4, 5, 6, 7, 8, 9]
// out: ([1, 3, 6, 10, 15, 21, 28, 36, 45], [45])
// in: [true, true, true, true, true] [1, 2, 3, 4, 5]
// out: ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5])
// in: [] []
// out: ([], [])
export (int[[*]], int[[*]]) segments(bool[[*]] fl, int[[*]] xs) =
  (segmented_scan((+), 0, fl, xs), segmented_reduce((+), 0, fl, xs));

// == test
// in: [3, 1, 3, 2, 1, 3, 3, 2, 1, 1] [1.5, 2.0, 0.5, 4.0, 1.0, 2.5, 3.0, 0.25, 0.5, 8.0]
// out: ([1, 2, 3], [11.5, 4.25, 7.5])
export (int[[*]], double[[*]]) groupby(int[[*]] keys, double[[*]] vs) = reduce_by_key((+), 0.0, keys, vs);

// == test
// in: [2, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1]
// out: [3, 6, 9, 1, 4, 7, 10, 0, 2, 5, 8]
export int[[*]] stable(int[[*]] ks) = sort_by(\i -> ks[i], iota(length(ks)));

// == test
// in: [150, 3, 7, 1, 9, 2, 4, 0]
// out: ([150], 1)
// in: [1, 2, 3]
// out: ([], 0)
export (int[[*]], int) big(int[[*]] xs) {
  let b = [x | x <- xs, x > 100];
  return (b, length(b));
}

// A generator over a filtered array that depends on the outer element: the
// comprehension fallback (count, exclusive scan, fill).
// == test
// in: [3, 1, 5, 2] [4, 0, 2, 1, 3]
// out: [0, 2, 1, 0, 4, 0, 2, 1, 3, 0, 1]
export int[[*]] depgen(int[[*]] xs, int[[*]] ys) = [y | x <- xs, y <- filter(\v -> v < x, ys)];

// Only the last index is out of range: with the rows split, one rank raises
// and every rank reports it.
// == test
// in: [10, 20, 30, 40] [0, 1, 2, 3]
// out: [10, 20, 30, 40]
// in: [10, 20, 30, 40] [0, 1, 2, 9]
// error: index 9 out of bounds for axis 0 of size 4
export int[[*]] pick(int[[*]] xs, int[[*]] idx) = [xs[j] | j <- idx];

// == test
// in: 3 [1, 2, 3, 4, 5]
// out: [15, 23, 31, 39, 47]
// in: 0 [1, 2]
// out: [1, 2]
export int[[*]] iterate(int n, int[[*]] xs) = loop (ys = xs) for _i < n do [y * 2 + 1 | y <- ys];

// == test
// in: 5 [1, 2, 3]
// out: [6, 7, 8]
// in: 2 [1, 2, 3]
// out: [1, 2, 3]
export int[[*]] choose(int n, int[[*]] xs) = if n > 3 then [x + n | x <- xs] else xs;

// == test
// in: 23 11
// out: [3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]
export int[[*]] bins(int n, int k) = hist((+), 0, k, [(i * 37) % k | i <- iota(n)], replicate(n, 1));
