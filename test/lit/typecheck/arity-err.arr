// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double f(double[[*]] a) = sum(a, a);
// CHECK: :2:34: error: 'sum' takes 1 argument but 2 were given
// CHECK-NOT: error:
