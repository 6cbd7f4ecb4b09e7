// --depfile: a Makefile rule naming OUT and every file it was made from
// (imports, also indirect ones, and the stdlib), which arrc_add_module gives
// CMake (DEPFILE) so that a changed import regenerates the header.
// RUN: %arrc %s -I %S/../frontend/Inputs/inc -o %t.hpp --depfile %t.d
// RUN: FileCheck %s --input-file %t.d
// RUN: %arrc %s -I %S/../frontend/Inputs/inc -o %t.hpp --no-stdlib --depfile %t2.d
// RUN: FileCheck %s --check-prefix=NOSTD --input-file %t2.d
import "../frontend/Inputs/uses_helper.arr";
export int f() = 1;
// CHECK: depfile.arr.tmp.hpp: \
// CHECK-NEXT: {{.*}}driver/depfile.arr \
// CHECK-NEXT: {{.*}}frontend/Inputs/uses_helper.arr \
// CHECK-NEXT: {{.*}}frontend/Inputs/inc/helper.arr
// CHECK: stdlib/prelude.arr
// NOSTD-NOT: stdlib
