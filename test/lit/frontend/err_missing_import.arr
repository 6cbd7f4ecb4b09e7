// A missing import is reported at the import, with the places searched.
// RUN: not %arrc --emit=ast --no-stdlib -I %S/Inputs/inc %s 2>&1 | FileCheck %s
import "does/not/exist";
export int f() = 1;
// CHECK: err_missing_import.arr:3:1: error: cannot find imported file 'does/not/exist' (searched '{{.*}}frontend', '{{.*}}Inputs/inc')
// CHECK-NEXT: import "does/not/exist";
// CHECK-NEXT: ^
