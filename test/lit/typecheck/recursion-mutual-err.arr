// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
def int g(int x) = if x > 0 then h(x - 1) else 0;
def int h(int x) = g(x);
export int f(int x) = g(x);
// CHECK: :3:20: error: recursion is not allowed: 'g' calls 'h' calls 'g'
// CHECK-NOT: error:
