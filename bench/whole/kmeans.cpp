// k-means (Lloyd): one step, and 10 steps inside one Arr `loop`
// (bench/programs/kmeans.arr), M points of dimension d = 20, k = 10 centres,
// double. The C++ versions: per point the squared distance to every centre
// and the first nearest, then per-centre sums and counts (OpenMP: a parallel
// for with array-section reductions of the sums and counts).
#include "harness.h"
#include "kmeans.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace whole {
namespace {

constexpr int kDim = 20, kCentres = 10, kIterations = 10;

// Adds point p's coordinates to the sums of its nearest centre.
inline void assign_and_accumulate(const double* p, const double* C, int d, int k, double* sums,
                                  int64_t* counts) {
  int best = 0;
  double best_d = std::numeric_limits<double>::infinity();
  for (int c = 0; c < k; ++c) {
    const double* q = C + c * d;
    double s = 0;
    for (int j = 0; j < d; ++j) {
      double t = p[j] - q[j];
      s += t * t;
    }
    if (s < best_d) best_d = s, best = c;
  }
  counts[best] += 1;
  double* acc = sums + best * d;
  for (int j = 0; j < d; ++j) acc[j] += p[j];
}

// New centres from the sums and counts (a centre without points stays).
void finish_centres(const double* sums, const int64_t* counts, const double* C, int d, int k,
                    double* out) {
  for (int c = 0; c < k; ++c)
    for (int j = 0; j < d; ++j)
      out[c * d + j] = counts[c] == 0 ? C[c * d + j] : sums[c * d + j] / double(counts[c]);
}

void step_seq(const double* P, int64_t M, int d, int k, const double* C, double* out) {
  std::vector<double> sums(size_t(k) * d, 0.0);
  std::vector<int64_t> counts(k, 0);
  for (int64_t i = 0; i < M; ++i) assign_and_accumulate(P + i * d, C, d, k, sums.data(), counts.data());
  finish_centres(sums.data(), counts.data(), C, d, k, out);
}

void step_omp(const double* P, int64_t M, int d, int k, const double* C, double* out) {
  std::vector<double> sum_v(size_t(k) * d, 0.0);
  std::vector<int64_t> count_v(k, 0);
  double* sums = sum_v.data();
  int64_t* counts = count_v.data();
#pragma omp parallel for schedule(static) reduction(+ : sums[:k * d], counts[:k])
  for (int64_t i = 0; i < M; ++i) assign_and_accumulate(P + i * d, C, d, k, sums, counts);
  finish_centres(sums, counts, C, d, k, out);
}

using StepFn = void (*)(const double*, int64_t, int, int, const double*, double*);

std::vector<double> run_steps(StepFn step, int iterations, const std::vector<double>& P, int64_t M,
                              const std::vector<double>& C0) {
  std::vector<double> C = C0, next(C0.size());
  for (int it = 0; it < iterations; ++it) {
    step(P.data(), M, kDim, kCentres, C.data(), next.data());
    std::swap(C, next);
  }
  return C;
}

}  // namespace

void bench_kmeans(Bench& b) {
  const int64_t M = b.size("kmeans", 2000, 100000, 1000000);
  const int d = kDim, k = kCentres;
  if (M < k) throw std::runtime_error("kmeans: needs at least k = 10 points (the first k are the starting centres)");
  // k true centres in [0, 10)^d; point i lies around centre i % k (noise in
  // [-3, 3) per coordinate); the starting centres are the first k points.
  std::vector<double> truth = uniform_doubles(11, int64_t(k) * d, 0.0, 10.0);
  std::vector<double> P = uniform_doubles(12, M * d, -3.0, 3.0);
  for (int64_t i = 0; i < M; ++i)
    for (int j = 0; j < d; ++j) P[i * d + j] += truth[(i % k) * d + j];
  std::vector<double> C0(P.begin(), P.begin() + int64_t(k) * d);
  const std::string size = "M=" + fmt_count(M) + " d=20 k=10";
  const double tol = 1e-9;  // hist sums in another order than the C++ loop

  for (int iterations : {1, kIterations}) {
    Row row;
    row.program = iterations == 1 ? "k-means step" : "k-means 10 steps (loop)";
    row.size = size;
    row.type = "double";
    std::vector<double> ref, got;
    row.seq = b.time([&] { ref = run_steps(step_seq, iterations, P, M, C0); });
    row.omp = b.time([&] { got = run_steps(step_omp, iterations, P, M, C0); });
    expect_close(row, "OpenMP", got, ref, tol);

    auto ctx = b.context(iterations == 1 ? "kmeans_step" : "kmeans_loop");
    auto call = [&](const arrc::Array<double, 2>& dP, const arrc::Array<double, 2>& dC) {
      return iterations == 1 ? kmeans::kmeans_step(*ctx, dP, dC) : kmeans::kmeans(*ctx, iterations, dP, dC);
    };
    auto dP = arrc::Array<double, 2>::from(*ctx, P, {M, d});
    auto dC = arrc::Array<double, 2>::from(*ctx, C0, {k, d});
    ctx->finish();
    arrc::Array<double, 2> out;
    row.cold_ms = b.once([&] {
      out = call(dP, dC);
      ctx->finish();
    });
    expect_close(row, "arrc (first call)", out.to_vector(), ref, tol);
    row.device = b.device(row, *ctx, [&] {
      out = call(dP, dC);
      ctx->finish();
    }, false);
    expect_close(row, "arrc", out.to_vector(), ref, tol);
    row.transfers = b.time([&] {
      auto tP = arrc::Array<double, 2>::from(*ctx, P, {M, d});
      auto tC = arrc::Array<double, 2>::from(*ctx, C0, {k, d});
      got = call(tP, tC).to_vector();
    }, false);
    expect_close(row, "arrc (with transfers)", got, ref, tol);
    b.add(std::move(row));
  }
}

}  // namespace whole
