// Kernels used by main.cpp: a dot product (a fused reduction) and a scaled
// matrix-vector product on a multiarray.
export double dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);

export double[[*]] matvec_scaled(double s, double[[*,*]] A, double[[*]] x) =
  [s * sum([A[i, j] * x[j] | j <- iota(x.size(0))]) | i <- iota(A.size(0))];
