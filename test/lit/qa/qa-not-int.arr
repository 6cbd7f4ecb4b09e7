export bool f(int x) = !x;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-not-int.arr:1:24: error: operator '!' needs a bool operand (or an array of them), but it has type 'int'
// CHECK-NOT: error:
