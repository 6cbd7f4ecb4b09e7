export int f(int x) = x @ 1;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-bad-byte.arr:1:25: error: unexpected character '@'
// CHECK-NOT: error:
