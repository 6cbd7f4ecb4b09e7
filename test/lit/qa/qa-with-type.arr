export int[[*]] f(int[[*]] xs) = xs with [0] = 1.5;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-with-type.arr:1:48: error: the value stored by 'with' has type 'double' but an element of 'xs' has type 'int'
// CHECK-NOT: error:
