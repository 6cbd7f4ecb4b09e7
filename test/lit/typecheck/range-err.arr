// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int[[*]] f(double n) = [0..<n];
// CHECK: :2:36: error: a range bound has type 'double' but int or long was expected
// CHECK-NOT: error:
