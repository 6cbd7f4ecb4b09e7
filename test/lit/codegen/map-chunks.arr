// The CPU schedule of maps whose body runs no loop (codegen/src/SoacMap.cpp,
// docs/codegen.md): blocks of rows x columns per work-item, the columns one
// loop the device compiler may vectorise; the GPU path after it.
// RUN: %arrc --emit=opencl %s | FileCheck %s
// RUN: %arrc --emit=header %s | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: __kernel void arrc_k0_map0_plane_nest(
// CHECK: long arrc_cc,
// CHECK-NEXT: long arrc_cr,
// CHECK: #if defined(ARRC_CPU) && !defined(ARRC_NO_MAP_CHUNKS)
// CHECK: const long arrc_j0 = (long)get_global_id(0) * arrc_cc, arrc_j1 = min(arrc_j0 + arrc_cc, d1);
// CHECK-NEXT: const long arrc_i0 = (long)get_global_id(1) * arrc_cr, arrc_i1 = min(arrc_i0 + arrc_cr, d0);
// CHECK-NEXT: for (long [[I:arrc_[0-9]+_i]] = arrc_i0; [[I]] < arrc_i1; ++[[I]]) {
// CHECK-NEXT: #pragma clang loop vectorize(assume_safety)
// CHECK-NEXT: for (long [[J:arrc_[0-9]+_i]] = arrc_j0; [[J]] < arrc_j1; ++[[J]]) {
// CHECK: long out_index = ([[I]]) * d1 + [[J]];
// CHECK: return;
// CHECK: #endif
// the GPU path: one element per work-item, guarded
// CHECK: get_global_id(1);
// CHECK: >= d1 || {{.*}} >= d0) return;
// HOST-LABEL: inline arrc::Array<int32_t, 2> plane(
// HOST: const bool chunks = arrc::gen::map_chunks(ctx);
// HOST-NEXT: const std::array<int64_t, 2> chunk = chunks ? arrc::gen::map_chunk(ctx, d1, d0) : std::array<int64_t, 2>{1, 1};
// HOST: chunks ? arrc::NDRange(size_t((d1 + chunk[0] - 1) / chunk[0]), size_t((d0 + chunk[1] - 1) / chunk[1])) : map_wg
// HOST-SAME: chunks ? arrc::NDRange(1, 1) : map_wg
export int[[*,*]] plane(int m, int n) = [[(i * 5 + j * 3) % 7 - 3 | j <- iota(n)] | i <- iota(m)];

// A body with a loop runs its own CPU schedules, not blocks (here the sum
// as written, after SplitLongLoops' plan of parts: rows staged on GPUs,
// the sum in several accumulators on CPUs).
// CHECK-LABEL: __kernel void arrc_k1_map2_rowsums_t(
// CHECK-NOT: ARRC_NO_MAP_CHUNKS
// CHECK: barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NOT: ARRC_NO_MAP_CHUNKS
// CHECK: #ifdef ARRC_CPU
export double[[*]] rowsums(double[[*,*]] A) = [sum(A[i, :]) | i <- iota(A.size(0))];
