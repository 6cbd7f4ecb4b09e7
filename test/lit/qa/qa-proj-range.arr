export int f((int, int) p) = p.2;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-proj-range.arr:1:30: error: component .2 is out of range for type '(int, int)' (components are numbered from 0 to 1)
// CHECK-NOT: error:
