// Dot product of two float vectors (bench/programs/sdot.arr). The C++
// versions add float products in vectorised blocks of 4096 (an `omp simd`
// reduction) and the block sums in double: a float accumulator over 1e8
// elements would be off by 0.5% (OpenMP: the blocks are shared over threads).
// All three are checked against a double-precision sum.
#include "harness.h"
#include "sdot.hpp"

#include <algorithm>

namespace whole {
namespace {

constexpr int64_t kBlock = 4096;

inline float dot_block(const float* a, const float* b, int64_t n) {
  float s = 0;
#pragma omp simd reduction(+ : s)
  for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

float dot_seq(const std::vector<float>& a, const std::vector<float>& b) {
  const int64_t n = int64_t(a.size());
  double s = 0;
  for (int64_t i = 0; i < n; i += kBlock) s += dot_block(a.data() + i, b.data() + i, std::min(kBlock, n - i));
  return float(s);
}

float dot_omp(const std::vector<float>& a, const std::vector<float>& b) {
  const int64_t n = int64_t(a.size());
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int64_t i = 0; i < n; i += kBlock) s += dot_block(a.data() + i, b.data() + i, std::min(kBlock, n - i));
  return float(s);
}

}  // namespace

void bench_dot(Bench& b) {
  const int64_t n = b.size("dot", 10000, 10000000, 100000000);
  // In [0, 1): no cancellation, so a relative check of the float sums is meaningful.
  const std::vector<float> x = uniform_floats(51, n, 0.0f, 1.0f), y = uniform_floats(52, n, 0.0f, 1.0f);
  double exact = 0;
#pragma omp parallel for reduction(+ : exact)
  for (int64_t i = 0; i < n; ++i) exact += double(x[i]) * double(y[i]);
  const double tol = 1e-4;  // float sums of up to 1e8 terms in some order
  Row row;
  row.program = "dot";
  row.size = "n=" + fmt_count(n);
  row.type = "float";
  float got = 0;
  row.seq = b.time([&] { got = dot_seq(x, y); });
  expect_scalar(row, "sequential C++", got, exact, tol);
  row.omp = b.time([&] { got = dot_omp(x, y); });
  expect_scalar(row, "OpenMP", got, exact, tol);

  auto ctx = b.context("dot");
  auto dx = arrc::Array<float, 1>::from(*ctx, x), dy = arrc::Array<float, 1>::from(*ctx, y);
  ctx->finish();
  row.cold_ms = b.once([&] { got = sdot::sdot(*ctx, dx, dy); });
  expect_scalar(row, "arrc (first call)", got, exact, tol);
  row.device = b.device(row, *ctx, [&] { got = sdot::sdot(*ctx, dx, dy); }, false);
  expect_scalar(row, "arrc", got, exact, tol);
  row.transfers = b.time([&] {
    got = sdot::sdot(*ctx, arrc::Array<float, 1>::from(*ctx, x), arrc::Array<float, 1>::from(*ctx, y));
  }, false);
  expect_scalar(row, "arrc (with transfers)", got, exact, tol);
  b.add(std::move(row));
}

}  // namespace whole
