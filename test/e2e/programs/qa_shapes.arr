// QA-2 (was pending): zip size checks inside nested comprehensions and inside stdlib functions (matvec, matmul), reported at the user's call.

// == test
// in: [[1.0, 2.0], [3.0, 4.0]] [1.0, 1.0, 1.0]
// error: zip of arrays of unequal sizes
// in: [[1.0, 2.0], [3.0, 4.0]] [1.0, 1.0]
// out: [3.0, 7.0]
export double[[*]] f(double[[*,*]] A, double[[*]] x) = [sum([a * b | a <- A[i, :] | b <- x]) | i <- iota(A.size(0))];
// == test
// in: [1, 2] [1, 2, 3]
// error: zip of arrays of unequal sizes
export int[[*,*]] g(int[[*]] xs, int[[*]] ys) = [[a + b | a <- xs | b <- ys] | _k <- [0..<2]];
// == test
// in: [[1.0, 2.0], [3.0, 4.0]] [1.0, 1.0, 1.0]
// error:
export double[[*]] mv(double[[*,*]] A, double[[*]] x) = matvec(A, x);
// == test
// in: [[1.0, 2.0]] [[1.0], [2.0], [3.0]]
// error:
export double[[*,*]] mm(double[[*,*]] A, double[[*,*]] B) = matmul(A, B);
