// A syntax error is reported once per declaration (no cascade), and errors in
// separate declarations are each reported.
export int f(bool c) = 1 + if c then 2 else 3;
export int g(int x) = x @ 1;
export int h(int x) = x;
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK-DAG: qa-parse-cascade.arr:3:28: error: unexpected 'if' (expected an expression)
// CHECK-DAG: qa-parse-cascade.arr:4:25: error: unexpected character '@'
// CHECK-NOT: error:
