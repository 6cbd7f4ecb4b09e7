// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
export int[[*]] f(int[[*]] a) = map(\x y -> x + y, a);
// CHECK: :2:37: error: this lambda takes 2 parameters but a function of type (int) -> <any> (1 parameter) is expected here
// CHECK-NOT: error:
