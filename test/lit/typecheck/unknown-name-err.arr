// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double f(double[[*]] a) = sum(a) + q;
// CHECK: :2:43: error: unknown name 'q'
// CHECK-NOT: error:
