export int[[*]] f(int[[*]] xs) = [x + y | x <- xs | y <- [0..<x]];
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-zip-branch-var.arr:1:63: error: unknown name 'x'
// CHECK-NOT: error:
