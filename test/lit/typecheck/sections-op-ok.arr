// RUN: %arrc --emit=typed %s | FileCheck %s
export double f(double[[*]] xs) = reduce((+), 0.0, xs) + reduce((max), 0.0, xs) + reduce(min, 1.0, scan((*), 1.0, xs));
// CHECK-DAG: OpSection (+) : (double, double) -> double
// CHECK-DAG: Var max [intrinsic] : (double, double) -> double
// CHECK-DAG: Var min [intrinsic] : (double, double) -> double
