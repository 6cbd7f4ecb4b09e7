export int f(int x) = x
export int g(int x) = x;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-missing-semi.arr:2:1: error: expected ';' but found 'export'
// CHECK-NOT: error:
