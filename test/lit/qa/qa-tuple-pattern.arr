export int f(int x) = let (a, b) = x in a + b;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-tuple-pattern.arr:1:27: error: a tuple pattern of 2 components cannot match a value of type 'int'
// CHECK-NOT: error:
