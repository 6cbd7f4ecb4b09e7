// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int[[*]] f(int[[*]] xs) = [y | y <- xs, y + 1];
// CHECK: :2:48: error: a filter must have type bool, but this has type 'int'
// CHECK-NOT: error:
