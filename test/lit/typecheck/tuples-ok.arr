// RUN: %arrc --emit=typed %s | FileCheck %s
type point = (int, double);
export double f(point p) {
  let (a, b) = p;
  return double(a) + b + p.1;
}
// CHECK-DAG: Pattern (a, b) : (int, double)
// CHECK-DAG: Project .1 : double
// CHECK-DAG: Var p [param] : (int, double)
