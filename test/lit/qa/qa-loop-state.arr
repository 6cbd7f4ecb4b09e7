export int f(int n) = loop (s = 0) for i < n do double(s) + 1.5;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-loop-state.arr:1:49: error: the loop body has type 'double' but the loop state has type 'int'
// CHECK-NOT: error:
