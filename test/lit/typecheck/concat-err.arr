// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int[[*]] f(int[[*]] a, double[[*]] b) = a ++ b;
// CHECK: :2:48: error: '++' needs two arrays of the same type, but the operands have types 'int{{\[\[}}*{{\]\]}}' and 'double{{\[\[}}*{{\]\]}}'
// CHECK-NOT: error:
