// Sums per group written as masked sums over all elements become histograms
// (GroupSums.cpp): bin key * d + j where the key names a group (else -1,
// ignored), the value read only there, the bins viewed in the Map's shape.
// RUN: %arrc --emit=ir %s | FileCheck %s
// CHECK-LABEL: export sums(
// CHECK: = if ({{.*}}) then {
// CHECK-NEXT: let [[K:n_[0-9]+]]: long = max({{.*}}, 0L)
// CHECK-NEXT: let [[D:n_[0-9]+]]: long = max({{.*}}, 0L)
// CHECK-NEXT: let [[BINS:bins_[0-9]+]]: long = ([[K]] * [[D]])
// CHECK-NEXT: let [[TOTAL:total_[0-9]+]]: long = select(([[K]] > 0L), ({{.*}} * [[D]]), 0L)
// CHECK-NEXT: // comprehension {{.*}}; sums per group: a histogram
// CHECK-NEXT: hist_[[H:[0-9]+]]: double{{.}}{{.}}*{{.}}{{.}} = hist bins [[BINS]] (t_[[T:[0-9]+]] < [[TOTAL]]) {
// CHECK-NEXT: let [[E:e_[0-9]+]]: long = (t_[[T]] / [[D]])
// CHECK-NEXT: let [[J:i_[0-9]+]]: long = (t_[[T]] % [[D]])
// CHECK-NEXT: let [[KEY:key_[0-9]+]]: long = long(ids_{{[0-9]+}}{{.}}[[E]]{{.}})
// CHECK-NEXT: let [[IN:in_[0-9]+]]: bool = (([[KEY]] >= 0L) && ([[KEY]] < [[K]]))
// CHECK-NEXT: [[V:v_[0-9]+]]: double = if [[IN]] then {
// CHECK-NEXT: yield P_{{[0-9]+}}{{.}}[[E]], [[J]]{{.}}
// CHECK: yield select([[IN]], (([[KEY]] * [[D]]) + [[J]]), -1L), [[V]]
// CHECK: view hist_[[H]] shape([[K]], [[D]]) weights([[D]], 1L, 0L)
// CHECK-NOT: loop (
// CHECK-LABEL: export means(
export double[[*,*]] sums(int[[*]] ids, double[[*,*]] P, int k) =
  [[sum([if ids[i] == c then P[i, j] else 0.0 | i <- iota(P.size(0))]) | j <- iota(P.size(1))] | c <- iota(k)];

// In an if's branch, where the reads cannot fail: the Map stays and reads
// its sum from the bins.
// CHECK: hist bins
// CHECK: = map (i_[[C:[0-9]+]] < {{.*}}, i_[[J2:[0-9]+]] < {{.*}}) {
// CHECK: } else {
// CHECK-NEXT: let acc_{{[0-9]+}}: double = hist_{{[0-9]+}}{{.}}((i_[[C]] * {{n_[0-9]+}}) + i_[[J2]]){{.}}
export double[[*,*]] means(int[[*]] ids, double[[*,*]] P, double[[*,*]] C, int[[*]] cnt) =
  [[if cnt[c] == 0 then C[c, j] else sum([if ids[i] == c then P[i, j] else 0.0 | i <- iota(P.size(0))]) / double(cnt[c])
    | j <- iota(C.size(1))] | c <- iota(C.size(0))];

// Not a group: every id counts for several c.
// CHECK-LABEL: export upto(
// CHECK-NOT: hist bins
export int[[*]] upto(int[[*]] ids, int k) = [count(\x -> x <= c, ids) | c <- iota(k)];
