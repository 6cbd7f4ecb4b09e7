// Reads at base + k in a counted loop (docs/codegen.md, "Range checks of
// loop reads"): checked once before the loop, which then runs without their
// checks; otherwise the loop as written, with every check.
// RUN: %arrc --emit=opencl %s | FileCheck %s

// CSR rows: vals[lo + k] and cols[lo + k] are checked once per row;
// x[cols[...]] (an index from data) keeps its check in both loops.
// CHECK-LABEL: __kernel void arrc_k0_map0_spmv_t(
// CHECK: const long [[CNT:arrc_[0-9]+_k_count]] = max(
// CHECK-NEXT: if ([[CNT]] <= 0 || ((long)([[LO:arrc_[0-9]+_lo]]) >= 0 && (long)([[LO]]) + [[CNT]] <= arrc_2_vals_n0 && (long)([[LO]]) + [[CNT]] <= 2147483648L && (long)([[LO]]) >= 0 && (long)([[LO]]) + [[CNT]] <= arrc_1_cols_n0 &&
// In range, and lo + count below 2^31: the index Let `k = lo + int(k0)` is
// the loop's own int counter (devLoop's rebased loop).
// CHECK-NEXT: if ([[CNT]] >= 0 && (long)([[LO]]) + [[CNT]] <= 2147483647L) {
// CHECK: for (int [[V:arrc_[0-9]+_k]] = (int)([[LO]]); [[V]] < [[V]]_end; ++[[V]]) {
// CHECK-NOT: arrc_in_bounds(arrc_err, 3,
// CHECK-NOT: arrc_in_bounds(arrc_err, 5,
// CHECK: arrc_in_bounds(arrc_err, 4,
// CHECK: else {
// CHECK: for (long
// CHECK-NOT: arrc_in_bounds(arrc_err, 3,
// CHECK: arrc_in_bounds(arrc_err, 4,
// CHECK: else {
// CHECK: for (long
// CHECK: arrc_in_bounds(arrc_err, 3,
// CHECK-SAME: arrc_in_bounds(arrc_err, 5,
export double[[*]] spmv(int[[*]] row_off, int[[*]] cols, double[[*]] vals, double[[*]] x) =
  [sum([vals[k] * x[cols[k]] | k <- [row_off[i]..<row_off[i + 1]]]) | i <- iota(length(row_off) - 1)];

// A read whose index is not base + k (k * 2) keeps its check: no versioning.
// CHECK-LABEL: __kernel void arrc_k1_map0_evens_t(
// CHECK-NOT: _count <= 0
// CHECK: arrc_in_bounds(
export int[[*]] evens(int[[*]] xs, int[[*]] ns) = [sum([xs[k * 2] | k <- iota(n)]) | n <- ns];
