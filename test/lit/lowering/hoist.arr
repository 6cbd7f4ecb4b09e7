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

// An invariant unchecked read inside a loop's value (N-body over a matrix of
// bodies: P[i, 0] in P[k, 0] - P[i, 0]) becomes a Let before the loop, one
// per distinct read; reads that vary with the loop stay.
export double[[*]] nb(double[[*,*]] P) =
  [sum([P[k, 0] - P[i, 0] + (P[k, 1] - P[i, 1]) * (P[i, 0] + 1.0) | k <- iota(P.size(0))]) | i <- iota(P.size(0))];
// CHECK-LABEL: export nb(
// CHECK: } else {
// CHECK: = map (
// CHECK-DAG: let [[B:inv_[0-9]+]]: double = P_{{[0-9]+}}[i_{{[0-9]+}}, 1L]
// CHECK-DAG: let [[A:cse_[0-9]+]]: double = P_{{[0-9]+}}[i_{{[0-9]+}}, 0L]
// CHECK: = loop (
// CHECK-NEXT: yield (acc_{{[0-9]+}} + ((P_{{[0-9]+}}[k_{{[0-9]+}}, 0L] - [[A]]) + ((P_{{[0-9]+}}[k_{{[0-9]+}}, 1L] - [[B]]) * ([[A]] + 1.0))))
