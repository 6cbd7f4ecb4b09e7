// Each file is loaded once, even when imported twice (directly and through
// another module); ".arr" is optional in the import path.
// RUN: %arrc --emit=ast --no-stdlib -I %S/Inputs/inc %s | FileCheck %s
import "helper";
import "Inputs/uses_helper.arr";
export int f() = 1;
// CHECK: Import "helper" -> module 1
// CHECK: Import "Inputs/uses_helper.arr" -> module 2
// CHECK: Module helper
// CHECK: Module uses_helper
// CHECK-NEXT: Import "inc/helper" -> module 1
// CHECK-NOT: Module helper
