// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int f(double x) = x * 2.0;
// CHECK: :2:26: error: the body of 'f' has type 'double' but its declared result type is 'int'
// CHECK-NOT: error:
