// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double f(double a) = a(2.0);
// CHECK: :2:29: error: 'a' is not a function; it has type 'double'
// CHECK-NOT: error:
