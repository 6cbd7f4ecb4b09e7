export double f(int[[*]] xs) = maximum(xs);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-max-arr-type.arr:1:32: error: the body of 'f' has type 'int' but its declared result type is 'double'
// CHECK-NOT: error:
