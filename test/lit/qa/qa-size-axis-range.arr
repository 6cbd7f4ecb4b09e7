export int f(double[[*,*]] A) = A.size(2);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-size-axis-range.arr:1:40: error: axis 2 is out of range for 'A' of rank 2 (axes are 0 to 1)
// CHECK-NOT: error:
