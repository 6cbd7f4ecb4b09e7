// Black-Scholes call and put prices, float (bench/programs/blackscholes.arr).
// The C++ versions: one loop over the options with the same formula
// (erff/logf/expf/sqrtf; no -ffast-math, so glibc's scalar functions).
#include "harness.h"
#include "blackscholes.hpp"

#include <cmath>

namespace whole {
namespace {

constexpr float kRate = 0.02f, kVolatility = 0.3f;

inline float cnd(float x) { return 0.5f * (1.0f + std::erf(x / std::sqrt(2.0f))); }

inline void price(float S, float K, float T, float r, float v, float& call, float& put) {
  float d1 = (std::log(S / K) + (r + 0.5f * v * v) * T) / (v * std::sqrt(T));
  float d2 = d1 - v * std::sqrt(T);
  float discount = K * std::exp(-r * T);
  call = S * cnd(d1) - discount * cnd(d2);
  put = discount * cnd(-d2) - S * cnd(-d1);
}

void prices_seq(const float* S, const float* K, const float* T, int64_t n, float* call, float* put) {
  for (int64_t i = 0; i < n; ++i) price(S[i], K[i], T[i], kRate, kVolatility, call[i], put[i]);
}

void prices_omp(const float* S, const float* K, const float* T, int64_t n, float* call, float* put) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) price(S[i], K[i], T[i], kRate, kVolatility, call[i], put[i]);
}

}  // namespace

void bench_blackscholes(Bench& b) {
  const int64_t n = b.size("blackscholes", 10000, 1000000, 10000000);
  std::vector<float> S = uniform_floats(21, n, 10.0f, 110.0f);
  std::vector<float> K = uniform_floats(22, n, 10.0f, 110.0f);
  std::vector<float> T = uniform_floats(23, n, 0.1f, 2.1f);
  Row row;
  row.program = "Black-Scholes";
  row.size = "n=" + fmt_count(n);
  row.type = "float";
  // erf/exp/log of the device against glibc's: a few ulps of the largest price
  const double tol = 1e-5;
  std::vector<float> call(n), put(n), call2(n), put2(n);
  row.seq = b.time([&] { prices_seq(S.data(), K.data(), T.data(), n, call.data(), put.data()); });
  row.omp = b.time([&] { prices_omp(S.data(), K.data(), T.data(), n, call2.data(), put2.data()); });
  expect_close(row, "OpenMP call", call2, call, tol);
  expect_close(row, "OpenMP put", put2, put, tol);

  auto ctx = b.context("blackscholes");
  auto dS = arrc::Array<float, 1>::from(*ctx, S), dK = arrc::Array<float, 1>::from(*ctx, K),
       dT = arrc::Array<float, 1>::from(*ctx, T);
  ctx->finish();
  std::tuple<arrc::Array<float, 1>, arrc::Array<float, 1>> out;
  auto check = [&](const std::string& what) {
    expect_close(row, what + " call", std::get<0>(out).to_vector(), call, tol);
    expect_close(row, what + " put", std::get<1>(out).to_vector(), put, tol);
  };
  row.cold_ms = b.once([&] {
    out = blackscholes::blackscholes(*ctx, dS, dK, dT, kRate, kVolatility);
    ctx->finish();
  });
  check("arrc (first call)");
  row.device = b.device(row, *ctx, [&] {
    out = blackscholes::blackscholes(*ctx, dS, dK, dT, kRate, kVolatility);
    ctx->finish();
  }, false);
  check("arrc");
  row.transfers = b.time([&] {
    auto tS = arrc::Array<float, 1>::from(*ctx, S), tK = arrc::Array<float, 1>::from(*ctx, K),
         tT = arrc::Array<float, 1>::from(*ctx, T);
    auto r = blackscholes::blackscholes(*ctx, tS, tK, tT, kRate, kVolatility);
    call2 = std::get<0>(r).to_vector();
    put2 = std::get<1>(r).to_vector();
  }, false);
  expect_close(row, "arrc (with transfers) call", call2, call, tol);
  expect_close(row, "arrc (with transfers) put", put2, put, tol);
  b.add(std::move(row));
}

}  // namespace whole
