// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
<T> export T f(T x) = x;
// CHECK: :2:14: error: exported function 'f' cannot have type parameters; export a wrapper per type
// CHECK-NOT: error:
