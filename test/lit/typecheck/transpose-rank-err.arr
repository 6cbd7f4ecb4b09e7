// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int[[*]] f(int[[*]] a) = transpose(a);
// CHECK: :2:43: error: argument 1 of 'transpose' has type 'int{{\[\[}}*{{\]\]}}' but an array of rank 2 or more was expected
// CHECK-NOT: error:
