// RUN: %arrc --emit=typed %s | FileCheck %s
export double f(double[[*,*,*]] A, int i) = A[i, 0, 1] + double(A.size(2)) + double(A.rank);
// CHECK-DAG: Index : double
// CHECK-DAG: Size : int
// CHECK-DAG: Rank : int
