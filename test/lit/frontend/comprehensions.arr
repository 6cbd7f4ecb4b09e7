// Comprehensions: binding (variable and tuple patterns), filter, let,
// sequence `,`, zip `|` (`,` binds tighter), nested comprehensions, and a
// parenthesised bitwise or in the head.
// RUN: %arrc --emit=ast --no-stdlib %s | FileCheck %s
export int[[*]] f(int[[*]] xs, int[[*]] ys, (int, int)[[*]] ps) =
  [(a | b) + c | a <- xs, a > 0, let c = a * 2 | (b, _) <- ps, b < 3];
export int[[*,*]] g(int m, int n) = [[i * n + j | j <- [0..<n]] | i <- [0..<m]];
// CHECK:      Comprehension  <6:3-6:70>
// CHECK-NEXT:   Binary +
// CHECK-NEXT:     Binary |
// CHECK-NEXT:       Var a
// CHECK-NEXT:       Var b
// CHECK-NEXT:     Var c
// CHECK-NEXT:   Branch 0  <6:18-6:47>
// CHECK-NEXT:     Bind a  <6:18-6:25>
// CHECK-NEXT:       Var xs
// CHECK-NEXT:     Filter  <6:27-6:32>
// CHECK-NEXT:       Binary >
// CHECK:          Let c  <6:34-6:47>
// CHECK-NEXT:       Binary *
// CHECK:        Branch 1
// CHECK-NEXT:     Bind (b, _)
// CHECK-NEXT:       Var ps
// CHECK-NEXT:     Filter
// CHECK:      Comprehension
// CHECK-NEXT:   Comprehension
// CHECK-NEXT:     Binary +
// CHECK:          Branch 0
// CHECK-NEXT:       Bind j
// CHECK-NEXT:         Range ..<
// CHECK:        Branch 0
// CHECK-NEXT:     Bind i
