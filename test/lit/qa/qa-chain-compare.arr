export bool f(int a, int b, int c) = a < b < c;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-chain-compare.arr:1:38: error: operator '<' needs numeric operands, but they have types 'bool' and 'int'
// CHECK-NOT: error:
