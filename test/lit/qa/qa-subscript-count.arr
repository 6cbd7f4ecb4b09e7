export int f(int[[*,*]] A) = A[0];
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-subscript-count.arr:1:30: error: 'A' has rank 2 but the subscript list has 1 entry; it needs exactly one per axis
// CHECK-NOT: error:
