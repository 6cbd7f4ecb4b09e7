// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export bool f(bool[[*]] a) = reduce((+), false, a);
// CHECK: :2:37: error: operator '+' needs numeric operands, but they have types 'bool' and 'bool'
// CHECK-NOT: error:
