// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export (int, int)[[*]] f((int, int)[[*]] a) = sort(a);
// CHECK: :2:52: error: argument 1 of 'sort' has type '(int, int){{\[\[}}*{{\]\]}}' but <scalar>{{\[\[}}*{{\]\]}} was expected
// CHECK-NOT: error:
