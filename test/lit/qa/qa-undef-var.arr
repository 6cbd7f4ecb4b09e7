export int f(int x) = x + y;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-undef-var.arr:1:27: error: unknown name 'y'
// CHECK-NOT: error:
