// Binary operators with C precedence and left associativity; unary - ! ~.
// RUN: %arrc --emit=ast --no-stdlib %s | FileCheck %s
export bool f(int a, int b, int c) = a + b * c - a / b % c << 1 < c & b ^ a | c == 0 || !(a > b) && ~a >= -b;
export int[[*]] g(int[[*]] xs, int[[*]] ys) = xs ++ ys ++ xs;
export bool h(int a, int b) = a <= b != a >> 2 > b;
// The whole first expression: || at the top; == binds tighter than & ^ |.
// CHECK:      Binary ||
// CHECK-NEXT:   Binary |
// CHECK-NEXT:     Binary ^
// CHECK-NEXT:       Binary &
// CHECK-NEXT:         Binary <
// CHECK-NEXT:           Binary <<
// CHECK-NEXT:             Binary -
// CHECK-NEXT:               Binary +
// CHECK-NEXT:                 Var a
// CHECK-NEXT:                 Binary *
// CHECK-NEXT:                   Var b
// CHECK-NEXT:                   Var c
// CHECK-NEXT:               Binary %
// CHECK-NEXT:                 Binary /
// CHECK-NEXT:                   Var a
// CHECK-NEXT:                   Var b
// CHECK-NEXT:                 Var c
// CHECK-NEXT:             IntLit 1
// CHECK-NEXT:           Var c
// CHECK-NEXT:         Var b
// CHECK-NEXT:       Var a
// CHECK-NEXT:     Binary ==
// CHECK-NEXT:       Var c
// CHECK-NEXT:       IntLit 0
// CHECK-NEXT:   Binary &&
// CHECK-NEXT:     Unary !
// CHECK-NEXT:       Binary >
// CHECK-NEXT:         Var a
// CHECK-NEXT:         Var b
// CHECK-NEXT:     Binary >=
// CHECK-NEXT:       Unary ~
// CHECK-NEXT:         Var a
// CHECK-NEXT:       Unary -
// CHECK-NEXT:         Var b
// CHECK:      Binary ++
// CHECK-NEXT:   Binary ++
// CHECK-NEXT:     Var xs
// CHECK-NEXT:     Var ys
// CHECK-NEXT:   Var xs
// CHECK:      Binary !=
// CHECK-NEXT:   Binary <=
// CHECK-NEXT:     Var a
// CHECK-NEXT:     Var b
// CHECK-NEXT:   Binary >
// CHECK-NEXT:     Binary >>
// CHECK-NEXT:       Var a
// CHECK-NEXT:       IntLit 2
// CHECK-NEXT:     Var b
