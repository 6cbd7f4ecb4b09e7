// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int f(int n) = loop (x = n) while x do x / 2;
// CHECK: :2:42: error: the condition of a 'while' loop has type 'int' but bool was expected
// CHECK-NOT: error:
