// Dense matrix product C = A B, double, written in Arr with sections
// (bench/programs/dgemm.arr). The C++ versions: cache-blocked i-k-j loops
// (a 128 x 256 block of B stays in L2 while rows of A pass over it; four rows
// of C at a time share each load of B; the loop over j is contiguous and
// vectorised); OpenMP splits the rows over threads. Every C[i][j] is summed
// over k in increasing order, as the naive loop would. The sequential
// version at n = 4096 takes longer than half the default budget, so it runs
// once (see Bench::time).
#include "harness.h"
#include "dgemm.hpp"

#include <algorithm>

namespace whole {
namespace {

constexpr int64_t kBlockK = 128, kBlockJ = 256, kRowsPerThreadBlock = 16;

// Rows [i0, i1) of C += A B (n x n, row-major).
void gemm_rows(const double* __restrict A, const double* __restrict B, double* __restrict C, int64_t n,
               int64_t i0, int64_t i1) {
  for (int64_t jj = 0; jj < n; jj += kBlockJ) {
    const int64_t j1 = std::min(n, jj + kBlockJ);
    for (int64_t kk = 0; kk < n; kk += kBlockK) {
      const int64_t k1 = std::min(n, kk + kBlockK);
      int64_t i = i0;
      for (; i + 4 <= i1; i += 4) {
        double *c0 = C + i * n, *c1 = c0 + n, *c2 = c1 + n, *c3 = c2 + n;
        for (int64_t k = kk; k < k1; ++k) {
          const double a0 = A[i * n + k], a1 = A[(i + 1) * n + k], a2 = A[(i + 2) * n + k],
                       a3 = A[(i + 3) * n + k];
          const double* b = B + k * n;
          for (int64_t j = jj; j < j1; ++j) {
            c0[j] += a0 * b[j];
            c1[j] += a1 * b[j];
            c2[j] += a2 * b[j];
            c3[j] += a3 * b[j];
          }
        }
      }
      for (; i < i1; ++i) {
        double* c = C + i * n;
        for (int64_t k = kk; k < k1; ++k) {
          const double a = A[i * n + k];
          const double* b = B + k * n;
          for (int64_t j = jj; j < j1; ++j) c[j] += a * b[j];
        }
      }
    }
  }
}

void gemm_seq(const std::vector<double>& A, const std::vector<double>& B, std::vector<double>& C, int64_t n) {
  std::fill(C.begin(), C.end(), 0.0);
  gemm_rows(A.data(), B.data(), C.data(), n, 0, n);
}

void gemm_omp(const std::vector<double>& A, const std::vector<double>& B, std::vector<double>& C, int64_t n) {
  const int64_t blocks = (n + kRowsPerThreadBlock - 1) / kRowsPerThreadBlock;
#pragma omp parallel for schedule(static)
  for (int64_t ib = 0; ib < blocks; ++ib) {
    const int64_t i0 = ib * kRowsPerThreadBlock, i1 = std::min(n, i0 + kRowsPerThreadBlock);
    std::fill(C.begin() + i0 * n, C.begin() + i1 * n, 0.0);
    gemm_rows(A.data(), B.data(), C.data(), n, i0, i1);
  }
}

}  // namespace

void bench_dgemm(Bench& b) {
  const int64_t n = b.size("dgemm", 32, 256, 4096);
  const std::vector<double> A = uniform_doubles(91, n * n, -1.0, 1.0), B = uniform_doubles(92, n * n, -1.0, 1.0);
  Row row;
  row.program = "dgemm";
  row.size = std::to_string(n) + "x" + std::to_string(n);
  row.type = "double";
  const double tol = 1e-12;  // sums of n products in another order
  std::vector<double> ref(n * n), got(n * n);
  row.seq = b.time([&] { gemm_seq(A, B, ref, n); });
  row.omp = b.time([&] { gemm_omp(A, B, got, n); });
  expect_close(row, "OpenMP", got, ref, tol);
  if (row.seq.ms.size() == 1 && b.options().reps > 1) row.note = "sequential C++ ran once (a call takes over half the --budget)";

  auto ctx = b.context("dgemm");
  using M = arrc::Array<double, 2>;
  M dA = M::from(*ctx, A, {n, n}), dB = M::from(*ctx, B, {n, n}), out;
  ctx->finish();
  row.cold_ms = b.once([&] {
    out = dgemm::dgemm(*ctx, dA, dB);
    ctx->finish();
  });
  expect_close(row, "arrc (first call)", out.to_vector(), ref, tol);
  row.device = b.device(row, *ctx, [&] {
    out = dgemm::dgemm(*ctx, dA, dB);
    ctx->finish();
  }, false);
  expect_close(row, "arrc", out.to_vector(), ref, tol);
  row.transfers = b.time([&] { got = dgemm::dgemm(*ctx, M::from(*ctx, A, {n, n}), M::from(*ctx, B, {n, n})).to_vector(); },
                         false);
  expect_close(row, "arrc (with transfers)", got, ref, tol);
  b.add(std::move(row));
}

}  // namespace whole
