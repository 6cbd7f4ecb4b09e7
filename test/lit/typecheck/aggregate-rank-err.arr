// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double[[*]] f(double[[*]] a, double[[*,*]] B) = a + B;
// CHECK: :2:56: error: element-wise '+' needs arrays of equal rank, but the operands have types 'double{{\[\[}}*{{\]\]}}' and 'double{{\[\[}}*,*{{\]\]}}'
// CHECK-NOT: error:
