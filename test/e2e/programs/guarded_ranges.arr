// Range generators narrowed by the filters that bound their variable
// (docs/lowering.md, "Guarded ranges"): every form of bound, both sides,
// inclusive ranges, bounds at the ends of int, a filter that can fail before
// the bound (not narrowed past it), zipped branches, long ranges and a
// comprehension inside a body. Expected values from
// test/e2e/reference/guards_reference.py (plain Python over the whole ranges).

// == test
// in: 20
// out: 5
// in: 100
// out: 50
// in: 1
// out: 0
export int triples(int n) =
  sum([1 | x <- [1..<n], y <- [x..<n], z <- [y..<(x + y)], z < n, x * x + y * y == z * z]);

// == test
// in: 0 10 4
// out: ([0, 1, 2, 3], [0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [4, 5, 6, 7, 8, 9], [0, 1, 2, 3], [4, 5, 6, 7, 8, 9])
// in: 0 10 -3
// out: ([], [], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
// in: 0 10 25
// out: ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [], [], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [])
// in: 5 2 3
// out: ([], [], [], [], [], [])
// in: 2147483644 2147483647 2147483647
// out: ([2147483644, 2147483645, 2147483646], [2147483644, 2147483645, 2147483646], [], [], [2147483644, 2147483645, 2147483646], [])
// in: -2147483648 -2147483645 -2147483648
// out: ([], [-2147483648], [-2147483647, -2147483646], [-2147483648, -2147483647, -2147483646], [], [-2147483648, -2147483647, -2147483646])
export (int[[*]], int[[*]], int[[*]], int[[*]], int[[*]], int[[*]]) bounds(int a, int b, int e) =
  ([z | z <- [a..<b], z < e], [z | z <- [a..<b], z <= e], [z | z <- [a..<b], z > e],
   [z | z <- [a..<b], z >= e], [z | z <- [a..<b], e > z], [z | z <- [a..<b], e <= z]);

// == test
// in: 0 6 3
// out: ([0, 1, 2, 3], [3, 4, 5, 6], [0, 1, 2], [4, 5, 6])
// in: 2147483645 2147483647 2147483647
// out: ([2147483645, 2147483646, 2147483647], [2147483647], [2147483645, 2147483646], [])
// in: -2147483648 -2147483646 -2147483648
// out: ([-2147483648], [-2147483648, -2147483647, -2147483646], [], [-2147483647, -2147483646])
export (int[[*]], int[[*]], int[[*]], int[[*]]) inclusive(int a, int b, int e) =
  ([z | z <- [a..b], z <= e], [z | z <- [a..b], z >= e], [z | z <- [a..b], z < e], [z | z <- [a..b], z > e]);

// Two bounds around a filter that cannot fail.
// == test
// in: 0 20 3 15
// out: [4, 6, 8, 10, 12, 14]
// in: 0 20 15 3
// out: []
export int[[*]] two(int a, int b, int lo, int hi) = [z | z <- [a..<b], z >= lo, z * 3 % 2 == 0, z < hi];

// The read before the bound can fail: the range is not narrowed past it.
// == test
// in: [1, 0, 2] 3 2
// out: [0]
// in: [1, 0, 2] 5 2
// error: guarded_ranges.arr:59:77: index 3 out of bounds for axis 0 of size 3
export int[[*]] first_fails(int[[*]] xs, int m, int n) = [z | z <- [0..<m], xs[z] > 0, z < n];

// == test
// in: [4, 5, 6] 10
// out: [4, 5, 6]
// in: [4, 5, 6] 2
// out: [4, 5]
export int[[*]] guarded_read(int[[*]] xs, int m) = [xs[z] | z <- [0..<m], z < length(xs)];

// == test
// in: 10 4
// out: [0, 2, 4, 6]
// in: 3 8
// out: [0, 2, 4]
export int[[*]] zipped(int n, int k) = [a + b | a <- [0..<n], a < k | b <- [0..<min(n, k)]];

// A bound inside a conjunction (split into two filters), before and after
// a read that can fail.
// == test
// in: [3, 0, 5, 7] 9
// out: [0, 2, 3]
// in: [3, 0, 5, 7] 2
// out: [0]
export int[[*]] conj(int[[*]] xs, int m) = [z | z <- [0..<m], z < length(xs) && xs[z] > 0];
// == test
// in: [3, 0, 5] 3
// out: [0]
// in: [3, 0, 5] 4
// error: guarded_ranges.arr:88:69: index 3 out of bounds for axis 0 of size 3
export int[[*]] conj_fails(int[[*]] xs, int m) = [z | z <- [0..<m], xs[z] > 0 && z < 2];

// == test
// in: 10L 4L
// out: 6L
// in: 5L 3000000000L
// out: 10L
export long longs(long m, long e) = sum([z | z <- [0L..<m], z < e]);

// == test
// in: 6
// out: [0, 0, 0, 0, 3, 7]
export int[[*]] nested(int n) = [sum([z | z <- [0..<i], z > 2]) | i <- iota(n)];
