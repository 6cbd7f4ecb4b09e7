// RUN: not %arrc --emit=typed %s -Werror 2>&1 | FileCheck %s
export int f(int x) = let y = x in let y = y + 3 in y;
// CHECK: :2:40: error: 'y' shadows an earlier binding of the same name
// CHECK-NOT: error:
