export int[[*]] f(int[[*]] xs) = filter(\x -> x + 1, xs);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-filter-pred.arr:1:47: error: the body of this lambda has type 'int' but bool was expected
// CHECK-NOT: error:
