export double f(double[[*,*]] A) = sum(A);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-sum-rank2.arr:1:40: error: argument 1 of 'sum' has type 'double{{\[\[}}*,*]]' but <numeric>{{\[\[}}*]] (a rank-1 array) was expected
// CHECK-NOT: error:
