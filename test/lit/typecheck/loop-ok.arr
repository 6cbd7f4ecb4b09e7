// RUN: %arrc --emit=typed %s | FileCheck %s
export (int, double) f(int n) = loop ((k, acc) = (0, 1.0)) for i < n do (k + i, acc * 2.0);
export int g(int n) = loop (x = n) while x > 1 do x / 2;
// CHECK-DAG: Loop for i : (int, double)
// CHECK-DAG: State (k, acc) : (int, double)
// CHECK-DAG: Loop while : int
