// QA held-out: multiarrays: new, literals, .size/.rank, sections with negative steps,
// with-updates of elements and columns, aggregate ops and math on rank-2 arrays, views.

// == test
// in: 2 3
// out: ([0, 0, 0], [[0, 0, 0], [0, 0, 7]], [[[0.0, 0.0]], [[0.0, 2.5]]], 23, 5)
export (int[[*]], int[[*,*]], double[[*,*,*]], int, int) newlit(int m, int n) {
  let a = new int[[n]];
  let b = new int[[m, n]];
  let c = new double[[2, 1, 2]];
  let L = [[1, 2, 3], [4, 5, 6]];
  return (a, b with [m - 1, n - 1] = 7, c with [1, 0, 1] = 2.5, L.size(0) * 10 + L.size(1), c.rank + L.rank);
}
// == test
// in: [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
// out: ([5, 6, 7, 8], [3, 7, 11], [[2, 3], [6, 7]], [8, 6], [9, 11], [[12, 9], [8, 5], [4, 1]])
export (int[[*]], int[[*]], int[[*,*]], int[[*]], int[[*]], int[[*,*]]) sections(int[[*,*]] A) =
  (A[1, :], A[:, 2], A[0:1, 1:2], A[1, 3:0:-2], A[2, 0:3:2], A[2:0:-1, 3:0:-3]);
// == test
// in: [0, 10, 20, 30, 40, 50]
// out: ([10, 20, 30], [40, 20, 0], [0, 30], 3)
export (int[[*]], int[[*]], int[[*]], int) sect1(int[[*]] xs) =
  (xs[1:3], xs[4:0:-2], xs[0:5:3], xs[2:4].size(0));
// == test
// in: [[1.0, 2.0], [3.0, 4.0]] [5.0, 6.0]
// out: ([[1.0, 5.0], [3.0, 6.0]], [[5.0, 9.0], [3.0, 4.0]])
export (double[[*,*]], double[[*,*]]) withs(double[[*,*]] A, double[[*]] col) =
  (A with [:, 1] = col, A with [0, :] = (col with [1] = 9.0));
// == test
// in: [[1.0, -4.0], [9.0, 2.0]] [[2.0, 1.0], [0.5, 3.0]]
// out: ([[5.0, -3.0], [9.25, 11.0]], [[-5.0, 2.0], [-10.0, -8.0]], [[true, true], [false,
//      true]], [[1.0, 2.0], [3.0, 1.4142135623730951]], [[2.0, 1.0], [9.0, 3.0]])
export (double[[*,*]], double[[*,*]], bool[[*,*]], double[[*,*]], double[[*,*]]) aggr(double[[*,*]] A, double[[*,*]] B) =
  (A + B * B, -A - 2.0 * B, A < B, sqrt(abs(A)), max(A, B));
// == test
// in: [1.0, 2.0, 0.5]
// out: ([1.0, 2.0, 0.5], [1.0, 4.0, 0.7071067811865476], [1.0, 3.0, 0.0])
export (double[[*]], double[[*]], double[[*]]) maths(double[[*]] xs) =
  (exp(log(xs)), pow(xs, xs), floor(xs * 1.5));
// == test
// in: 0.25
// out: (0.24740395925452294, 0.9689124217106447, 0.25534192122103627, 0.24497866312686414,
//      0.2763263901682369, 1.0, 2.0, 5.656854249492381, true, false)
export (double, double, double, double, double, double, double, double, bool, bool) mathsc(double x) =
  (sin(x), cos(x), tan(x), atan2(x, 1.0), erf(x), round(x * 2.5), sqrt(x * 16.0), pow(2.0, x * 10.0),
   isnan(sqrt(-x)), isnan(x));
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
// out: ([[1.0, 4.0], [2.0, 5.0]], [4.0, 5.0, 6.0], 4.0)
export (double[[*,*]], double[[*]], double) tviews(double[[*,*]] A) {
  let T = transpose(A);
  return (T[0:1, :], T[:, 1], reverse(A[:, 0])[0]);
}
// == test
// in: [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
// out: [[[1, 2], [3, 4]], [[5, 5], [7, 8]]]
export int[[*,*,*]] rank3(int[[*,*,*]] X) = X with [1, 0, 1] = X[0, 1, 0] + X.size(2);
// == test
// in: [1.0f, 3.0f]
// out: [1.5f, 2.5f]
export float[[*]] floats(float[[*]] xs) = map(\x -> x * 0.5f + 1.0f, xs);
