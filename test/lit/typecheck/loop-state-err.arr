// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int f(int n) = loop (acc = 0) for i < n do acc + i * 2.0;
// CHECK: :2:57: error: cannot multiply 'int' and 'double'; convert explicitly, e.g. double(i)
// CHECK-NOT: error:
