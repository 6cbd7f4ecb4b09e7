export int[[*]] f(int[[*]] xs) = xs[0:2:1.0];
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-section-step.arr:1:41: error: the step of a section has type 'double' but int or long was expected
// CHECK-NOT: error:
