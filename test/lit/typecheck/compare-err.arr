// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export bool f(float x, double y) = x < y;
// CHECK: :2:36: error: cannot compare 'float' and 'double'; convert explicitly, e.g. double(x)
// CHECK-NOT: error:
