// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
type a = b[[*]];
type b = a;
export a f(a x) = x;
// CHECK: :2:1: error: type alias 'a' refers to itself
// CHECK-NOT: error:
