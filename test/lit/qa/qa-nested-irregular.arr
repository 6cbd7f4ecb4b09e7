export int[[*,*]] f(int[[*]] ns) = [[j | j <- [0..<n]] | n <- ns];
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-nested-irregular.arr:1:37: error: the rows of this nested comprehension have different lengths: their size depends on 'n'; use one comprehension with two generators for a flat result
// CHECK-NOT: error:
