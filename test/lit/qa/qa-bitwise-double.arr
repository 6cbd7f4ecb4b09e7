export double f(double x) = x & 2.0;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-bitwise-double.arr:1:29: error: operator '&' needs int, long or bool operands, but they have types 'double' and 'double'
// CHECK-NOT: error:
