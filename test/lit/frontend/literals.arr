// Literals and comments.
// RUN: %arrc --emit=ast --no-stdlib %s | FileCheck %s
/* a block comment
   over two lines */
export int f() = g(42, 42L, 1.5, 1e-3, 1.5f, 2.5e3f, true, false, -7, -2147483648, 9223372036854775807L); // trailing
// CHECK: IntLit 42  <5:20-5:22>
// CHECK-NEXT: IntLit 42L  <5:24-5:27>
// CHECK-NEXT: FloatLit 1.5  <5:29-5:32>
// CHECK-NEXT: FloatLit 1e-3
// CHECK-NEXT: FloatLit 1.5f
// CHECK-NEXT: FloatLit 2.5e3f
// CHECK-NEXT: BoolLit true
// CHECK-NEXT: BoolLit false
// CHECK-NEXT: IntLit -7  <5:67-5:69>
// CHECK-NEXT: IntLit -2147483648
// CHECK-NEXT: IntLit 9223372036854775807L
