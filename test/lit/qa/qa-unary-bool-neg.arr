export bool f(bool b) = -b;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-unary-bool-neg.arr:1:25: error: operator '-' needs a numeric operand (or an array of them), but it has type 'bool'
// CHECK-NOT: error:
