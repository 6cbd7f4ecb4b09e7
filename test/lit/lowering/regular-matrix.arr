// A regular nested comprehension: one rank-2 Map, no expand; the inner sum
// becomes a sequential Loop in the body (no array).
// RUN: %arrc --emit=lowered %s | FileCheck %s
// RUN: %arrc --emit=ir %s | FileCheck %s --check-prefix=IR
export double[[*,*]] mm(double[[*,*]] A, double[[*,*]] B) =
  [[sum([A[i,k]*B[k,j] | k <- [0..<A.size(1)]]) | j <- [0..<B.size(1)]] | i <- [0..<A.size(0)]];
// CHECK-LABEL: export mm(
// CHECK-NOT: expand
// CHECK: // comprehension 6:3: regular map nest
// CHECK-NEXT: nest_{{[0-9]+}}: double{{\[\[\*,\*\]\]}} = map (i_{{[0-9]+}} < {{.*}}, i_{{[0-9]+}} < {{.*}}) {
// CHECK: loop (acc_{{[0-9]+}}: double = 0.0) for
// CHECK-NOT: expand
// CHECK-NOT: reduce
// IR-COUNT-1: = map (
// IR-NOT: reduce
