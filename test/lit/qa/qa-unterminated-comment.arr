export int f(int x) = x; /* oops
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-unterminated-comment.arr:1:26: error: unterminated comment: '/*' without a matching '*/'
// CHECK-NOT: error:
