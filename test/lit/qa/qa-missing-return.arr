export int f(int x) {
  let y = x + 1;
}
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-missing-return.arr:3:1: error: unexpected '}' (expected 'let' or 'return')
// CHECK-NOT: error:
