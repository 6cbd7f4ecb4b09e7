// RUN: %arrc --emit=typed %s | FileCheck %s
export int f(int x, int _unused) = let _y = 3 in x;
// CHECK-DAG: export f(x : int, _unused : int) : int
