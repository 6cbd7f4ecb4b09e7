// RUN: %arrc --emit=typed %s 2>&1 | FileCheck %s
export int f(int x) = let y = 3 in x;
// CHECK: warning: unused variable
// CHECK: export f(x : int) : int
