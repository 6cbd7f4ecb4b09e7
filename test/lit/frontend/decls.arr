// Declarations: import, type alias, def/export, type parameters,
// function-typed parameters, `= expr;` and block bodies.
// RUN: %arrc --emit=ast --no-stdlib -I %S/Inputs/inc %s | FileCheck %s
import "helper";
type point = (int, int);
def double sq(double x) = x * x;
export double[[*,*]] scale(double s, double[[*,*]] A) {
  let B = s * A;
  let (u, _) = (1, 2);
  return B;
}
<T> def T[[*]] rev(T[[*]] xs) = xs[xs.size(0) - 1 : 0 : -1];
<T, U> def U apply((T) -> U f, T x) = f(x);
def int twice((int, int) -> int f) = f(1, 2);

// CHECK: Module decls "{{.*}}decls.arr"
// CHECK-NEXT:   Import "helper" -> module 1  <4:1-4:17>
// CHECK-NEXT:   TypeAlias point = (int, int)  <5:1-5:25>
// CHECK-NEXT:   FunDecl def sq : double  <6:1-6:33>
// CHECK-NEXT:     Param x : double  <6:15-6:23>
// CHECK-NEXT:     Binary *  <6:27-6:32>
// CHECK:        FunDecl export scale : double{{\[\[}}*,*]]  <7:1-11:2>
// CHECK-NEXT:     Param s : double
// CHECK-NEXT:     Param A : double{{\[\[}}*,*]]
// CHECK-NEXT:     LetIn B  <8:3-10:11>
// CHECK-NEXT:       Binary *
// CHECK-NEXT:         Var s
// CHECK-NEXT:         Var A
// CHECK-NEXT:       LetIn (u, _)  <9:3-10:11>
// CHECK-NEXT:         Tuple
// CHECK-NEXT:           IntLit 1
// CHECK-NEXT:           IntLit 2
// CHECK-NEXT:         Var B  <10:10-10:11>
// CHECK:        FunDecl def rev <T> : T{{\[\[}}*]]
// CHECK-NEXT:     Param xs : T{{\[\[}}*]]
// CHECK-NEXT:     Section
// CHECK-NEXT:       Var xs
// CHECK-NEXT:       Arg first:last:step
// CHECK-NEXT:         Binary -
// CHECK-NEXT:           Size
// CHECK-NEXT:             Var xs
// CHECK-NEXT:             IntLit 0
// CHECK-NEXT:           IntLit 1
// CHECK-NEXT:         IntLit 0
// CHECK-NEXT:         IntLit -1
// CHECK:        FunDecl def apply <T, U> : U
// CHECK-NEXT:     Param f : (T) -> U
// CHECK-NEXT:     Param x : T
// CHECK:        FunDecl def twice : int
// CHECK-NEXT:     Param f : (int, int) -> int
// CHECK:      Module helper "{{.*}}Inputs/inc/helper.arr"
// CHECK-NEXT:   FunDecl def helper_one : int
