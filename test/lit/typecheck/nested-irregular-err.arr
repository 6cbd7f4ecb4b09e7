// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int[[*,*]] f(int n) = [[j | j <- iota(i)] | i <- iota(n)];
// CHECK: :2:31: error: the rows of this nested comprehension have different lengths: their size depends on 'i'; use one comprehension with two generators for a flat result
// CHECK-NOT: error:
