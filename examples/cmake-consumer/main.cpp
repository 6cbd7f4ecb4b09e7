// Uses the module generated from kernels.arr (namespace kernels) and checks
// the results against plain C++ loops. Prints "consumer: OK ..." and exits 0.
#include "kernels.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  try {
    arrc::Context ctx;  // ARRC_DEVICE picks the device; default: first GPU, else CPU
    const int64_t n = 1000, m = 37;
    std::vector<double> a(n), b(n), A(m * n);
    for (int64_t i = 0; i < n; ++i) {
      a[i] = 0.5 * double(i % 17);
      b[i] = 1.0 + double(i % 5);
    }
    for (int64_t k = 0; k < m * n; ++k) A[k] = double((k * 7) % 11) - 5.0;

    auto da = arrc::Array<double, 1>::from(ctx, a);
    auto db = arrc::Array<double, 1>::from(ctx, b);
    auto dA = arrc::Array<double, 2>::from(ctx, A, {m, n});

    double d = kernels::dot(ctx, da, db);
    std::vector<double> y = kernels::matvec_scaled(ctx, 2.0, dA, db).to_vector();

    double dref = 0;
    for (int64_t i = 0; i < n; ++i) dref += a[i] * b[i];
    bool ok = std::fabs(d - dref) <= 1e-9 * std::fabs(dref);
    for (int64_t i = 0; i < m; ++i) {
      double s = 0;
      for (int64_t j = 0; j < n; ++j) s += A[i * n + j] * b[j];
      ok = ok && std::fabs(y[i] - 2.0 * s) <= 1e-9 * (1.0 + std::fabs(2.0 * s));
    }
    std::printf("consumer: %s dot = %.17g (reference %.17g), matvec[0] = %.17g on %s\n",
                ok ? "OK" : "MISMATCH", d, dref, y[0], ctx.device_name().c_str());
    return ok ? 0 : 1;
  } catch (const arrc::Error &e) {
    std::fprintf(stderr, "consumer: error: %s\n", e.what());
    return 1;
  }
}
