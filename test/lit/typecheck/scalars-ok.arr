// RUN: %arrc --emit=typed %s | FileCheck %s
export double f(int i, long l, float x, double d, bool b) =
  if b && i < 3 && l > 2L && x < 1.5f then d * double(i) + double(l) + double(x) else 1.5;
// CHECK-DAG: Binary && : bool
// CHECK-DAG: Binary > : bool
// CHECK-DAG: Int 2L : long
// CHECK-DAG: Float 1.5f : float
// CHECK-DAG: Convert double : double
// CHECK-DAG: Float 1.5 : double
