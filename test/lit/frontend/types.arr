// Every type form: scalars, tuples, arrays of rank 1..3, arrays of tuples,
// aliases, parenthesised types, function types.
// RUN: %arrc --emit=ast --no-stdlib %s | FileCheck %s
type pair = (int, double);
type nested = ((bool, long), float[[*]]);
export int f(bool a, int b, long c, float d, double e, pair p, nested n,
             double[[*]] v, double[[*,*]] m, int[[*,*,*]] t, (int, int)[[*]] ps,
             (double) y, ((int, int) -> bool) -> int g, () -> int h) = b;
// CHECK: TypeAlias pair = (int, double)
// CHECK: TypeAlias nested = ((bool, long), float{{\[\[}}*]])
// CHECK: Param a : bool
// CHECK-NEXT: Param b : int
// CHECK-NEXT: Param c : long
// CHECK-NEXT: Param d : float
// CHECK-NEXT: Param e : double
// CHECK-NEXT: Param p : pair
// CHECK-NEXT: Param n : nested
// CHECK-NEXT: Param v : double{{\[\[}}*]]
// CHECK-NEXT: Param m : double{{\[\[}}*,*]]
// CHECK-NEXT: Param t : int{{\[\[}}*,*,*]]
// CHECK-NEXT: Param ps : (int, int){{\[\[}}*]]
// CHECK-NEXT: Param y : double
// CHECK-NEXT: Param g : ((int, int) -> bool) -> int
// CHECK-NEXT: Param h : () -> int
