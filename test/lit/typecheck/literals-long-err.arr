// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export long f(long n) = n * 2;
// CHECK: :2:25: error: cannot multiply 'long' and 'int'; write the literal as 2L
// CHECK-NOT: error:
