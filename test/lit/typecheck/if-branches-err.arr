// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int f(bool b) = if b then 1 else 2.0;
// CHECK: :2:41: error: the branches of 'if' have different types: 'then' has 'int' and 'else' has 'double'
// CHECK-NOT: error:
