// if-then-else, let-in, lambdas (\x, \(a, b), \x y), operator sections,
// parenthesised names, conversions, calls and tuples.
// RUN: %arrc --emit=ast --no-stdlib %s | FileCheck %s
export double f(int n, double[[*]] xs) =
  let (a, b) = (1, 2.0) in
  if n > 0 then reduce((+), 0.0, map(\x -> x * double(a), xs)) + b
  else reduce((min), 0.0, map(\(p, q) -> p, zip(xs, xs))) + reduce(\x y -> x * y, 1.0, xs);
export int g(int x) = int(float(long(x))) + (if x > 0 then 1 else 2);
export (int, bool) s() = ((*), (&&), (<), (-), (==), (|), (++), (<<));
// CHECK:      LetIn (a, b)
// CHECK-NEXT:   Tuple
// CHECK-NEXT:     IntLit 1
// CHECK-NEXT:     FloatLit 2.0
// CHECK-NEXT:   If
// CHECK-NEXT:     Binary >
// CHECK:          Call
// CHECK-NEXT:       Var reduce
// CHECK-NEXT:       OpSection (+)
// CHECK-NEXT:       FloatLit 0.0
// CHECK-NEXT:       Call
// CHECK-NEXT:         Var map
// CHECK-NEXT:         Lambda \x
// CHECK-NEXT:           Binary *
// CHECK-NEXT:             Var x
// CHECK-NEXT:             Convert double
// CHECK-NEXT:               Var a
// CHECK:              Var min
// CHECK:              Lambda \(p, q)
// CHECK:            Lambda \x y
// CHECK:      FunDecl export g : int
// CHECK:          Convert int
// CHECK-NEXT:       Convert float
// CHECK-NEXT:         Convert long
// CHECK-NEXT:           Var x
// CHECK-NEXT:     If
// CHECK:      OpSection (*)
// CHECK-NEXT: OpSection (&&)
// CHECK-NEXT: OpSection (<)
// CHECK-NEXT: OpSection (-)
// CHECK-NEXT: OpSection (==)
// CHECK-NEXT: OpSection (|)
// CHECK-NEXT: OpSection (++)
// CHECK-NEXT: OpSection (<<)
