// Sections, transposes and reversals are views: weight arithmetic, no copy.
// RUN: %arrc --emit=lowered %s | FileCheck %s
export double[[*,*]] tsec(double[[*,*]] A) = transpose(A[1:3, 0:4:2]);
// CHECK-LABEL: export tsec(
// CHECK: check Bounds
// CHECK: // section 3:56
// CHECK-NEXT: sec_[[S:[0-9]+]]: {{.*}} = view A_0 shape(3L, cnt_{{[0-9]+}}) weights(A_0.weight(0), (2L * A_0.weight(1)), (A_0.weight(2) + A_0.weight(0)))
// CHECK: // transpose 3:46
// CHECK-NEXT: tr_{{[0-9]+}}: double{{\[\[\*,\*\]\]}} = view sec_[[S]] shape(sec_[[S]].shape(1), sec_[[S]].shape(0)) weights(sec_[[S]].weight(1), sec_[[S]].weight(0), sec_[[S]].weight(2))
// CHECK-NOT: map
export double[[*]] column(double[[*,*]] A, int j) = A[:, j];
// CHECK-LABEL: export column(
// CHECK: check Bounds #{{[0-9]+}} ((ix_{{[0-9]+}} >= 0L) && (ix_{{[0-9]+}} < A_{{[0-9]+}}.shape(1)))
// CHECK: view A_{{[0-9]+}} shape(A_{{[0-9]+}}.shape(0)) weights(A_{{[0-9]+}}.weight(0), (A_{{[0-9]+}}.weight(2) + (ix_{{[0-9]+}} * A_{{[0-9]+}}.weight(1))))
// CHECK-NOT: map
