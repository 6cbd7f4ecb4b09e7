export int[[*]] f(int n) = [x | x <- n];
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-gen-non-array.arr:1:38: error: a generator ranges over an array, but 'n' has type 'int'
// CHECK-NOT: error:
