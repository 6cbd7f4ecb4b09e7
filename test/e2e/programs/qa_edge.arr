// QA held-out: zip of irregular/filtered branches, expand_reduce, ties, rotate
// with |r| > n, shifts and long wrap, float literals, ranks of sections, unflatten, ranges.
//
//   arrc run qa_edge.arr -e zip_irr "[2, 1]" "[100, 200, 300]"  ==> [120, 221, 310]
//   arrc run qa_edge.arr -e zip_filt "[1, 2, 3, 0, 5]" "[10, 20, 30]"  ==> [12, 23, 35]
//   arrc run qa_edge.arr -e er_min "[3, 0, 2]"  ==> ([1, 1000, 1], [3, 0, 1])
//   arrc run qa_edge.arr -e ties "[1, 5, 0, 5, 0]"  ==> (1, 2, [0, 5, 0, 1, 5], [0, 1, 5, 0, 5])
//   arrc run qa_edge.arr -e bits -- -9  ==> (-2147483648, -5, -72, -9223372036854775808L, -9895604649984L)
//   arrc run qa_edge.arr -e fl 2.0f  ==> 0.002f
//   arrc run qa_edge.arr -e rank_of "[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]"  ==> (2, 1, [42, 8])
//   arrc run qa_edge.arr -e mv "[[1.0, 2.0], [3.0, 4.0]]" "[1.0, 1.0]"  ==> [3.0, 7.0]
//   arrc run qa_edge.arr -e mm "[[1.0, 2.0, 3.0]]" "[[1.0], [2.0], [3.0]]"  ==> [[14.0]]
//   arrc run qa_edge.arr -e unf 2 3 "[1, 2, 3, 4, 5, 6]"  ==> [[1, 2, 3], [4, 5, 6]]
//   arrc run qa_edge.arr -e unf 2 2 "[1, 2, 3]"  ==> error: 
//   arrc run qa_edge.arr -e scan_f "[1.0, 2.0, 3.0]"  ==> [1.0, 5.0, 14.0]
//   arrc run qa_edge.arr -e segs2 "[true, false, true, false]" "[3, 1, 2, 5]"  ==> ([3, 3, 2, 5], [0, 1, 0, 1])
//   arrc run qa_edge.arr -e shift_neg "[1, 2, 3]"  ==> []
//   arrc run qa_edge.arr -e ranges 2 4  ==> [2, 3, 4, 2, 3]
//   arrc run qa_edge.arr -e cmp2 "[[1.0, 2.0], [0.0, 1.0]]"  ==> [true, true, false, true]
export int[[*]] zip_irr(int[[*]] xs, int[[*]] ys) = [a * 10 + i + b | a <- xs, i <- [0..<a] | b <- ys];
export int[[*]] zip_filt(int[[*]] xs, int[[*]] ys) = [a + b | a <- xs, a > 1 | b <- ys];
export (int[[*]], int[[*]]) er_min(int[[*]] xs) =
  (expand_reduce(\x -> x, \x i -> x - i, (min), 1000, xs), expand_reduce(\x -> x, \_x i -> i, (+), 0, xs));
export (int, int, int[[*]], int[[*]]) ties(int[[*]] xs) = (argmax(xs), argmin(xs), rotate(7, xs), rotate(-6, xs));
export (int, int, int, long, long) bits(int x) = (1 << 31, x >> 1, x << 3, 9223372036854775807L + 1L, long(x) << 40);
export float fl(float x) = x * 1e-3f;
export (int, int, int[[*]]) rank_of(int[[*,*,*]] X) = (X[0, :, :].rank, X[:, 1, 0].rank, X[1, 1, :] with [0] = 42);
export double[[*]] mv(double[[*,*]] A, double[[*]] x) = matvec(A, x);
export double[[*,*]] mm(double[[*,*]] A, double[[*,*]] B) = matmul(A, B);
export int[[*,*]] unf(int m, int n, int[[*]] xs) = unflatten(m, n, xs);
export double[[*]] scan_f(double[[*]] xs) = scan((+), 0.0, map(\x -> x * x, xs));
export (int[[*]], int[[*]]) segs2(bool[[*]] fl, int[[*]] xs) =
  (segmented_scan((max), 0, fl, xs), segm_iota(fl));
export int[[*]] shift_neg(int[[*]] xs) = [xs[i] | i <- [length(xs) - 1 .. 0]];
export int[[*]] ranges(int a, int b) = [a..b] ++ [a..<b] ++ [b..<a];
export bool[[*]] cmp2(double[[*,*]] A) = flatten(A >= transpose(A));
