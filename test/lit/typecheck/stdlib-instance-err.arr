// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export bool f(bool[[*]] a) = dot(a, a);
// CHECK: :2:30: error: in the call of 'dot' with T = bool: operator '*' needs numeric operands, but they have types 'bool' and 'bool'
// CHECK-NOT: error:
