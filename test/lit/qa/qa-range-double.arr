export double[[*]] f() = [1.0..<3.0];
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-range-double.arr:1:27: error: a range bound has type 'double' but int or long was expected
// CHECK-NOT: error:
