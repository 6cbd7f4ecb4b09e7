// Expands whose segments all have one size become maps (RegularExpand.cpp):
// a histogram per column over the same ids reads P in the histogram's own
// body, with the segment and the element from the flat index; the size is
// evaluated once on the host, only when there is a segment. The histogram
// then walks the (column, row) pairs along P's rows (HistOrder.cpp).
// RUN: %arrc --emit=lowered %s | FileCheck %s --check-prefix=LOWERED
// RUN: %arrc --emit=ir %s | FileCheck %s
// LOWERED-LABEL: export colsums(
// LOWERED: = expand (
// CHECK-LABEL: export colsums(
// CHECK-NOT: expand (
// CHECK: [[SIZE0:size_[0-9]+]]: long = if ({{n_[0-9]+}} > 0L) then {
// CHECK: } else {
// CHECK-NEXT: yield 0L
// CHECK: let [[SIZE:size_[0-9]+]]: long = max([[SIZE0]], 0L)
// CHECK-NEXT: let [[TOTAL:total_[0-9]+]]: long = ([[N:n_[0-9]+]] * [[SIZE]])
// CHECK-NEXT: // expand; one size for every segment: a map; walked along rows
// CHECK-NEXT: hist_{{[0-9]+}}: double{{.}}{{.}}*{{.}}{{.}} = hist bins {{.*}} (i_[[I:[0-9]+]] < [[TOTAL]]) {
// CHECK-NEXT: let s_{{[0-9]+}}: long = (i_[[I]] % [[N]])
// CHECK-NEXT: let j_{{[0-9]+}}: long = (i_[[I]] / [[N]])
// CHECK-NOT: expand (
export double[[*,*]] colsums(int[[*]] ids, double[[*,*]] P, int k) =
  [hist((+), 0.0, k, ids, P[:, j]) | j <- iota(P.size(1))];

// Sizes that differ per segment stay an expand.
// CHECK-LABEL: export ragged(
// CHECK: expand (
export int[[*]] ragged(int n) = [j | i <- iota(n), j <- iota(i)];
