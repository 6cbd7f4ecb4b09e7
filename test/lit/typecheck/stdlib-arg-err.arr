// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double f(double[[*]] a, int[[*]] b) = dot(a, b);
// CHECK: :2:53: error: argument 2 of 'dot' has type 'int{{\[\[}}*{{\]\]}}' but double{{\[\[}}*{{\]\]}} was expected
// CHECK-NOT: error:
