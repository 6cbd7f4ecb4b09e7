// RUN: %arrc --emit=typed %s 2>&1 | FileCheck %s
export int f(int x) = let y = x in let y = y + 3 in y;
// CHECK: warning: 'y' shadows
// CHECK: export f(x : int) : int
