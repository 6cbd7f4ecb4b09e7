export int f(bool c) = 1 + if c then 2 else 3;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-if-operand.arr:1:28: error: unexpected 'if' (expected an expression)
// CHECK-NOT: error:
