// A hist over a flattened comprehension (k-means' sums) passes its row
// width to arrc::histogram, and its fused source gives the hooks in row
// form too (SoacHist.cpp, RowForm): arrc_rows_exact says when every
// division of the index is by that width, and arrc_bin_rc / arrc_load_rc
// then take the row and column instead of dividing. A hist over a plain
// array has neither.
// RUN: env ARRC_ITEMS_ONE_PASS=0 %arrc --emit=header %s | FileCheck %s
export double[[*]] sums(int[[*]] ids, double[[*,*]] P, int k) {
  let d = P.size(1);
  return hist((+), 0.0, k * d, [ids[i] * d + j | i <- iota(P.size(0)), j <- iota(d)], flatten(P));
}
export int[[*]] counts(int[[*]] ids, int k) = hist((+), 0, k, ids, replicate(length(ids), 1));

// CHECK: inline const char *const arrc_fused0_sums_hist
// CHECK: long arrc_bin(long arrc_i ARRC_PARAMS) {
// CHECK: arrc_div_long(arrc_[[I:[0-9]+]]_i, arrc_[[N:[0-9]+_n]])
// CHECK: #define ARRC_ROW_HOOKS 1
// CHECK-NEXT: int arrc_rows_exact(long arrc_rw ARRC_PARAMS) {
// CHECK-NEXT: return (arrc_[[N]]) == arrc_rw && (arrc_{{[0-9]+}}_P_n1) == arrc_rw;
// CHECK: long arrc_bin_rc(long arrc_row, long arrc_col ARRC_PARAMS) {
// CHECK-NEXT: long arrc_[[I]]_i = arrc_row * (arrc_[[N]]) + arrc_col;
// CHECK-NEXT: long arrc_{{[0-9]+}}_i = arrc_row;
// CHECK-NEXT: long arrc_{{[0-9]+}}_i = arrc_col;
// CHECK-NOT: arrc_div_long
// CHECK: T arrc_load_rc(long arrc_row, long arrc_col ARRC_PARAMS) {
// CHECK-NOT: arrc_div_long
// CHECK: return arrc_{{[0-9]+}}_P[
// CHECK: inline const char *const arrc_fused{{[0-9]+}}_counts_hist
// CHECK-NOT: ARRC_ROW_HOOKS
// CHECK: arrc::histogram(ctx, et, op, bins, n, in, nullptr, 0, arrc_[[N]]);
// CHECK: arrc::histogram(ctx, et, op, bins, n, in, nullptr, 0);
