// QA held-out: runtime errors name the source position (exit 1), and the same
// exports succeed on good inputs.
//
//   arrc run qa_errors.arr -e at2 "[[1.0, 2.0], [3.0, 4.0]]" 1 2  ==> error: index 2 out of bounds for axis 1 of size 2
//   arrc run qa_errors.arr -e at2 -- "[[1.0, 2.0], [3.0, 4.0]]" -1 0  ==> error: index -1 out of bounds
//   arrc run qa_errors.arr -e at2 "[[1.0, 2.0], [3.0, 4.0]]" 1 1  ==> 4.0
//   arrc run qa_errors.arr -e sec "[1, 2, 3]" 1 3  ==> error: out of bounds
//   arrc run qa_errors.arr -e sec "[1, 2, 3]" 1 2  ==> [2, 3]
//   arrc run qa_errors.arr -e zipc "[1, 2]" "[1, 2, 3]"  ==> error: zip of arrays of unequal sizes
//   arrc run qa_errors.arr -e zipf "[1, 2]" "[1]"  ==> error: 
//   arrc run qa_errors.arr -e shp "[[1.0, 2.0]]" "[[1.0], [2.0]]"  ==> error: shape mismatch
//   arrc run qa_errors.arr -e mx "[]"  ==> error: empty
//   arrc run qa_errors.arr -e mn "[1, 2, 3]"  ==> error: empty
//   arrc run qa_errors.arr -e mn "[1, 20, 13]"  ==> 13
//   arrc run qa_errors.arr -e gat "[1, 2, 3]" "[0, 3]"  ==> error: index 3 out of bounds
//   arrc run qa_errors.arr -e upd "[[1, 2], [3, 4]]" 2  ==> error: index 2 out of bounds
//   arrc run qa_errors.arr -e updcol "[[1, 2], [3, 4]]" "[7, 8, 9]"  ==> error: 
//   arrc run qa_errors.arr -e updcol "[[1, 2], [3, 4]]" "[7, 8]"  ==> [[1, 7], [3, 8]]
//   arrc run qa_errors.arr -e ragged "[1, 1]" "[1, 2, 3]"  ==> [[2, 3], [2, 3]]
//   arrc run qa_errors.arr -e ragged "[1, 2]" "[1, 2, 3]"  ==> error: 
//   arrc run qa_errors.arr -e inloop "[1, 2, 3]" 4  ==> error: index 3 out of bounds
export double at2(double[[*,*]] A, int i, int j) = A[i, j];
export int[[*]] sec(int[[*]] xs, int f, int l) = xs[f:l];
export int[[*]] zipc(int[[*]] a, int[[*]] b) = [x + y | x <- a | y <- b];
export (int, int)[[*]] zipf(int[[*]] a, int[[*]] b) = zip(a, b);
export double[[*,*]] shp(double[[*,*]] A, double[[*,*]] B) = A * B - B;
export double mx(double[[*]] xs) = maximum(xs);
export int mn(int[[*]] xs) = minimum(filter(\x -> x > 10, xs));
export int[[*]] gat(int[[*]] xs, int[[*]] is) = gather(xs, is);
export int[[*,*]] upd(int[[*,*]] A, int i) = A with [i, 0] = 1;
export int[[*,*]] updcol(int[[*,*]] A, int[[*]] c) = A with [:, 1] = c;
export int[[*,*]] ragged(int[[*]] ts, int[[*]] xs) = [filter(\x -> x > t, xs) | t <- ts];
export int inloop(int[[*]] xs, int n) = loop (s = 0) for i < n do s + xs[i];
