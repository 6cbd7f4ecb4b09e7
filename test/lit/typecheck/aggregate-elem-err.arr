// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double[[*]] f(double[[*]] a, float[[*]] b) = a * b;
// CHECK: :2:53: error: cannot multiply 'double' and 'float'; convert explicitly, e.g. double(b)
// CHECK-NOT: error:
