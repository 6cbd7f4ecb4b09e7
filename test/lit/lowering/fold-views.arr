// Reads through a permuted view read its source (FoldViews.cpp): after
// boundsChecks, an unchecked read of a transpose reads the array it views at
// the swapped indices; a checked read keeps the view (its error names the
// view's axis).
// RUN: %arrc --emit=ir %s | FileCheck %s

// dgemm through transpose(B): Bt[j, k] is B[k, j]; the view goes.
// CHECK-LABEL: export mm_t(
// CHECK-NOT: view
// CHECK: let b_{{[0-9]+}}: double = B_[[B:[0-9]+]][k_[[K:[0-9]+]], ix_{{[0-9]+}}]
// CHECK: yield
export double[[*,*]] mm_t(double[[*,*]] A, double[[*,*]] B) {
  let Bt = transpose(B);
  return [[dot(A[i, :], Bt[j, :]) | j <- iota(B.size(1))] | i <- iota(A.size(0))];
}

// A transpose of a transpose reads the source as it is.
// CHECK-LABEL: export tt(
// CHECK-NOT: view
// CHECK: yield (X_{{[0-9]+}}[i_[[I:[0-9]+]], i_{{[0-9]+}}] * 2.0)
export double[[*,*]] tt(double[[*,*]] X) {
  let Y = transpose(transpose(X));
  return [[Y[i, j] * 2.0 | j <- iota(X.size(1))] | i <- iota(X.size(0))];
}

// An index that may be out of range: the read stays checked, through the view.
// CHECK-LABEL: export pick(
// CHECK: view X_
// CHECK: tr_{{[0-9]+}}[{{.*}}]!{{[0-9]+}}
export double pick(double[[*,*]] X, int i, int j) = transpose(X)[i, j];
