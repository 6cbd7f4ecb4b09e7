def int g(int x) = if x > 0 then g(x - 1) else 0;
export int f(int x) = g(x);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-recursion.arr:1:34: error: recursion is not allowed: 'g' calls itself
// CHECK-NOT: error:
