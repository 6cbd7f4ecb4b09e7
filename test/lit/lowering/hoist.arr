// Loop-invariant code motion in device loops (--emit=ir): an in-body guard
// over values fixed for the whole loop (here iota(3)[x], x the map element)
// is computed once before the loop, under `if (count > 0)` so that a loop
// with no iteration raises nothing.
// RUN: %arrc --emit=lowered %s | FileCheck %s --check-prefix=LOW
// RUN: %arrc --emit=ir %s | FileCheck %s
export int[[*]] inv(int[[*]] xs, int m) = [sum([iota(3)[x] * j + x * x | j <- iota(m)]) | x <- xs];
// LOW-LABEL: export inv(
// LOW: = loop (
// LOW: guard_
// CHECK-LABEL: export inv(
// CHECK: = map (
// CHECK: ix_[[G:[0-9]+]]: long = if (max(long(m_{{[0-9]+}}), 0L) > 0L) then {
// CHECK-NEXT: yield (ix_{{[0-9]+}} + guard_{{[0-9]+}}[select({{.*}}, 0L, 1L){{.*}}]!0)
// CHECK-NEXT: } else {
// CHECK-NEXT: yield 0L
// CHECK-NEXT: }
// CHECK-NEXT: = loop (
// CHECK-NEXT: let j_{{[0-9]+}}: int = int(k_{{[0-9]+}})
// CHECK-NEXT: yield (acc_{{[0-9]+}} + ((int(ix_[[G]]) * j_{{[0-9]+}}) + (x_{{[0-9]+}} * x_{{[0-9]+}})))
