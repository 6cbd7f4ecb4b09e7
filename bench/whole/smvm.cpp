// Sparse matrix-vector product, CSR, double (bench/programs/smvm.arr), on a
// square matrix with power-law row lengths. The C++ versions: one loop per
// row; OpenMP hands out rows dynamically in blocks (a few very long rows).
#include "harness.h"
#include "smvm.hpp"

#include <algorithm>
#include <cmath>

namespace whole {
namespace {

struct Csr {
  std::vector<int32_t> row_off, cols;
  std::vector<double> vals;
};

// Row lengths floor(7.75 * u^(-1/2)) (a Pareto tail of exponent 2, mean
// about 15, the longest row about 8 * sqrt(rows)), columns uniform and sorted
// within a row, values in [-1, 1).
Csr make_matrix(int64_t rows) {
  Csr m;
  m.row_off.resize(rows + 1);
  m.row_off[0] = 0;
  for (int64_t i = 0; i < rows; ++i) {
    double u = 1.0 - uniform01(41, i);  // (0, 1]
    int64_t len = std::min<int64_t>(rows, int64_t(7.75 / std::sqrt(u)));
    m.row_off[i + 1] = int32_t(m.row_off[i] + len);
  }
  const int64_t nnz = m.row_off[rows];
  m.cols.resize(nnz);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t k = m.row_off[i]; k < m.row_off[i + 1]; ++k)
      m.cols[k] = int32_t(mix64(mix64(42) ^ uint64_t(k)) % uint64_t(rows));
    std::sort(m.cols.begin() + m.row_off[i], m.cols.begin() + m.row_off[i + 1]);
  }
  m.vals = uniform_doubles(43, nnz, -1.0, 1.0);
  return m;
}

inline double row_dot(const int32_t* off, const int32_t* cols, const double* vals, const double* x,
                      int64_t i) {
  double s = 0;
  for (int32_t k = off[i]; k < off[i + 1]; ++k) s += vals[k] * x[cols[k]];
  return s;
}

void smvm_seq(const Csr& m, const std::vector<double>& x, std::vector<double>& y) {
  const int64_t rows = int64_t(y.size());
  const int32_t *off = m.row_off.data(), *cols = m.cols.data();
  const double *vals = m.vals.data(), *px = x.data();
  double* py = y.data();
  for (int64_t i = 0; i < rows; ++i) py[i] = row_dot(off, cols, vals, px, i);
}

void smvm_omp(const Csr& m, const std::vector<double>& x, std::vector<double>& y) {
  const int64_t rows = int64_t(y.size());
  const int32_t *off = m.row_off.data(), *cols = m.cols.data();
  const double *vals = m.vals.data(), *px = x.data();
  double* py = y.data();
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t i = 0; i < rows; ++i) py[i] = row_dot(off, cols, vals, px, i);
}

}  // namespace

void bench_smvm(Bench& b) {
  const int64_t rows = b.size("smvm", 10000, 100000, 1000000);
  const Csr m = make_matrix(rows);
  const std::vector<double> x = uniform_doubles(44, rows, -1.0, 1.0);
  const int64_t nnz = int64_t(m.vals.size());
  int32_t longest = 0;
  for (int64_t i = 0; i < rows; ++i) longest = std::max(longest, m.row_off[i + 1] - m.row_off[i]);
  Row row;
  row.program = "CSR SpMV";
  row.size = "rows=" + fmt_count(rows) + " nnz=" + std::to_string(nnz);
  row.type = "double";
  row.note = "power-law row lengths, mean " + std::to_string(double(nnz) / double(rows)).substr(0, 5) +
             ", longest " + std::to_string(longest);
  const double tol = 1e-12;  // per-row sums; the order may differ
  std::vector<double> ref(rows), got(rows);
  row.seq = b.time([&] { smvm_seq(m, x, ref); });
  row.omp = b.time([&] { smvm_omp(m, x, got); });
  expect_close(row, "OpenMP", got, ref, tol);

  auto ctx = b.context("smvm");
  using I = arrc::Array<int32_t, 1>;
  using D = arrc::Array<double, 1>;
  I dOff = I::from(*ctx, m.row_off), dCols = I::from(*ctx, m.cols);
  D dVals = D::from(*ctx, m.vals), dX = D::from(*ctx, x), out;
  ctx->finish();
  row.cold_ms = b.once([&] {
    out = smvm::smvm(*ctx, dOff, dCols, dVals, dX);
    ctx->finish();
  });
  expect_close(row, "arrc (first call)", out.to_vector(), ref, tol);
  row.device = b.device(row, *ctx, [&] {
    out = smvm::smvm(*ctx, dOff, dCols, dVals, dX);
    ctx->finish();
  }, false);
  expect_close(row, "arrc", out.to_vector(), ref, tol);
  row.transfers = b.time([&] {
    got = smvm::smvm(*ctx, I::from(*ctx, m.row_off), I::from(*ctx, m.cols), D::from(*ctx, m.vals),
                     D::from(*ctx, x))
              .to_vector();
  }, false);
  expect_close(row, "arrc (with transfers)", got, ref, tol);
  b.add(std::move(row));
}

}  // namespace whole
