export int f() = [];
// One error for an empty literal where a scalar is expected; no leaked type variable, no "cannot infer" cascade.
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-empty-literal-result.arr:1:18: error: the body of 'f' has type '<any>{{\[\[}}*]]' but its declared result type is 'int'
// CHECK-NOT: error:
