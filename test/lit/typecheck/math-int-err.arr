// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export double f(int x) = sqrt(x);
// CHECK: :2:31: error: argument 1 of 'sqrt' has type 'int' but float or double (or an array of them) was expected; convert explicitly, e.g. double(x)
// CHECK-NOT: error:
