// An import cycle is reported with the chain of imports.
// RUN: not %arrc --emit=ast --no-stdlib %s 2>&1 | FileCheck %s
import "Inputs/cycle_a";
export int f() = 1;
// CHECK: cycle_b.arr:2:1: error: import cycle: {{.*}}Inputs/cycle_a.arr -> {{.*}}Inputs/cycle_b.arr -> {{.*}}Inputs/cycle_a.arr
// CHECK-NEXT: import "cycle_a";
