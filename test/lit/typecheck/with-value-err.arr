// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double[[*,*]] f(double[[*,*]] A) = A with [0, :] = 1.0;
// CHECK: :2:59: error: the value stored by 'with' has type 'double' but the section of 'A' has type 'double{{\[\[}}*{{\]\]}}'
// CHECK-NOT: error:
