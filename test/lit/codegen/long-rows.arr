// Long rows (docs/codegen.md, SoacMapLongRows.cpp): a 1-D map whose element
// ends in a reduce's sum over a range read from memory gets a part in which
// the work-group's work-items share each element whose count passes lr_min;
// a count the same for every element keeps one work-item per element.
// RUN: %arrc --emit=opencl %s | FileCheck %s

// CSR SpMV: the count comes from row_off.
// CHECK-LABEL: __kernel void arrc_k0_map0_spmv_t(
// CHECK: long lr_min,
// CHECK: #if !defined(ARRC_CPU) || defined(ARRC_CPU_LONG_ROWS)
// CHECK: __local double lr_part[256];
// CHECK: if (lr_min > 0) {
// CHECK: > lr_min) lr_rows[atomic_inc(&lr_n)] = arrc_[[I:[0-9]+]]_i;
// CHECK: for (int lr_q = 0; lr_q < lr_count; ++lr_q) {
// CHECK-NEXT: const long arrc_[[I]]_i = lr_rows[lr_q];
// CHECK: double arrc_[[A:[0-9]+]]_acc = -0.0;
// CHECK-NEXT: for (long arrc_[[K:[0-9]+]]_k = lr_lid; arrc_[[K]]_k < {{.*}}; arrc_[[K]]_k += 256) {
// CHECK: lr_part[lr_lid] = arrc_{{[0-9]+}}_acc;
// CHECK: if (lr_lid == 0) {
// CHECK: arrc_{{[0-9]+}}_acc = 0.0 + s;
// CHECK-NEXT: long out_index = arrc_[[I]]_i;
// CHECK: return;
// CHECK: #endif
export double[[*]] spmv(int[[*]] row_off, int[[*]] cols, double[[*]] vals, double[[*]] x) =
  [sum([vals[k] * x[cols[k]] | k <- [row_off[i]..<row_off[i + 1]]]) | i <- iota(length(row_off) - 1)];

// dgemv: every row has A.size(1) elements.
// (map2: the map as written; map0 and map1 its split plan, SplitLongLoops.cpp)
// CHECK-LABEL: __kernel void arrc_k1_map2_dgemv_t(
// CHECK-NOT: lr_min
// CHECK: }
export double[[*]] dgemv(double[[*,*]] A, double[[*]] x) =
  [sum([A[i, j] * x[j] | j <- iota(A.size(1))]) | i <- iota(A.size(0))];
