// saxpy.arr — single-precision a*x + y (BLAS level 1), written twice: as a
// zip comprehension and with element-wise aggregate operators.
//
//   arrc run examples/saxpy.arr -e saxpy 2.0f "[1.0f, 2.0f, 3.0f]" "[10.0f, 20.0f, 30.0f]"
//     ==> [12.0f, 24.0f, 36.0f]
//   arrc run examples/saxpy.arr -e saxpy_aggregate 2.0f "[1.0f, 2.0f, 3.0f]" "[10.0f, 20.0f, 30.0f]"
//     ==> [12.0f, 24.0f, 36.0f]
export float[[*]] saxpy(float a, float[[*]] x, float[[*]] y) =
  [a * xi + yi | xi <- x | yi <- y];

export float[[*]] saxpy_aggregate(float a, float[[*]] x, float[[*]] y) = a * x + y;
