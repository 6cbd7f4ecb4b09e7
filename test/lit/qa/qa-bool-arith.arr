export int f(bool b) = b + 1;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-bool-arith.arr:1:24: error: operator '+' needs numeric operands, but they have types 'bool' and 'int'
// CHECK-NOT: error:
