<T> def T sumit(T[[*]] xs) = sum(xs);
export bool f(bool[[*]] b) = sumit(b);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-generic-inst-sum-bool.arr:2:30: error: in the call of 'sumit' with T = bool: argument 1 of 'sum' has type 'bool{{\[\[}}*]]' but <numeric>{{\[\[}}*]] was expected
// CHECK-NOT: error:
