export int[[*,*]] f(int n) = new int[[n]];
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-return-rank.arr:1:30: error: the body of 'f' has type 'int{{\[\[}}*]]' but its declared result type is 'int{{\[\[}}*,*]]'
// CHECK-NOT: error:
