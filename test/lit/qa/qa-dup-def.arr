export int f(int x) = x;
export int f(int x) = x + 1;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-dup-def.arr:2:12: error: 'f' is already defined in this module
// CHECK-NOT: error:
