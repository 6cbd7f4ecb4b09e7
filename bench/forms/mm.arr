// Alternative forms (bench/forms/README.md): matrix products written other ways (sections, transposes, dot, loops).
// Each export with a bench block is timed by bench/run_forms.sh.
// == bench
// sizes: n=256
// gen: [n, n] [n, n]
export double[[*,*]] mm1(double[[*,*]] A, double[[*,*]] B) =
  [[sum([A[i, k] * B[k, j] | k <- iota(A.size(1))]) | j <- iota(B.size(1))] | i <- iota(A.size(0))];
// == bench
// sizes: n=256
// gen: [n, n] [n, n]
export double[[*,*]] mm2(double[[*,*]] A, double[[*,*]] B) = matmul(A, B);
// == bench
// sizes: n=256
// gen: [n, n] [n, n]
export double[[*,*]] mm3(double[[*,*]] A, double[[*,*]] B) =
  let BT = transpose(B) in [[dot(A[i, :], BT[j, :]) | j <- iota(B.size(1))] | i <- iota(A.size(0))];
// == bench
// sizes: n=256
// gen: [n, n] [n, n]
export double[[*,*]] mm4(double[[*,*]] A, double[[*,*]] B) =
  [[sum(A[i, :] * B[:, j]) | j <- iota(B.size(1))] | i <- iota(A.size(0))];
// == bench
// sizes: n=256
// gen: [n, n] [n, n]
export double[[*,*]] mm5(double[[*,*]] A, double[[*,*]] B) =
  [[reduce((+), 0.0, [a * b | a <- A[i, :] | b <- B[:, j]]) | j <- iota(B.size(1))] | i <- iota(A.size(0))];
// == bench
// sizes: n=256
// gen: [n, n] [n, n]
export double[[*,*]] mm6(double[[*,*]] A, double[[*,*]] B) =
  [[dot(A[i, :], B[:, j]) | j <- iota(B.size(1))] | i <- iota(A.size(0))];
