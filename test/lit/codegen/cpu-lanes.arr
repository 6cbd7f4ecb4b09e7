// The CPU and GPU tile schedules of map nests whose body runs a loop
// (codegen/src/SoacMapLanes.cpp, docs/codegen.md): the kernel text and the
// host launch.
// RUN: %arrc --emit=opencl %s | FileCheck %s
// RUN: %arrc --emit=header %s | FileCheck %s --check-prefix=HOST

// A dot product per element of a rank-2 map: tiles of 2 x 16, the k loop
// outside the lanes; A's row a broadcast per row lane, B's row a load per
// column lane (the lane's index itself, not an int conversion of it).
// On GPUs (arrc_gl) tiles of 4 rows x 8 columns 32 apart: B's loads
// coalesced over the work-items, full tiles unclamped, edge tiles clamped.
// CHECK-LABEL: __kernel void arrc_k0_map0_mm_nest(
// CHECK: int arrc_gl,
// CHECK: #if !defined(ARRC_CPU) || defined(ARRC_CPU_GPU_LANES)
// CHECK: if (arrc_gl) {
// CHECK: const long arrc_j0 = (long)get_group_id(0) * 256 + (long)get_local_id(0);
// CHECK: if (arrc_j0 - (long)get_local_id(0) + 256 <= d1 && arrc_i0 + 4 <= d0) {
// CHECK: double [[GACC:arrc_[0-9]+_acc]]_lanes[4][8];
// CHECK: {{arrc_[0-9]+_b}}_lanes[arrc_ll] = arrc_1_B[({{arrc_[0-9]+_k}}) * arrc_1_B_w0 + ((arrc_jb + arrc_ll * 32)) *
// CHECK: if (arrc_jb + arrc_ll * 32 < d1 && arrc_ib + arrc_lr < d0) {
// CHECK: else {
// CHECK: arrc_1_B[({{arrc_[0-9]+_k}}) * arrc_1_B_w0 + (min(arrc_jb + arrc_ll * 32, d1 - 1)) *
// CHECK: #endif
// CHECK: #if defined(ARRC_CPU) && !defined(ARRC_NO_MAP_LANES)
// CHECK: a tile of 2 x 16 elements per work-item
// CHECK: const long arrc_jb = d1 >= 16 ? min(arrc_j0, d1 - 16) : arrc_j0;
// CHECK: double [[ACC:arrc_[0-9]+_acc]]_lanes[2][16];
// CHECK: for (long [[K:arrc_[0-9]+_k]] = 0; [[K]] < {{arrc_[0-9]+_n}}; ++[[K]]) {
// CHECK: [[A:arrc_[0-9]+_a]]_lanes[arrc_lr] = arrc_0_A[((arrc_ib + arrc_lr)) *
// CHECK: #pragma unroll
// CHECK-NEXT: for (int arrc_ll = 0; arrc_ll < 16; ++arrc_ll) {
// CHECK-NEXT: {{arrc_[0-9]+_b}}_lanes[arrc_ll] = arrc_1_B[([[K]]) * arrc_1_B_w0 + ((arrc_jb + arrc_ll)) *
// CHECK: [[ACC]]_lanes[arrc_lr][arrc_ll] = ([[ACC]]_lanes[arrc_lr][arrc_ll] + ([[A]]_lanes[arrc_lr] *
// CHECK: if (arrc_jb + arrc_ll >= arrc_j0 && arrc_jb + arrc_ll < d1 && arrc_ib + arrc_lr >= arrc_i0 && arrc_ib + arrc_lr < d0) {
// CHECK: #endif
// the GPU path: one element per work-item
// CHECK: get_global_id(1);
// HOST-LABEL: inline arrc::Array<double, 2> mm(
// HOST: const bool glanes = ctx.gpu_lanes(int64_t(((size_t(d1) + 256 - 1) / 256 * 32) * ((size_t(d0) + 3) / 4)));
// HOST: const bool lanes = arrc::gen::map_lanes(ctx);
// HOST: lanes ? arrc::NDRange(size_t((d1 + 15) / 16), arrc::round_up(size_t((d0 + 1) / 2), 8)) : glanes ? arrc::NDRange((size_t(d1) + 256 - 1) / 256 * 32, arrc::round_up((size_t(d0) + 3) / 4, 4)) : map_wg ? arrc::NDRange(arrc::round_up(size_t(d1), map_wg), arrc::round_up(size_t(d0), map_wg1)) : arrc::NDRange(size_t(d1), size_t(d0)), lanes ? arrc::NDRange(1, 8) : glanes ? arrc::NDRange(32, 4) : map_wg ? arrc::NDRange(map_wg, map_wg1) : arrc::NDRange()
// HOST: int32_t(glanes)
export double[[*,*]] mm(double[[*,*]] A, double[[*,*]] B) =
  [[dot(A[i, :], B[:, j]) | j <- iota(B.size(1))] | i <- iota(A.size(0))];

// Rank 1 with tuple state (argmin): 16 lanes, both state members as lane
// arrays (CPUs only: no GPU tile for one axis).
// CHECK-LABEL: __kernel void arrc_k1_map0_nearest_t(
// CHECK-NOT: arrc_gl
// CHECK: a tile of 16 elements per work-item
// CHECK: int {{arrc_[0-9]+_acc}}_lanes[16];
// CHECK: double {{arrc_[0-9]+_acc}}_lanes[16];
// HOST-LABEL: inline arrc::Array<int32_t, 1> nearest(
// HOST: lanes ? arrc::NDRange(arrc::round_up(size_t((d0 + 15) / 16), 8)) : map_wg ? arrc::NDRange(arrc::round_up(size_t(d0), map_wg)) : arrc::NDRange(size_t(d0)), lanes ? arrc::NDRange(8) : map_wg ? arrc::NDRange(map_wg) : arrc::NDRange()
export int[[*]] nearest(double[[*]] xs, double[[*]] ys) = [argmin([abs(x - y) | y <- ys]) | x <- xs];

// No tile where the lanes would gather rows in the loop (k-means' P[i, k]
// with i the lane): one element per work-item on CPUs too.
// (map2: the map as written; map0 and map1 its split plan, SplitLongLoops.cpp)
// CHECK-LABEL: __kernel void arrc_k2_map2_rowsums_t(
// CHECK-NOT: a tile of
// HOST-LABEL: inline arrc::Array<double, 1> rowsums(
// HOST-NOT: map_lanes
// HOST: return
export double[[*]] rowsums(double[[*,*]] P) = [sum([P[i, k] * P[i, k] | k <- iota(P.size(1))]) | i <- iota(P.size(0))];

// No loop in the body: PoCL vectorises the element loop itself.
// CHECK-LABEL: __kernel void arrc_k3_map0_axpy_t(
// CHECK-NOT: a tile of
export float[[*]] axpy(float a, float[[*]] x, float[[*]] y) = [a * xi + yi | xi <- x | yi <- y];
