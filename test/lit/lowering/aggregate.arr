// Aggregate operations: one shape Check before any element, then a Map.
// RUN: %arrc --emit=lowered %s | FileCheck %s
// RUN: %arrc --emit=ir %s | FileCheck %s --check-prefix=IR
export double[[*,*]] axpy(double s, double[[*,*]] A, double[[*,*]] B) = s * A + B;
// CHECK-LABEL: export axpy(
// CHECK: = map (
// CHECK: check Shape #{{[0-9]+}} {{.*}}B_{{[0-9]+}}.shape(0)
// CHECK: = map (
// IR-LABEL: export axpy(
// IR: check Shape
// IR-COUNT-1: = map (
// IR-NOT: = map (
