// Group-by: the sum of the float values of each distinct int key, keys
// ascending (bench/programs/groupby.arr, reduce_by_key). Keys uniform in
// [0, K) with K = n / 100 (10^6 keys at n = 10^8; GROUPBY_KEYS=K sets it). The C++ versions do what
// a programmer who knows the keys are small integers would: the keys'
// minimum and maximum, one dense array of sums (and one of counts) over that
// range, then the keys that occur; OpenMP gives each thread its own arrays
// and merges them bin by bin. Checked against sums in double.
#include "harness.h"
#include "groupby.hpp"

#include <algorithm>
#include <cstdlib>
#include <omp.h>

namespace whole {
namespace {

struct Groups {
  std::vector<int32_t> keys;
  std::vector<float> sums;
};

Groups group_seq(const std::vector<int32_t>& ks, const std::vector<float>& vs) {
  Groups g;
  if (ks.empty()) return g;
  const int32_t* k = ks.data();
  const float* v = vs.data();
  int32_t lo = k[0], hi = k[0];
  for (size_t i = 0; i < ks.size(); ++i) lo = std::min(lo, k[i]), hi = std::max(hi, k[i]);
  const int64_t base = lo, range = int64_t(hi) - base + 1;
  std::vector<float> acc(static_cast<size_t>(range), 0.0f);
  std::vector<int32_t> cnt(static_cast<size_t>(range), 0);
  for (size_t i = 0; i < ks.size(); ++i) {
    acc[size_t(k[i] - base)] += v[i];
    cnt[size_t(k[i] - base)] += 1;
  }
  for (int64_t b = 0; b < range; ++b)
    if (cnt[size_t(b)] > 0) {
      g.keys.push_back(int32_t(base + b));
      g.sums.push_back(acc[size_t(b)]);
    }
  return g;
}

Groups group_omp(const std::vector<int32_t>& ks, const std::vector<float>& vs) {
  Groups g;
  const int64_t n = int64_t(ks.size());
  if (n == 0) return g;
  int32_t lo = ks[0], hi = ks[0];
#pragma omp parallel for reduction(min : lo) reduction(max : hi)
  for (int64_t i = 0; i < n; ++i) {
    lo = std::min(lo, ks[size_t(i)]);
    hi = std::max(hi, ks[size_t(i)]);
  }
  const int64_t base = lo, range = int64_t(hi) - base + 1;
  const int T = omp_get_max_threads();
  std::vector<float> acc(size_t(range) * size_t(T), 0.0f);
  std::vector<int32_t> cnt(size_t(range) * size_t(T), 0);
#pragma omp parallel
  {
    float* a = acc.data() + size_t(omp_get_thread_num()) * size_t(range);
    int32_t* c = cnt.data() + size_t(omp_get_thread_num()) * size_t(range);
#pragma omp for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
      a[ks[size_t(i)] - base] += vs[size_t(i)];
      c[ks[size_t(i)] - base] += 1;
    }
  }
  std::vector<float> sum(static_cast<size_t>(range));
  std::vector<int32_t> count(static_cast<size_t>(range));
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < range; ++b) {
    float s = 0;
    int32_t k = 0;
    for (int t = 0; t < T; ++t) {
      s += acc[size_t(t) * size_t(range) + size_t(b)];
      k += cnt[size_t(t) * size_t(range) + size_t(b)];
    }
    sum[size_t(b)] = s;
    count[size_t(b)] = k;
  }
  for (int64_t b = 0; b < range; ++b)
    if (count[size_t(b)] > 0) {
      g.keys.push_back(int32_t(base + b));
      g.sums.push_back(sum[size_t(b)]);
    }
  return g;
}

}  // namespace

void bench_groupby(Bench& b) {
  const int64_t n = b.size("groupby", 10000, 1000000, 100000000);
  // GROUPBY_KEYS=K sets the key range (the sweep in docs/performance.md)
  const char* keys_env = std::getenv("GROUPBY_KEYS");
  const int64_t K = keys_env ? std::max<int64_t>(1, std::atoll(keys_env)) : std::max<int64_t>(16, n / 100);
  const std::vector<int32_t> ks = uniform_ints(91, n, 0, K);
  const std::vector<float> vs = uniform_floats(92, n, 0.0f, 1.0f);
  // the reference: sums in double
  Groups exact;
  {
    std::vector<double> acc(size_t(K), 0.0);
    std::vector<uint8_t> seen(size_t(K), 0);
    for (int64_t i = 0; i < n; ++i) acc[size_t(ks[size_t(i)])] += vs[size_t(i)], seen[size_t(ks[size_t(i)])] = 1;
    for (int64_t k = 0; k < K; ++k)
      if (seen[size_t(k)]) exact.keys.push_back(int32_t(k)), exact.sums.push_back(float(acc[size_t(k)]));
  }
  const double tol = 1e-4;  // float sums of ~100 terms in some order
  Row row;
  row.program = "group-by";
  row.size = "n=" + fmt_count(n) + " keys=" + fmt_count(K);
  row.type = "int, float";
  Groups got;
  auto check = [&](const std::string& what, const Groups& g) {
    expect_equal(row, what + " (keys)", g.keys, exact.keys);
    expect_close(row, what + " (sums)", g.sums, exact.sums, tol);
  };
  row.seq = b.time([&] { got = group_seq(ks, vs); });
  check("sequential C++", got);
  row.omp = b.time([&] { got = group_omp(ks, vs); });
  check("OpenMP", got);

  auto ctx = b.context("groupby");
  auto dk = arrc::Array<int32_t, 1>::from(*ctx, ks);
  auto dv = arrc::Array<float, 1>::from(*ctx, vs);
  ctx->finish();
  std::tuple<arrc::Array<int32_t, 1>, arrc::Array<float, 1>> out;
  auto fetch = [&] {
    Groups g;
    g.keys = std::get<0>(out).to_vector();
    g.sums = std::get<1>(out).to_vector();
    return g;
  };
  row.cold_ms = b.once([&] {
    out = groupby::groupby(*ctx, dk, dv);
    ctx->finish();
  });
  check("arrc (first call)", fetch());
  row.device = b.device(row, *ctx, [&] {
    out = groupby::groupby(*ctx, dk, dv);
    ctx->finish();
  });
  check("arrc", fetch());
  row.transfers = b.time([&] {
    out = groupby::groupby(*ctx, arrc::Array<int32_t, 1>::from(*ctx, ks), arrc::Array<float, 1>::from(*ctx, vs));
    got = fetch();
  });
  check("arrc (with transfers)", got);
  b.add(std::move(row));
}

}  // namespace whole
