// RUN: not %arrc --emit=typed %s -Werror 2>&1 | FileCheck %s
export int f(int x) = let y = 3 in x;
// CHECK: :2:27: error: unused variable 'y' (prefix it with '_' to silence this)
// CHECK-NOT: error:
