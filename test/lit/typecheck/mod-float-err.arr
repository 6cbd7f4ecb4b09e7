// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double f(double a) = a % 2.0;
// CHECK: :2:29: error: operator '%' needs int or long operands, but they have types 'double' and 'double'
// CHECK-NOT: error:
