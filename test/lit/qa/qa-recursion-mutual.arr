export int f() = g(1);
def int g(int x) = h(x);
def int h(int x) = g(x);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-recursion-mutual.arr:3:20: error: recursion is not allowed: 'g' calls 'h' calls 'g'
// CHECK-NOT: error:
