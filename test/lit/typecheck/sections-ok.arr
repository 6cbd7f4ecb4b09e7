// RUN: %arrc --emit=typed %s | FileCheck %s
export double[[*]] f(double[[*,*]] A, int i) = A[i, :] + A[:, i] + A[0:i:2, 1];
// CHECK-DAG: Section : double{{\[\[}}*{{\]\]}}
// CHECK-DAG: Triplet first:last:step
