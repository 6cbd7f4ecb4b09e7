// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double f(double[[*]] a) = reduce((+), 0, a);
// CHECK: :2:46: error: argument 2 of 'reduce' has type 'int' but double was expected; write a double literal, e.g. 0.0
// CHECK-NOT: error:
