// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double f(double[[*]] a) = summ(a);
// CHECK: :2:34: error: unknown function 'summ'
// CHECK-NOT: error:
