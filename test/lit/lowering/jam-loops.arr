// Unroll-and-jam (JamLoops.cpp; --emit=ir): the argmin over centres of the
// distance to each runs two centres per step, their inner loops as one (the
// point's coordinate read once: CSE binds it for both), then the last centre
// of an odd count alone; a fold whose inner count depends on the outer index
// is left alone.
// RUN: %arrc --emit=ir %s | FileCheck %s
// RUN: env ARRC_JAM_LOOPS=0 %arrc --emit=ir %s | FileCheck %s --check-prefix=OFF
def double dist2(double[[*]] a, double[[*]] b) = sum([(x - y) * (x - y) | x <- a | y <- b]);
export int[[*]] nearest(double[[*,*]] P, double[[*,*]] C) =
  [argmin([dist2(P[i, :], C[c, :]) | c <- iota(C.size(0))]) | i <- iota(P.size(0))];
// CHECK-LABEL: export nearest(
// CHECK: let [[K:cse_[0-9]+]]: long = max(long(int(max(long(int(C_1.shape(0))), 0L))), 0L)
// CHECK: = loop (acc_{{[0-9]+}}: int = -1, acc_{{[0-9]+}}: double = 0.0) for c2_[[C2:[0-9]+]] < ([[K]] / 2L) {
// CHECK: acc_[[DA:[0-9]+]]: double, acc_[[DB:[0-9]+]]: double = loop (acc_[[AA:[0-9]+]]: double = 0.0, acc_[[AB:[0-9]+]]: double = 0.0) for k_{{[0-9]+}} < n_{{[0-9]+}} {
// CHECK-NEXT: let [[X:x_[0-9]+]]: double = P_0[
// CHECK-NEXT: let [[YA:y_[0-9]+]]: double = C_1[
// CHECK-NEXT: let [[YB:y_[0-9]+]]: double = C_1[
// CHECK-NEXT: let [[DIFFA:cse_[0-9]+]]: double = ([[X]] - [[YA]])
// CHECK-NEXT: let [[DIFFB:cse_[0-9]+]]: double = ([[X]] - [[YB]])
// CHECK-NEXT: yield (acc_[[AA]] + ([[DIFFA]] * [[DIFFA]])), (acc_[[AB]] + ([[DIFFB]] * [[DIFFB]]))
// CHECK: } else {
// CHECK-NOT: loop
// CHECK: yield
// OFF-LABEL: export nearest(
// OFF-NOT: c2_
// OFF: = loop (acc_{{[0-9]+}}: double = 0.0) for k_
export int[[*]] triangle(int[[*]] xs) =
  [sum([sum([xs[j] | j <- iota(c)]) | c <- iota(length(xs))]) | _r <- iota(1)];
// CHECK-LABEL: export triangle(
// CHECK-NOT: c2_
// CHECK: yield

// A map with its hists: the CPU plan (one pass, the then-branch of the plans
// by device) is not jammed (PoCL: one round made k-means' step 5.5 ms
// against 4.2); the GPU plan (the map, then the hists) gets two rounds.
export (int[[*]], double[[*]]) counts(double[[*,*]] P, double[[*,*]] C) {
  let M = P.size(0);
  let d = P.size(1);
  let ids = [argmin([dist2(P[i, :], C[c, :]) | c <- iota(C.size(0))]) | i <- iota(M)];
  return (hist((+), 0, C.size(0), ids, replicate(M, 1)),
          hist((+), 0.0, C.size(0) * d, [ids[i] * d + j | i <- iota(M), j <- iota(d)], flatten(P)));
}
// CHECK-LABEL: export counts(
// CHECK: if items_in_one_pass() then {
// CHECK-NOT: c2_
// CHECK: = multihist (
// CHECK-NOT: c2_
// CHECK: } else {
// CHECK: = map (
// CHECK: for c2_
