// A map whose body loops over the columns of matrices (k-means' assignment)
// is launched with arrc::gen::spec of its arrays' extents and weights and
// its staged rows' pitch: on GPUs, large launches build the kernel again
// with the small ones (1..64) as constants (ARRC_SPEC_<kernel>), so that
// the loops unroll. A map without loops (the last export) has no spec.
// RUN: %arrc --emit=header %s | FileCheck %s
def double dist2(double[[*]] p, double[[*]] c) = sum([(a - b) * (a - b) | a <- p | b <- c]);
export int[[*]] nearest(double[[*,*]] P, double[[*,*]] C) =
  [argmin([dist2(P[i, :], C[c, :]) | c <- iota(C.size(0))]) | i <- iota(P.size(0))];
export double[[*]] twice(double[[*]] x) = [2.0 * v | v <- x];

// CHECK: inline std::string spec(arrc::Context &ctx, const char *kernel, int64_t items,
// CHECK: __kernel void [[K:arrc_k[0-9]+_map[0-9]+_nearest_[a-z]+]](
// CHECK: #ifdef ARRC_SPEC_[[K]]
// CHECK-NEXT: ARRC_SPEC_[[K]]
// CHECK-NEXT: #endif
// CHECK: __kernel void [[T:arrc_k[0-9]+_map[0-9]+_twice_[a-z]+]](
// CHECK-NOT: ARRC_SPEC_
// CHECK: const std::string spec = arrc::gen::spec(ctx, "[[K]]", d0, {{[{][{]}}"arrc_{{[0-9]+}}_P_n0", arrc_{{[0-9]+}}_P.shape(0)},
// CHECK-SAME: {"stg_pitch_arrc_{{[0-9]+}}_P", arrc_{{[0-9]+}}_P_pitch}});
// CHECK: ctx.launch(detail::kernel(ctx, "[[K]]", {{.*}}, spec),
// CHECK: ctx.launch(detail::kernel(ctx, "[[T]]"
