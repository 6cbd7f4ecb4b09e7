export int[[*]] f(int[[*]] is) = hist((+), 0, 4, is, [1.0, 2.0]);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-hist-vals.arr:1:44: error: argument 2 of 'hist' has type 'int' but double was expected; write a double literal, e.g. 0.0
// CHECK-NOT: error:
