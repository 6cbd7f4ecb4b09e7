// The number of Pythagorean triples x <= y < z < n by brute force
// (bench/programs/pythagorean.arr): the same triple loop in C++ (the inner
// loop over z is a vectorised count), the OpenMP version shares the outer
// loop over x dynamically (the work per x varies).
#include "harness.h"
#include "pythagorean.hpp"

#include <algorithm>

namespace whole {
namespace {

inline int32_t count_for_x(int32_t x, int32_t n) {
  int32_t c = 0;
  for (int32_t y = x; y < n; ++y) {
    const int32_t s = x * x + y * y, z_end = std::min(x + y, n);
    for (int32_t z = y; z < z_end; ++z) c += s == z * z;
  }
  return c;
}

int32_t count_seq(int32_t n) {
  int32_t c = 0;
  for (int32_t x = 1; x < n; ++x) c += count_for_x(x, n);
  return c;
}

int32_t count_omp(int32_t n) {
  int32_t c = 0;
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : c)
  for (int32_t x = 1; x < n; ++x) c += count_for_x(x, n);
  return c;
}

}  // namespace

void bench_pythagorean(Bench& b) {
  for (int64_t n64 : b.sizes("pythagorean", "100,200", "300,600", "1000,2000")) {
    const int32_t n = int32_t(n64);
    Row row;
    row.program = "Pythagorean triples";
    row.size = "n=" + std::to_string(n);
    row.type = "int";
    int32_t ref = 0, got = 0;
    row.seq = b.time([&] { ref = count_seq(n); });
    row.omp = b.time([&] { got = count_omp(n); });
    expect_scalar(row, "OpenMP", got, ref, 0);

    auto ctx = b.context("pythagorean_" + std::to_string(n));
    row.cold_ms = b.once([&] { got = pythagorean::count_triples(*ctx, n); });
    expect_scalar(row, "arrc (first call)", got, ref, 0);
    row.device = b.device(row, *ctx, [&] { got = pythagorean::count_triples(*ctx, n); }, false);
    expect_scalar(row, "arrc", got, ref, 0);
    // no array inputs or outputs: nothing to transfer
    b.add(std::move(row));
  }
}

}  // namespace whole
