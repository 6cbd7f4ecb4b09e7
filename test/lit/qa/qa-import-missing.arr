import "does_not_exist";
export int f(int x) = x;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-import-missing.arr:1:1: error: cannot find imported file 'does_not_exist' (searched
// CHECK-NOT: error:
