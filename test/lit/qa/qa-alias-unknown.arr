type t = foo;
export int f(t x) = 1;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-alias-unknown.arr:1:1: error: unknown type 'foo'
// CHECK-NOT: error:
