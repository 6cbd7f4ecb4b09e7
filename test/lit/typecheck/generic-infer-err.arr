// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
<T> def T[[*]] empty() = [];
export int f() = length(empty());
// CHECK: :3:25: error: cannot infer type parameter 'T' of 'empty' from the arguments
// CHECK-NOT: error:
