// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
type vec = vector[[*]];
export vec f(vec x) = x;
// CHECK: :2:1: error: unknown type 'vector'
// CHECK-NOT: error:
