// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int[[*]] f(int[[*]] a) = let g = \x -> x in map(g, a);
// CHECK: :2:41: error: a lambda can only be passed as an argument where a function is expected
// CHECK-NOT: error:
