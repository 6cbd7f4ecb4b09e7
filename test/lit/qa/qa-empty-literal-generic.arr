<T> def T g(T x) = x;
export int f() = g([]);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-empty-literal-generic.arr:2:20: error: argument 1 of 'g' has type '<any>{{\[\[}}*]]'
// CHECK-NOT: error:
