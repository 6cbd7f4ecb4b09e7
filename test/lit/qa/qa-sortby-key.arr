export int[[*]] f(int[[*]] xs) = sort_by(\x -> (x, x), xs);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-sortby-key.arr:1:48: error: the body of this lambda has type '(int, int)' but <scalar> was expected
// CHECK-NOT: error:
