// RUN: %arrc --emit=typed %s | FileCheck %s
export int[[*]] f(int[[*]] xs) = map(\x -> x + 1, filter(\x -> x > 0, xs));
export int g((int, int)[[*]] ps) = reduce(\a b -> a + b, 0, map(\(u, v) -> u * v, ps));
// CHECK-DAG: Lambda : (int) -> int
// CHECK-DAG: Param x : int
// CHECK-DAG: Lambda : ((int, int)) -> int
// CHECK-DAG: Param (u, v) : (int, int)
// CHECK-DAG: Lambda : (int, int) -> int
