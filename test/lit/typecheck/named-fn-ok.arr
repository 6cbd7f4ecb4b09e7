// RUN: %arrc --emit=typed %s | FileCheck %s
def double sq(double x) = x * x;
def double twice((double) -> double g, double x) = g(g(x));
export double[[*]] f(double[[*]] xs) = map(sq, xs) ++ [twice(sq, x) | x <- xs] ++ [twice(\y -> y + 1.0, x) | x <- xs];
// CHECK-DAG: Var sq [function sq] : (double) -> double
// CHECK-DAG: Var g [param] : (double) -> double
