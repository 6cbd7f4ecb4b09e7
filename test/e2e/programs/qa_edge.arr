// QA held-out: zip of irregular/filtered branches, expand_reduce, ties, rotate
// with |r| > n, shifts and long wrap, float literals, ranks of sections, unflatten, ranges.

// == test
// in: [2, 1] [100, 200, 300]
// out: [120, 221, 310]
export int[[*]] zip_irr(int[[*]] xs, int[[*]] ys) = [a * 10 + i + b | a <- xs, i <- [0..<a] | b <- ys];
// == test
// in: [1, 2, 3, 0, 5] [10, 20, 30]
// out: [12, 23, 35]
export int[[*]] zip_filt(int[[*]] xs, int[[*]] ys) = [a + b | a <- xs, a > 1 | b <- ys];
// == test
// in: [3, 0, 2]
// out: ([1, 1000, 1], [3, 0, 1])
export (int[[*]], int[[*]]) er_min(int[[*]] xs) =
  (expand_reduce(\x -> x, \x i -> x - i, (min), 1000, xs), expand_reduce(\x -> x, \_x i -> i, (+), 0, xs));
// == test
// in: [1, 5, 0, 5, 0]
// out: (1, 2, [0, 5, 0, 1, 5], [0, 1, 5, 0, 5])
export (int, int, int[[*]], int[[*]]) ties(int[[*]] xs) = (argmax(xs), argmin(xs), rotate(7, xs), rotate(-6, xs));
// == test
// in: -9
// out: (-2147483648, -5, -72, -9223372036854775808L, -9895604649984L)
export (int, int, int, long, long) bits(int x) = (1 << 31, x >> 1, x << 3, 9223372036854775807L + 1L, long(x) << 40);
// == test
// in: 2.0f
// out: 0.002f
export float fl(float x) = x * 1e-3f;
// == test
// in: [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
// out: (2, 1, [42, 8])
export (int, int, int[[*]]) rank_of(int[[*,*,*]] X) = (X[0, :, :].rank, X[:, 1, 0].rank, X[1, 1, :] with [0] = 42);
// == test
// in: [[1.0, 2.0], [3.0, 4.0]] [1.0, 1.0]
// out: [3.0, 7.0]
export double[[*]] mv(double[[*,*]] A, double[[*]] x) = matvec(A, x);
// == test
// in: [[1.0, 2.0, 3.0]] [[1.0], [2.0], [3.0]]
// out: [[14.0]]
export double[[*,*]] mm(double[[*,*]] A, double[[*,*]] B) = matmul(A, B);
// == test
// in: 2 3 [1, 2, 3, 4, 5, 6]
// out: [[1, 2, 3], [4, 5, 6]]
// in: 2 2 [1, 2, 3]
// error:
export int[[*,*]] unf(int m, int n, int[[*]] xs) = unflatten(m, n, xs);
// == test
// in: [1.0, 2.0, 3.0]
// out: [1.0, 5.0, 14.0]
export double[[*]] scan_f(double[[*]] xs) = scan((+), 0.0, map(\x -> x * x, xs));
// == test
// in: [true, false, true, false] [3, 1, 2, 5]
// out: ([3, 3, 2, 5], [0, 1, 0, 1])
export (int[[*]], int[[*]]) segs2(bool[[*]] fl, int[[*]] xs) =
  (segmented_scan((max), 0, fl, xs), segm_iota(fl));
// == test
// in: [1, 2, 3]
// out: []
export int[[*]] shift_neg(int[[*]] xs) = [xs[i] | i <- [length(xs) - 1 .. 0]];
// == test
// in: 2 4
// out: [2, 3, 4, 2, 3]
export int[[*]] ranges(int a, int b) = [a..b] ++ [a..<b] ++ [b..<a];
// == test
// in: [[1.0, 2.0], [0.0, 1.0]]
// out: [true, true, false, true]
export bool[[*]] cmp2(double[[*,*]] A) = flatten(A >= transpose(A));
