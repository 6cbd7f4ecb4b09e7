export int[[*,*]] f() = [[1, 2], [3]];
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-ragged-literal.arr:1:34: error: the array literal is not rectangular: this row has 1 element but the first has 2
// CHECK-NOT: error:
