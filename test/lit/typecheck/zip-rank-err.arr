// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export (int, int)[[*]] f(int[[*,*]] a, int[[*]] b) = zip(a, b);
// CHECK: :2:58: error: argument 1 of 'zip' has type 'int{{\[\[}}*,*{{\]\]}}' but a rank-1 array was expected
// CHECK-NOT: error:
