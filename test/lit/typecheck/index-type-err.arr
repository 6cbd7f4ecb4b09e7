// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double f(double[[*]] A, double i) = A[i];
// CHECK: :2:46: error: an index has type 'double' but int or long was expected
// CHECK-NOT: error:
