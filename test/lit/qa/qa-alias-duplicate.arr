type p = int;
type p = double;
export p f(p x) = x;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-alias-duplicate.arr:2:1: error: type 'p' is already defined in this module
// CHECK-NOT: error:
