export int f(int[[*]] xs) = xs.size;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-size-no-axis.arr:1:32: error: '.size' needs an axis: write A.size(k)
// CHECK-NOT: error:
