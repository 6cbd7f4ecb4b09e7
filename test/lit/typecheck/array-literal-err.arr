// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int[[*]] f() = [1, 2.0];
// CHECK: :2:27: error: element 1 of the array literal has type 'double' but the first element has type 'int'
// CHECK-NOT: error:
