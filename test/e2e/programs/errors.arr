// Runtime errors name the source position: file:line:col: error: ... (exit 1).

// == test
// in: [1, 2, 3] 3
// error: index 3 out of bounds for axis 0 of size 3
// in: [1, 2, 3] 2
// out: 3
export int get(int[[*]] xs, int i) = xs[i];
// == test
// in: [1, 2, 3]
// error: index 3 out of bounds for axis 0 of size 3
export int[[*]] shift(int[[*]] xs) = [xs[i + 1] | i <- iota(length(xs))];
// == test
// in: [1.0] [1.0, 2.0]
// error: zip of arrays of unequal sizes
export double dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);
// == test
// in: [[1.0]] [[1.0, 2.0]]
// error: shape mismatch
// in: [[1.0, 2.0]] [[1.0, 2.0]]
// out: [[2.0, 4.0]]
export double[[*,*]] add(double[[*,*]] A, double[[*,*]] B) = A + B;
