// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int f(long n) = loop (acc = 0) for i < n do acc + i;
// CHECK: :2:47: error: the bound of a 'for' loop has type 'long' but int was expected
// CHECK-NOT: error:
