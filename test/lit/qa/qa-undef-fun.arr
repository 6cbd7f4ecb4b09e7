export int f(int x) = g(x);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-undef-fun.arr:1:23: error: unknown function 'g'
// CHECK-NOT: error:
