export int f() = 2147483648;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-int-overflow.arr:1:18: error: integer literal '2147483648' is out of range for int (use the L suffix for a long)
// CHECK-NOT: error:
