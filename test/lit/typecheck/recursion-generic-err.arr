// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
<T> def T g(T x) = g(x);
export int f(int x) = g(x);
// CHECK: :3:23: error: in the call of 'g' with T = int: recursion is not allowed: 'g' calls itself
// CHECK-NOT: error:
