// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double[[*,*]] f(double n) = new double[[n, 2]];
// CHECK: :2:48: error: an array dimension has type 'double' but int or long was expected
// CHECK-NOT: error:
