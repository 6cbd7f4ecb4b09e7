export int f((int) -> int g) = g(1);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-export-fun-param.arr:1:14: error: exported function 'f' cannot take a function parameter ('g' has type '(int) -> int'); only internal 'def' functions can
// CHECK-NOT: error:
