// map + filter + count over ints (bench/programs/filtercount.arr): how many
// x + 15 are multiples of 20. The C++ versions: one counting loop
// (OpenMP: `parallel for simd` reduction) through a raw pointer taken
// outside the loop.
#include "harness.h"
#include "filtercount.hpp"

namespace whole {
namespace {

int32_t count_seq(const std::vector<int32_t>& xs) {
  const int64_t n = int64_t(xs.size());
  const int32_t* __restrict p = xs.data();
  int32_t c = 0;
#pragma omp simd reduction(+ : c)
  for (int64_t i = 0; i < n; ++i) c += (p[i] + 15) % 20 == 0;
  return c;
}

int32_t count_omp(const std::vector<int32_t>& xs) {
  const int64_t n = int64_t(xs.size());
  const int32_t* __restrict p = xs.data();
  int32_t c = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : c)
  for (int64_t i = 0; i < n; ++i) c += (p[i] + 15) % 20 == 0;
  return c;
}

}  // namespace

void bench_filtercount(Bench& b) {
  const int64_t n = b.size("filtercount", 10000, 10000000, 100000000);
  // Negative and positive values (the remainder takes the dividend's sign).
  const std::vector<int32_t> xs = uniform_ints(71, n, -1000000000, 1000000000);
  Row row;
  row.program = "map+filter+count";
  row.size = "n=" + fmt_count(n);
  row.type = "int";
  int32_t ref = 0, got = 0;
  row.seq = b.time([&] { ref = count_seq(xs); });
  row.omp = b.time([&] { got = count_omp(xs); });
  expect_scalar(row, "OpenMP", got, ref, 0);

  auto ctx = b.context("filtercount");
  auto dxs = arrc::Array<int32_t, 1>::from(*ctx, xs);
  ctx->finish();
  row.cold_ms = b.once([&] { got = filtercount::filter_count(*ctx, dxs); });
  expect_scalar(row, "arrc (first call)", got, ref, 0);
  row.device = b.device(row, *ctx, [&] { got = filtercount::filter_count(*ctx, dxs); }, false);
  expect_scalar(row, "arrc", got, ref, 0);
  row.transfers = b.time([&] { got = filtercount::filter_count(*ctx, arrc::Array<int32_t, 1>::from(*ctx, xs)); },
                         false);
  expect_scalar(row, "arrc (with transfers)", got, ref, 0);
  b.add(std::move(row));
}

}  // namespace whole
