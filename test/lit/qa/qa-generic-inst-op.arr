<T> def T sq(T x) = x * x;
export bool f(bool b) = sq(b);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-generic-inst-op.arr:2:25: error: in the call of 'sq' with T = bool: operator '*' needs numeric operands, but they have types 'bool' and 'bool'
// CHECK-NOT: error:
