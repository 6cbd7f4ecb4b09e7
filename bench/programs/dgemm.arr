// Dense matrix product C = A B in double precision, written with sections:
// element (i, j) is the dot product of row A[i, :] and column B[:, j]
// (views, no copies). Timed by bench/whole (arrc_bench_whole).

// == test
// in: [[1.0, 2.0], [3.0, 4.0]] [[5.0, 6.0], [7.0, 8.0]]
// out: [[19.0, 22.0], [43.0, 50.0]]
export double[[*,*]] dgemm(double[[*,*]] A, double[[*,*]] B) =
  [[dot(A[i, :], B[:, j]) | j <- iota(B.size(1))] | i <- iota(A.size(0))];
