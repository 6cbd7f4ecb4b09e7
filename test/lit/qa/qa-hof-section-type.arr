def int g((int, int) -> int h, int x) = h(x, x);
export int f(int x) = g((<), x);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-hof-section-type.arr:2:25: error: argument 1 of 'g' has type '(int, int) -> bool' but (int, int) -> int was expected
// CHECK-NOT: error:
