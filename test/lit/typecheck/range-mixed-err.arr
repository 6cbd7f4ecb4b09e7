// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int[[*]] f(int a, long b) = [a..<b];
// CHECK: :2:36: error: the bounds of a range have different types 'int' and 'long'; convert explicitly, e.g. long(n)
// CHECK-NOT: error:
