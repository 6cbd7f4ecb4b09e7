// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int f((int, int) p) { let (a, b, c) = p; return a; }
// CHECK: :2:34: error: a tuple pattern of 3 components cannot match a value of type '(int, int)'
// CHECK-NOT: error:
