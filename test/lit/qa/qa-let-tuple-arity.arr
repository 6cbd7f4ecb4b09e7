export (int, int) f(int x) = let (a, b, c) = (x, x) in (a, b);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-let-tuple-arity.arr:1:34: error: a tuple pattern of 3 components cannot match a value of type '(int, int)'
// CHECK-NOT: error:
