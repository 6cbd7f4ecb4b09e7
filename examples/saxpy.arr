// saxpy.arr — single-precision a*x + y (BLAS level 1), written twice: as a
// zip comprehension and with element-wise aggregate operators. One test
// block serves both exports (`entry:`).

// == test
// entry: saxpy saxpy_aggregate
// in:  2.0f [1.0f, 2.0f, 3.0f] [10.0f, 20.0f, 30.0f]
// out: [12.0f, 24.0f, 36.0f]
// in:  0.5f [0.1f] [0.2f]
// out: [0.25f]
//
// == test
// in:  2.0f [1.0f] [1.0f, 2.0f]
// error: zip of arrays of unequal sizes
//
// == bench
// entry: saxpy saxpy_aggregate
// sizes: n=10^6
// gen:   2.0f [n] [n]
// bytes: 12*n
export float[[*]] saxpy(float a, float[[*]] x, float[[*]] y) =
  [a * xi + yi | xi <- x | yi <- y];

// A shape mismatch of x and y is reported before any element is computed.
// == test
// in:  2.0f [1.0f] [1.0f, 2.0f]
// error: shape mismatch: 1 vs 2
export float[[*]] saxpy_aggregate(float a, float[[*]] x, float[[*]] y) = a * x + y;
