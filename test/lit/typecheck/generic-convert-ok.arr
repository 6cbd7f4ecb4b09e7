// RUN: %arrc --emit=typed %s | FileCheck %s
<T> def T half(T x) = x / T(2);
export double f(double x, int i) = half(x) + double(half(i));
// CHECK-DAG: def half<double>(x : double) : double
// CHECK-DAG: Convert double : double
// CHECK-DAG: def half<int>(x : int) : int
