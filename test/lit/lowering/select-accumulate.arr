// A filtered fold's step in device code, `if c then acc + e else acc`,
// becomes `acc + select(c, e, 0)` (SelectAccumulate.cpp): a plain sum, which
// codegen splits into chains on CPUs and the CPU compiler vectorises. Not
// where the then-branch reads an array (the If may be what keeps that read
// in range).
// RUN: %arrc --emit=ir %s | FileCheck %s
export double[[*]] rows(double[[*,*]] A) = [sum(filter(\x -> x > 0.5, A[i, :])) | i <- iota(A.size(0))];
// CHECK-LABEL: export rows(
// CHECK: } else {
// CHECK: = loop (acc_[[ACC:[0-9]+]]: double = 0.0) for k_{{[0-9]+}} < A_0.shape(1) {
// CHECK-NEXT: let cse_[[X:[0-9]+]]: double = A_0[
// CHECK-NEXT: let sel_[[S:[0-9]+]]: double = select((cse_[[X]] > 0.5), cse_[[X]], 0.0)
// CHECK-NEXT: yield (acc_[[ACC]] + sel_[[S]])
export int[[*]] guarded(int[[*,*]] A, int[[*]] ys) =
  [sum([ys[x] | x <- A[i, :], x >= 0 && x < length(ys)]) | i <- iota(A.size(0))];
// CHECK-LABEL: export guarded(
// CHECK-NOT: sel_
// CHECK: = if
// CHECK-LABEL: export prods(
export long[[*]] prods(long[[*,*]] A) = [product([x | x <- A[i, :], x != 0L]) | i <- iota(A.size(0))];
// CHECK: let sel_{{[0-9]+}}: long = select(
// CHECK-NEXT: yield (acc_{{[0-9]+}} * sel_{{[0-9]+}})
