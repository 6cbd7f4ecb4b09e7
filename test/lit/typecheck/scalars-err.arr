// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double f(double x, int i) = x + i;
// CHECK: :2:36: error: cannot add 'double' and 'int'; convert explicitly, e.g. double(i)
// CHECK-NOT: error:
