// Producers fused into hist and scatter, and histograms over the same keys
// fused horizontally (--emit=ir). In the k-means step both hists read no
// materialised producer but `ids`: replicate fuses; the index comprehension
// is a 2-D map read through a flattening view (i0 = i / d, i1 = i % d); the
// flatten(P) map has extent P.size(0) * P.size(1), equal to the hist's only
// through the preceding check ZipSize.
// RUN: %arrc --emit=ir %s | FileCheck %s
def double dist2(double[[*]] a, double[[*]] b) = sum([(x - y) * (x - y) | x <- a | y <- b]);
export (int[[*]], int[[*]], double[[*]]) kstep(double[[*,*]] P, double[[*,*]] C) {
  let M = P.size(0);
  let k = C.size(0);
  let d = P.size(1);
  let ids = [argmin([dist2(P[i, :], C[c, :]) | c <- iota(k)]) | i <- iota(M)];
  let counts = hist((+), 0, k, ids, replicate(M, 1));
  let sums = hist((+), 0.0, k * d, [ids[i] * d + j | i <- iota(M), j <- iota(d)], flatten(P));
  return (ids, counts, sums);
}
// CHECK-LABEL: export kstep(
// CHECK: ids_[[IDS:[0-9]+]]: int{{\[\[}}*]] = map (
// CHECK-NOT: = map (
// CHECK: hist_{{[0-9]+}}: int{{\[\[}}*]] = hist bins bins_{{[0-9]+}} (i_[[I:[0-9]+]] < n_{{[0-9]+}}) {
// CHECK-NEXT: yield long(ids_[[IDS]][i_[[I]]]), 1
// CHECK-NOT: = map (
// CHECK-NOT: = view
// CHECK: check ZipSize #{{[0-9]+}} (n_[[N:[0-9]+]] == (P_0.shape(0) * P_0.shape(1)))
// CHECK-NEXT: // comprehension 15:36: regular map nest (flattened)
// CHECK-NEXT: hist_{{[0-9]+}}: double{{\[\[}}*]] = hist bins bins_{{[0-9]+}} (i_[[J:[0-9]+]] < n_[[N]]) {
// CHECK-NEXT: let i_[[Q:[0-9]+]]: long = (i_[[J]] / n_[[D:[0-9]+]])
// CHECK-NEXT: let i_[[R:[0-9]+]]: long = (i_[[J]] % n_[[D]])
// CHECK: yield long({{.*}}ids_[[IDS]][{{.*}}), P_0[q_{{[0-9]+}}, i_{{[0-9]+}}]
// CHECK-NOT: = map (
// CHECK: yield ids_[[IDS]], hist_{{[0-9]+}}, hist_{{[0-9]+}}
export (int[[*]], double[[*]], double[[*]]) stats(int[[*]] ids, double[[*,*]] X, int k) {
  let n = ids.size(0);
  let counts = hist((+), 0, k, ids, replicate(n, 1));
  let sx = hist((+), 0.0, k, ids, X[:, 0]);
  let sy = hist((+), 0.0, k, ids, [X[i, 1] * 2.0 | i <- iota(n)]);
  return (counts, sx, sy);
}
// Three hists over the same bins and keys: one hist with three components
// (int, double, double); the operator's params are (a0, a1, a2, b0, b1, b2).
// CHECK-LABEL: export stats(
// CHECK-NOT: = map (
// CHECK: hist_[[H1:[0-9]+]]: int{{\[\[}}*]], hist_[[H2:[0-9]+]]: double{{\[\[}}*]], hist_[[H3:[0-9]+]]: double{{\[\[}}*]] = hist bins
// CHECK: yield long(ids_{{[0-9]+}}[i_{{[0-9]+}}]), 1, sec_{{[0-9]+}}[i_{{[0-9]+}}], (X_{{[0-9]+}}[{{.*}} * 2.0)
// CHECK-NEXT: } op (x_[[A0:[0-9]+]]: int, x_[[A1:[0-9]+]]: double, x_[[A2:[0-9]+]]: double, y_[[B0:[0-9]+]]: int, y_[[B1:[0-9]+]]: double, y_[[B2:[0-9]+]]: double) {
// CHECK-NEXT: yield (x_[[A0]] + y_[[B0]]), (x_[[A1]] + y_[[B1]]), (x_[[A2]] + y_[[B2]])
// CHECK-NEXT: } ne (0, 0.0, 0.0)
// CHECK-NEXT: yield hist_[[H1]], hist_[[H2]], hist_[[H3]]
// Hists with different bin expressions stay apart.
export (int[[*]], int[[*]]) twobins(int[[*]] a, int k) = (hist((+), 0, k, [x % k | x <- a], a), hist((+), 0, k, [(x + 1) % k | x <- a], a));
// CHECK-LABEL: export twobins(
// CHECK-COUNT-2: = hist bins
// CHECK-NOT: = hist bins
// CHECK: yield
export int[[*]] scat(int n) = scatter(replicate(n, 0), [x * 3 | x <- iota(n)], [x * 2 | x <- iota(n)]);
export double[[*]] fl(double[[*,*]] A, int[[*]] is) = scatter(replicate(is.size(0), 0.0), is, flatten([[x * 2.0 | x <- r] | r <- A]));
// scatter: the index and value maps fuse; the destination is copied.
// CHECK-LABEL: export scat(
// CHECK: t_{{[0-9]+}}: int{{\[\[}}*]] = map (
// CHECK-NEXT: yield 0
// CHECK: scat_{{[0-9]+}}: int{{\[\[}}*]] = scatter (t_{{[0-9]+}}) (i_{{[0-9]+}} < n_{{[0-9]+}}) {
// CHECK-NEXT: let x_{{[0-9]+}}: int = int(i_{{[0-9]+}})
// CHECK-NEXT: yield long((x_{{[0-9]+}} * 3)), (x_{{[0-9]+}} * 2)
// flatten of a map nest: the flatten's copy is a view of the nest, which then
// fuses into the scatter through it.
// CHECK-LABEL: export fl(
// CHECK-NOT: nest_
// CHECK-NOT: = view
// CHECK: = scatter (
// CHECK-NEXT: let i_[[Q:[0-9]+]]: long = (i_[[K:[0-9]+]] / A_{{[0-9]+}}.shape(1))
// CHECK-NEXT: let i_[[R:[0-9]+]]: long = (i_[[K]] % A_{{[0-9]+}}.shape(1))
// CHECK-NEXT: let x_[[X:[0-9]+]]: double = A_{{[0-9]+}}[i_[[Q]], i_[[R]]]
// CHECK-NEXT: yield long(is_{{[0-9]+}}[i_[[K]]]), (x_[[X]] * 2.0)
// The same step inside a host loop: shapes propagate in host loop bodies, so
// the producers fuse there too; `ids` is not a result here, so the map and
// both hists become one multihist (lowering/fusion-multihist.arr).
export double[[*,*]] kmeans(double[[*,*]] P, double[[*,*]] C0, int iters) {
  let k = C0.size(0);
  let d = P.size(1);
  return loop (C = C0) for _it < iters do
    let ids = [argmin([dist2(P[i, :], C[c, :]) | c <- iota(k)]) | i <- iota(P.size(0))] in
    let counts = hist((+), 0, k, ids, replicate(P.size(0), 1)) in
    let sums = hist((+), 0.0, k * d, [ids[i] * d + j | i <- iota(P.size(0)), j <- iota(d)], flatten(P)) in
    [[if counts[c] == 0 then C[c, j] else sums[c * d + j] / double(counts[c]) | j <- iota(d)] | c <- iota(k)];
}
// CHECK-LABEL: export kmeans(
// CHECK: = loop (
// CHECK-NOT: = view
// CHECK-NOT: = map (
// CHECK-NOT: = hist bins
// CHECK: = if items_in_one_pass() then {
// CHECK-NEXT: // comprehension
// CHECK-NEXT: = multihist (
// CHECK: } else {
// CHECK: = map (
// CHECK-NOT: = view
// CHECK: = hist bins
// CHECK-NOT: = view
// CHECK: = hist bins
// CHECK: // comprehension
// CHECK-NEXT: nest_{{[0-9]+}}: double{{\[\[}}*,*]] = map (
