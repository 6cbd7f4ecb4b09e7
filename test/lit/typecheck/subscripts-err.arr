// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double f(double[[*,*]] A) = A[1];
// CHECK: :2:36: error: 'A' has rank 2 but the subscript list has 1 entry; it needs exactly one per axis
// CHECK-NOT: error:
