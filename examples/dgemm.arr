// dgemm.arr — matrix-matrix product (BLAS level 3): C := alpha*A*B + beta*C.
// A nested comprehension whose inner size does not depend on i: a rank-2
// result. Element (i, j) is the dot product of row A[i, :] and column B[:, j].
def double row_dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);

// == test
// in:  1.0 [[1.0, 2.0], [3.0, 4.0]] [[5.0, 6.0], [7.0, 8.0]] 0.0 [[0.0, 0.0], [0.0, 0.0]]
// out: [[19.0, 22.0], [43.0, 50.0]]
// in:  2.0 [[1.0, 0.0, 2.0]] [[1.0], [2.0], [3.0]] 1.0 [[0.5]]
// out: [[14.5]]
//
// == bench
// sizes: n=256
// gen:   1.0 [n, n] [n, n] 0.0 [n, n]
export double[[*,*]] dgemm(double alpha, double[[*,*]] A, double[[*,*]] B, double beta,
                           double[[*,*]] C) =
  [[alpha * row_dot(A[i, :], B[:, j]) + beta * C[i, j] | j <- [0..<B.size(1)]]
   | i <- [0..<A.size(0)]];
