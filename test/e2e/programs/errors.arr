// Runtime errors name the source position: file:line:col: error: ... (exit 1).
//
//   arrc run errors.arr -e get "[1, 2, 3]" 3  ==> error: index 3 out of bounds for axis 0 of size 3
//   arrc run errors.arr -e get "[1, 2, 3]" 2  ==> 3
//   arrc run errors.arr -e shift "[1, 2, 3]"  ==> error: index 3 out of bounds for axis 0 of size 3
//   arrc run errors.arr -e dot "[1.0]" "[1.0, 2.0]"  ==> error: zip of arrays of unequal sizes
//   arrc run errors.arr -e add "[[1.0]]" "[[1.0, 2.0]]"  ==> error: shape mismatch
//   arrc run errors.arr -e add "[[1.0, 2.0]]" "[[1.0, 2.0]]"  ==> [[2.0, 4.0]]
export int get(int[[*]] xs, int i) = xs[i];
export int[[*]] shift(int[[*]] xs) = [xs[i + 1] | i <- iota(length(xs))];
export double dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);
export double[[*,*]] add(double[[*,*]] A, double[[*,*]] B) = A + B;
