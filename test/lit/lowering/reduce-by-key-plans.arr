// reduce_by_key's two plans (LowerIntrinsics.cpp): integer keys and a
// histogram-able operator get the keys' range, then an If between one
// histogram pass over [min, max] (counts and values fused, FuseHorizontal)
// with a filter of the bins that have elements, and the sort plan.
// RUN: %arrc --emit=ir %s | FileCheck %s
// CHECK-LABEL: export sales(
// CHECK: [[LO:red_[0-9]+]]: long, [[HI:red_[0-9]+]]: long = reduce
// CHECK: yield min(
// CHECK: let [[SPAN:span_[0-9]+]]: long = ([[HI]] - [[LO]])
// CHECK: = if (({{.*}} > 0L) && (([[SPAN]] >= 0L) && ([[SPAN]] < min(max({{.*}}, 4096L), group_by_hist_bins())))) then {
// CHECK: [[C:hist_[0-9]+]]: int{{.*}}, [[V:hist_[0-9]+]]: double{{.*}} = hist bins
// CHECK-NEXT: yield (long(k_{{[0-9]+}}[i_{{[0-9]+}}]) - [[LO]]), 1, v_{{[0-9]+}}[i_{{[0-9]+}}]
// CHECK: filter (
// CHECK-NEXT: yield ([[C]][[[B:b_[0-9]+]]] > 0), int(([[LO]] + [[B]])), [[V]][[[B]]]
// CHECK: } else {
// CHECK: = sort k_{{[0-9]+}} (v_{{[0-9]+}})
// CHECK: segreduce
// CHECK-NOT: if
// CHECK: filter
export (int[[*]], double[[*]]) sales(int[[*]] k, double[[*]] v) = reduce_by_key((+), 0.0, k, v);

// Float keys (and custom operators, bool values) sort only.
// CHECK-LABEL: export byfloat(
// CHECK-NOT: group_by_hist_bins
// CHECK: = sort
export (double[[*]], int[[*]]) byfloat(double[[*]] k, int[[*]] v) = reduce_by_key((+), 0, k, v);

// A neutral element that is not the identity starts each segment (ne op x);
// where op ignores its left side, both branches are x and the If goes
// (Simplify.cpp, selectIf).
// CHECK-LABEL: export last(
// CHECK: = sort
// CHECK: segreduce
// CHECK-NOT: if
// CHECK: filter
export (int[[*]], int[[*]]) last(int[[*]] k, int[[*]] v) = reduce_by_key(\_a b -> b, 0, k, v);
// CHECK-LABEL: export plus_ten(
// CHECK: } ne (0, 10)
// CHECK: else {
// CHECK: segreduce
// CHECK: = if
// CHECK-NEXT: yield (10 + {{.*}})
export (int[[*]], int[[*]]) plus_ten(int[[*]] k, int[[*]] v) = reduce_by_key((+), 10, k, v);

// max from -inf written as a division: simplify folds it (IEEE division),
// so the histogram's neutral element is a constant (its atomic path) and
// no segment start folds it in.
// CHECK-LABEL: export maxcat(
// CHECK: } ne (0, -inff)
// CHECK: else {
// CHECK: segreduce
// CHECK-NOT: if
// CHECK: } ne (-inff)
export (int[[*]], float[[*]]) maxcat(int[[*]] k, float[[*]] v) = reduce_by_key(max, -1.0f / 0.0f, k, v);

// Nested, with keys from outside the nest (the same in every segment): the
// range is taken over that array once, not over every segment's copy.
// CHECK-LABEL: export per_column(
// CHECK: // reduce_by_key: the keys' range
// CHECK-NEXT: red_{{[0-9]+}}: long, red_{{[0-9]+}}: long = reduce (i_{{[0-9]+}} < ids_{{[0-9]+}}.shape(0)) {
// CHECK: hist bins
export double[[*,*]] per_column(int[[*]] ids, double[[*,*]] P, int k) =
  [let (ks, vs) = reduce_by_key((+), 0.0, ids, P[:, j]) in scatter(replicate(k, 0.0), ks, vs) | j <- iota(P.size(1))];
// Keys that vary by segment: the range over every segment's keys (on CPUs
// a row per segment, ReduceInnerLoop.cpp; on GPUs flat).
// CHECK-LABEL: export per_column_shifted(
// CHECK: // reduce_by_key: the keys' range{{.*}}(innermost axis folded in a loop)
// CHECK-NEXT: red_{{[0-9]+}}: long, red_{{[0-9]+}}: long = reduce (o_{{[0-9]+}} < n_{{[0-9]+}}) {
// CHECK: } else {
// CHECK-NEXT: // reduce_by_key: the keys' range
// CHECK-NEXT: red_{{[0-9]+}}: long, red_{{[0-9]+}}: long = reduce (i_{{[0-9]+}} < total_{{[0-9]+}}) {
export double[[*,*]] per_column_shifted(int[[*]] ids, double[[*,*]] P, int k) =
  [let (ks, vs) = reduce_by_key((+), 0.0, [x + j | x <- ids], P[:, j]) in scatter(replicate(k, 0.0), ks, vs) | j <- iota(P.size(1))];
