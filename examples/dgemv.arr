// dgemv.arr — matrix-vector product (BLAS level 2): y := alpha*A*x + beta*y,
// and the transposed form y := alpha*A^T*x + beta*y. Rows and columns are
// sections (A[i, :], A[:, j]): views, no copies.
def double row_dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);

// == test
// in:  2.0 [[1.0, 2.0], [3.0, 4.0]] [1.0, 1.0] 1.0 [1.0, 1.0]
// out: [7.0, 15.0]
// in:  1.0 [[1.0, 2.0, 3.0]] [1.0, 1.0] 0.0 [0.0]
// error: zip of arrays of unequal sizes
//
// == bench
// sizes: m=2000, n=2000
// gen:   1.5 [m, n] [n] 0.5 [m]
// bytes: 8*(m*n + n + 2*m)
export double[[*]] dgemv(double alpha, double[[*,*]] A, double[[*]] x, double beta,
                         double[[*]] y) =
  [alpha * row_dot(A[i, :], x) + beta * y[i] | i <- [0..<A.size(0)]];

// == test
// in:  2.0 [[1.0, 2.0], [3.0, 4.0]] [1.0, 1.0] 1.0 [1.0, 1.0]
// out: [9.0, 13.0]
// in:  1.0 [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] [1.0, -1.0] 1.0 [0.5, 0.5, 0.5]
// out: [-2.5, -2.5, -2.5]
//
// == bench
// sizes: m=2000, n=2000
// gen:   1.5 [m, n] [m] 0.5 [n]
// bytes: 8*(m*n + m + 2*n)
export double[[*]] dgemv_t(double alpha, double[[*,*]] A, double[[*]] x, double beta,
                           double[[*]] y) =
  [alpha * row_dot(A[:, j], x) + beta * y[j] | j <- [0..<A.size(1)]];
