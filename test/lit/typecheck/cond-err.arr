// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int f(int x) = if x then 1 else 2;
// CHECK: :2:26: error: the condition of 'if' has type 'int' but bool was expected
// CHECK-NOT: error:
