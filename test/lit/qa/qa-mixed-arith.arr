export double f(int x) = x + 1.0;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-mixed-arith.arr:1:26: error: cannot add 'int' and 'double'; convert explicitly, e.g. double(x)
// CHECK-NOT: error:
