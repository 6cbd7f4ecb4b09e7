// Sorting ints (bench/programs/sorting.arr). The C++ versions: std::sort and
// libstdc++'s parallel mode __gnu_parallel::sort (a multiway merge sort on
// OpenMP threads). Both sort a copy of the input made outside the timing.
#include "harness.h"
#include "sorting.hpp"

#include <algorithm>
#include <parallel/algorithm>

namespace whole {

void bench_sort(Bench& b) {
  const int64_t n = b.size("sort", 10000, 1000000, 100000000);
  const std::vector<int32_t> xs = uniform_ints(81, n, INT32_MIN, int64_t(INT32_MAX) + 1);
  Row row;
  row.program = "sort";
  row.size = "n=" + fmt_count(n);
  row.type = "int";
  std::vector<int32_t> ref, got;
  row.seq = b.time([&] { std::sort(ref.begin(), ref.end()); }, true, [&] { ref = xs; });
  row.omp = b.time([&] { __gnu_parallel::sort(got.begin(), got.end()); }, true, [&] { got = xs; });
  expect_equal(row, "parallel sort", got, ref);

  auto ctx = b.context("sort");
  auto dxs = arrc::Array<int32_t, 1>::from(*ctx, xs);
  ctx->finish();
  arrc::Array<int32_t, 1> out;
  row.cold_ms = b.once([&] {
    out = sorting::sort_ints(*ctx, dxs);
    ctx->finish();
  });
  expect_equal(row, "arrc (first call)", out.to_vector(), ref);
  row.device = b.device(row, *ctx, [&] {
    out = sorting::sort_ints(*ctx, dxs);
    ctx->finish();
  }, false);
  expect_equal(row, "arrc", out.to_vector(), ref);
  row.transfers = b.time([&] { got = sorting::sort_ints(*ctx, arrc::Array<int32_t, 1>::from(*ctx, xs)).to_vector(); },
                         false);
  expect_equal(row, "arrc (with transfers)", got, ref);
  b.add(std::move(row));
}

}  // namespace whole
