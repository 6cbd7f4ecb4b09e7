// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double f(double[[*]] a) = reduce(\x -> x, 0.0, a);
// CHECK: :2:41: error: this lambda takes 1 parameter but a function of type (double, double) -> double (2 parameters) is expected here
// CHECK-NOT: error:
