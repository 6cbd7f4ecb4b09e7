export int[[*]] f() = [1, 2.0];
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-mixed-literal.arr:1:27: error: element 1 of the array literal has type 'double' but the first element has type 'int'
// CHECK-NOT: error:
