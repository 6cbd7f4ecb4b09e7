// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int[[*]] f(int x) = [y | y <- x];
// CHECK: :2:38: error: a generator ranges over an array, but 'x' has type 'int'
// CHECK-NOT: error:
