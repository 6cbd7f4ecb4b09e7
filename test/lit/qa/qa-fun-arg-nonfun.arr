def int ap((int) -> int h, int x) = h(x);
export int f(int x) = ap(3, x);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-fun-arg-nonfun.arr:2:26: error: argument 1 of 'ap' has type 'int' but (int) -> int was expected
// CHECK-NOT: error:
