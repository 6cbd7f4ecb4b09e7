// dgemv.arr — matrix-vector product (BLAS level 2): y := alpha*A*x + beta*y,
// and the transposed form y := alpha*A^T*x + beta*y. Rows and columns are
// sections (A[i, :], A[:, j]): views, no copies.
//
//   arrc run examples/dgemv.arr -e dgemv 2.0 "[[1.0, 2.0], [3.0, 4.0]]" "[1.0, 1.0]" 1.0 "[1.0, 1.0]"
//     ==> [7.0, 15.0]
//   arrc run examples/dgemv.arr -e dgemv_t 2.0 "[[1.0, 2.0], [3.0, 4.0]]" "[1.0, 1.0]" 1.0 "[1.0, 1.0]"
//     ==> [9.0, 13.0]
def double row_dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);

export double[[*]] dgemv(double alpha, double[[*,*]] A, double[[*]] x, double beta,
                         double[[*]] y) =
  [alpha * row_dot(A[i, :], x) + beta * y[i] | i <- [0..<A.size(0)]];

export double[[*]] dgemv_t(double alpha, double[[*,*]] A, double[[*]] x, double beta,
                           double[[*]] y) =
  [alpha * row_dot(A[:, j], x) + beta * y[j] | j <- [0..<A.size(1)]];
