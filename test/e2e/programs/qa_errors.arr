// QA held-out: runtime errors name the source position (exit 1), and the same
// exports succeed on good inputs.

// == test
// in: [[1.0, 2.0], [3.0, 4.0]] 1 2
// error: index 2 out of bounds for axis 1 of size 2
// in: [[1.0, 2.0], [3.0, 4.0]] -1 0
// error: index -1 out of bounds
// in: [[1.0, 2.0], [3.0, 4.0]] 1 1
// out: 4.0
export double at2(double[[*,*]] A, int i, int j) = A[i, j];
// == test
// in: [1, 2, 3] 1 3
// error: out of bounds
// in: [1, 2, 3] 1 2
// out: [2, 3]
export int[[*]] sec(int[[*]] xs, int f, int l) = xs[f:l];
// == test
// in: [1, 2] [1, 2, 3]
// error: zip of arrays of unequal sizes
export int[[*]] zipc(int[[*]] a, int[[*]] b) = [x + y | x <- a | y <- b];
// == test
// in: [1, 2] [1]
// error:
export (int, int)[[*]] zipf(int[[*]] a, int[[*]] b) = zip(a, b);
// == test
// in: [[1.0, 2.0]] [[1.0], [2.0]]
// error: shape mismatch
export double[[*,*]] shp(double[[*,*]] A, double[[*,*]] B) = A * B - B;
// == test
// in: []
// error: empty
export double mx(double[[*]] xs) = maximum(xs);
// == test
// in: [1, 2, 3]
// error: empty
// in: [1, 20, 13]
// out: 13
export int mn(int[[*]] xs) = minimum(filter(\x -> x > 10, xs));
// == test
// in: [1, 2, 3] [0, 3]
// error: index 3 out of bounds
export int[[*]] gat(int[[*]] xs, int[[*]] is) = gather(xs, is);
// == test
// in: [[1, 2], [3, 4]] 2
// error: index 2 out of bounds
export int[[*,*]] upd(int[[*,*]] A, int i) = A with [i, 0] = 1;
// == test
// in: [[1, 2], [3, 4]] [7, 8, 9]
// error:
// in: [[1, 2], [3, 4]] [7, 8]
// out: [[1, 7], [3, 8]]
export int[[*,*]] updcol(int[[*,*]] A, int[[*]] c) = A with [:, 1] = c;
// == test
// in: [1, 1] [1, 2, 3]
// out: [[2, 3], [2, 3]]
// in: [1, 2] [1, 2, 3]
// error:
export int[[*,*]] ragged(int[[*]] ts, int[[*]] xs) = [filter(\x -> x > t, xs) | t <- ts];
// == test
// in: [1, 2, 3] 4
// error: index 3 out of bounds
export int inloop(int[[*]] xs, int n) = loop (s = 0) for i < n do s + xs[i];
