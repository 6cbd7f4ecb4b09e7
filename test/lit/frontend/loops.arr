// Sequential loops: for and while, with tuple state patterns.
// RUN: %arrc --emit=ast --no-stdlib %s | FileCheck %s
export int fib(int n) = (loop ((a, b) = (0, 1)) for i < n do (b, a + b)).0;
export int collatz(int x) = loop (y = x) while y != 1 do if y % 2 == 0 then y / 2 else 3 * y + 1;
// CHECK:      Project .0
// CHECK-NEXT:   Loop (a, b) for i  <3:26-3:72>
// CHECK-NEXT:     Tuple
// CHECK-NEXT:       IntLit 0
// CHECK-NEXT:       IntLit 1
// CHECK-NEXT:     Var n
// CHECK-NEXT:     Tuple
// CHECK:      Loop y while
// CHECK-NEXT:   Var x
// CHECK-NEXT:   Binary !=
// CHECK:        If
