// a * x + y on float vectors (bench/programs/saxpy.arr). The C++ versions
// write into a preallocated result through raw pointers (OpenMP: `parallel
// for simd`).
#include "harness.h"
#include "saxpy.hpp"

namespace whole {
namespace {

void saxpy_seq(float a, const std::vector<float>& x, const std::vector<float>& y, std::vector<float>& z) {
  const int64_t n = int64_t(x.size());
  const float *__restrict px = x.data(), *__restrict py = y.data();
  float* __restrict pz = z.data();
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) pz[i] = a * px[i] + py[i];
}

void saxpy_omp(float a, const std::vector<float>& x, const std::vector<float>& y, std::vector<float>& z) {
  const int64_t n = int64_t(x.size());
  const float *__restrict px = x.data(), *__restrict py = y.data();
  float* __restrict pz = z.data();
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < n; ++i) pz[i] = a * px[i] + py[i];
}

}  // namespace

void bench_saxpy(Bench& b) {
  const int64_t n = b.size("saxpy", 10000, 10000000, 100000000);
  const float a = 1.5f;
  const std::vector<float> x = uniform_floats(61, n, -1.0f, 1.0f), y = uniform_floats(62, n, -1.0f, 1.0f);
  const double tol = 1e-6;  // a fused multiply-add on the device rounds once
  Row row;
  row.program = "saxpy";
  row.size = "n=" + fmt_count(n);
  row.type = "float";
  std::vector<float> ref(n), got(n);
  row.seq = b.time([&] { saxpy_seq(a, x, y, ref); });
  row.omp = b.time([&] { saxpy_omp(a, x, y, got); });
  expect_close(row, "OpenMP", got, ref, tol);

  auto ctx = b.context("saxpy");
  auto dx = arrc::Array<float, 1>::from(*ctx, x), dy = arrc::Array<float, 1>::from(*ctx, y);
  ctx->finish();
  arrc::Array<float, 1> out;
  row.cold_ms = b.once([&] {
    out = saxpy::saxpy(*ctx, a, dx, dy);
    ctx->finish();
  });
  expect_close(row, "arrc (first call)", out.to_vector(), ref, tol);
  row.device = b.device(row, *ctx, [&] {
    out = saxpy::saxpy(*ctx, a, dx, dy);
    ctx->finish();
  }, false);
  expect_close(row, "arrc", out.to_vector(), ref, tol);
  row.transfers = b.time([&] {
    got = saxpy::saxpy(*ctx, a, arrc::Array<float, 1>::from(*ctx, x), arrc::Array<float, 1>::from(*ctx, y))
              .to_vector();
  }, false);
  expect_close(row, "arrc (with transfers)", got, ref, tol);
  b.add(std::move(row));
}

}  // namespace whole
