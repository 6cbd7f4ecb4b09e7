export int[[*]] f(int[[*]] xs) = map(\x y -> x + y, xs);
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-lambda-arity.arr:1:38: error: this lambda takes 2 parameters but a function of type (int) -> <any> (1 parameter) is expected here
// CHECK-NOT: error:
