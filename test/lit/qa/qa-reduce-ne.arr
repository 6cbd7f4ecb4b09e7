export int f(int[[*]] xs) = reduce((+), 0.0, xs);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-reduce-ne.arr:1:41: error: argument 2 of 'reduce' has type 'double' but int was expected; convert explicitly, e.g. int(...)
// CHECK-NOT: error:
