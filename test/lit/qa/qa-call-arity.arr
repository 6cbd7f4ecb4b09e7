def int g(int a, int b) = a + b;
export int f(int x) = g(x);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-call-arity.arr:2:23: error: 'g' takes 2 arguments but 1 was given
// CHECK-NOT: error:
