def int g((int) -> int h, int x) = h(x);
export int f(int x) = g(\y -> y > 0, x);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-hof-lambda-result.arr:2:31: error: the body of this lambda has type 'bool' but int was expected
// CHECK-NOT: error:
