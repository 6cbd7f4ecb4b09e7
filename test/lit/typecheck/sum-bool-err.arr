// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export bool f(bool[[*]] a) = sum(a);
// CHECK: :2:34: error: argument 1 of 'sum' has type 'bool{{\[\[}}*{{\]\]}}' but <numeric>{{\[\[}}*{{\]\]}} was expected
// CHECK-NOT: error:
