// A map and the hists that read it become one multihist (Fuse.cpp rule 5,
// FuseMultiHist.cpp; --emit=ir), the CPU plan of an If on
// items_in_one_pass() whose GPU plan keeps them: k-means' assignment, counts and sums (the
// sums' index comprehension flattened by d: a loop j < d inside the item),
// hists of different bins over the same keys; not when the map is also a
// result, when a hist reads it at another row, or when a neutral element is
// not its operator's identity. (JamLoops, off here, would run the argmin
// two centres per step: lowering/jam-loops.arr.)
// RUN: env ARRC_JAM_LOOPS=0 %arrc --emit=ir %s | FileCheck %s
def double dist2(double[[*]] a, double[[*]] b) = sum([(x - y) * (x - y) | x <- a | y <- b]);
export (int[[*]], double[[*]]) kstep(double[[*,*]] P, double[[*,*]] C) {
  let M = P.size(0);
  let k = C.size(0);
  let d = P.size(1);
  let ids = [argmin([dist2(P[i, :], C[c, :]) | c <- iota(k)]) | i <- iota(M)];
  let counts = hist((+), 0, k, ids, replicate(M, 1));
  let sums = hist((+), 0.0, k * d, [ids[i] * d + j | i <- iota(M), j <- iota(d)], flatten(P));
  return (counts, sums);
}
// CHECK-LABEL: export kstep(
// CHECK-NOT: = map (
// CHECK-NOT: = hist bins
// CHECK: // plans by device: one pass (CPUs) or the map, then the hists (GPUs)
// CHECK-NEXT: hist_[[C:[0-9]+]]: int{{\[\[}}*]], hist_[[S:[0-9]+]]: double{{\[\[}}*]] = if items_in_one_pass() then {
// CHECK: // comprehension {{[0-9]+}}:13: regular map nest + hist + comprehension {{[0-9]+}}:36: regular map nest (flattened) (one pass: 2 histograms)
// CHECK-NEXT: hist_[[C1:[0-9]+]]: int{{\[\[}}*]], hist_[[S1:[0-9]+]]: double{{\[\[}}*]] = multihist (i_[[I:[0-9]+]] < n_{{[0-9]+}}) {
// CHECK: acc_[[ID:[0-9]+]]: int, acc_{{[0-9]+}}: double = loop (
// CHECK: hist_add #0[long(acc_[[ID]])] 1
// flatten(P)'s index divided by P.shape(1), equal to d only at run time: where
// it is, the item's own row P[i, j]; else the quotient and remainder stepped
// on by the loop.
// CHECK-NEXT: if (P_0.shape(1) == n_[[D:[0-9]+]]) then {
// CHECK-NEXT: loop () for j_[[JF:[0-9]+]] < n_[[D]] {
// CHECK-NEXT: let j_[[JI:[0-9]+]]: int = int(j_[[JF]])
// CHECK-NEXT: hist_add #1[long(((acc_[[ID]] * d_{{[0-9]+}}) + j_[[JI]]))] P_0[i_[[I]], j_[[JF]]]
// CHECK: } else {
// CHECK-NEXT: let [[IB:cse_[0-9]+]]: long = (i_[[I]] * n_[[D]])
// CHECK-NEXT: q_{{[0-9]+}}: long, r_{{[0-9]+}}: long = loop (q_[[Q:[0-9]+]]: long = ([[IB]] / P_0.shape(1)), r_[[R:[0-9]+]]: long = ([[IB]] % P_0.shape(1))) for j_[[J:[0-9]+]] < n_[[D]] {
// CHECK: hist_add #1[long(((acc_[[ID]] * d_{{[0-9]+}}) + j_{{[0-9]+}}))] P_0[q_[[Q]], r_[[R]]]
// CHECK-NEXT: let [[R1:cse_[0-9]+]]: long = (r_[[R]] + 1L)
// CHECK-NEXT: let [[W:cse_[0-9]+]]: bool = ([[R1]] >= P_0.shape(1))
// CHECK-NEXT: yield select(([[W]] && (P_0.shape(1) > 0L)), (q_[[Q]] + 1L), q_[[Q]]), select([[W]], 0L, [[R1]])
// CHECK: #0 bins bins_{{[0-9]+}} op (x_[[A:[0-9]+]]: int, y_[[B:[0-9]+]]: int) {
// CHECK-NEXT: yield (x_[[A]] + y_[[B]])
// CHECK-NEXT: } ne (0)
// CHECK-NEXT: #1 bins bins_{{[0-9]+}} op (x_{{[0-9]+}}: double, y_{{[0-9]+}}: double) {
// CHECK: } ne (0.0)
// CHECK-NEXT: yield hist_[[C1]], hist_[[S1]]
// CHECK-NEXT: } else {
// The GPU plan: the map and both hists as they were.
// CHECK: ids_{{[0-9]+}}: int{{\[\[}}*]] = map (
// CHECK: = hist bins
// CHECK: = hist bins
// CHECK: yield hist_{{[0-9]+}}, hist_{{[0-9]+}}
// CHECK-NEXT: }
// CHECK-NEXT: yield hist_[[C]], hist_[[S]]
export (int[[*]], int[[*]]) twobins(int[[*]] xs, int k) {
  let b = [x % k | x <- xs];
  return (hist((+), 0, k, b, xs), hist(min, 1000, 2 * k, [b[i] * 2 + 1 | i <- iota(xs.size(0))], xs));
}
// The second hist reads b at long(int(i)): i stays below an int extent.
// CHECK-LABEL: export twobins(
// CHECK-NOT: = map (
// CHECK: = if items_in_one_pass() then {
// CHECK-NEXT: // {{.*}}(one pass: 2 histograms)
// CHECK-NEXT: = multihist (i_{{[0-9]+}} < n_{{[0-9]+}}) {
// CHECK: let cse_[[K:[0-9]+]]: int = (x_{{[0-9]+}} % k_{{[0-9]+}})
// CHECK: hist_add #0[long(cse_[[K]])] x_{{[0-9]+}}
// CHECK-NEXT: hist_add #1[long(((cse_[[K]] * 2) + 1))] x_{{[0-9]+}}
// CHECK: #1 bins {{.*}} op (x_[[A:[0-9]+]]: int, y_[[B:[0-9]+]]: int) {
// CHECK-NEXT: yield min(x_[[A]], y_[[B]])
// CHECK-NEXT: } ne (1000)
export (int[[*]], int[[*]], int[[*]]) used(int[[*]] xs, int k) {
  let b = [x % k | x <- xs];
  return (hist((+), 0, k, b, xs), hist((+), 0, 2 * k, b, [x * 2 | x <- xs]), b);
}
// CHECK-LABEL: export used(
// CHECK: b_{{[0-9]+}}: int{{\[\[}}*]] = map (
// CHECK-COUNT-2: = hist bins
// CHECK-NOT: multihist
export int[[*]] shifted(int[[*]] xs, int k) {
  let b = [x % k | x <- xs];
  let n = xs.size(0);
  return hist((+), 0, k, [b[(i + 1) % n] | i <- iota(n)], xs);
}
// CHECK-LABEL: export shifted(
// CHECK: = map (
// CHECK: = hist bins
// CHECK-NOT: multihist
export (int[[*]], int[[*]]) notident(int[[*]] xs, int k) {
  let b = [x % k | x <- xs];
  return (hist((+), 5, k, b, xs), hist((+), 0, 2 * k, b, xs));
}
// CHECK-LABEL: export notident(
// CHECK: = map (
// CHECK-COUNT-2: = hist bins
// CHECK-NOT: multihist
