export int f(int x) = if x then 1 else 2;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-if-cond.arr:1:26: error: the condition of 'if' has type 'int' but bool was expected
// CHECK-NOT: error:
