// SegmentHist.cpp: a histogram binned by an expand's segment ids, its bins
// the segments, is a fold per segment over the scan of the sizes; the
// expand goes (its extent read as the scan's total).
// RUN: %arrc --emit=ir %s | FileCheck %s
// CHECK-LABEL: export spmv(
// CHECK-NOT: expand
// CHECK: [[ENDS:ends_[0-9]+]]: long[{{\[}}*]] = scan (
// CHECK: [[TOTAL:total_[0-9]+]]: long = if ({{.*}} > 0L) then {
// CHECK-NEXT: yield [[ENDS]][
// CHECK: check ZipSize #{{[0-9]+}} ([[TOTAL]] ==
// CHECK-NOT: hist bins
// CHECK: binned by segment: a fold per segment
// CHECK-NEXT: = map (
// CHECK: loop (acc_{{[0-9]+}}: double = 0.0) for k_{{[0-9]+}} <
// CHECK: yield
export double[[*]] spmv(int[[*]] ro, int[[*]] cols, double[[*]] vals, double[[*]] x) {
  let n = length(ro) - 1;
  let rows = [i | i <- iota(n), _k <- [ro[i]..<ro[i + 1]]];
  return hist((+), 0.0, n, rows, [v * x[c] | v <- vals | c <- cols]);
}
// More bins than segments: a histogram as written.
// CHECK-LABEL: export extra_bin(
// CHECK: = expand
// CHECK: = hist bins
export int[[*]] extra_bin(int[[*]] ro, int[[*]] vs) {
  let n = length(ro) - 1;
  let rows = [i | i <- iota(n), _k <- [ro[i]..<ro[i + 1]]];
  return hist((+), 0, n + 1, rows, vs);
}
