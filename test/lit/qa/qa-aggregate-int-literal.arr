export double[[*]] f(double[[*]] xs) = map(sqrt, xs) + 1;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-aggregate-int-literal.arr:1:40: error: cannot add 'double' and 'int'; write the literal as 1.0
// CHECK-NOT: error:
