// C++ harness: generated headers called through the C++ API (LANGUAGE.md §8)
// on inputs large enough to exercise every multi-work-group path (chunked
// reductions, scans, compaction, merge sort, histogram, expand), compared
// with plain C++ reference loops written here. Integer results must match
// exactly; double sums within a relative 1e-9.
#include "soacs.hpp"
#include "dot.hpp"
#include "spmv_csr.hpp"
#include "qa_embed.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

static int failures = 0;
static void expect(bool ok, const std::string &what) {
  std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
  if (!ok) ++failures;
}

int main() {
  arrc::Context ctx;
  std::printf("device: %s\n", ctx.describe().c_str());
  const int n = 200003;
  std::vector<int> xs(n);
  std::vector<double> a(n), b(n);
  uint32_t seed = 12345;
  auto rnd = [&] { seed = seed * 1664525u + 1013904223u; return seed >> 8; };
  for (int i = 0; i < n; ++i) {
    xs[i] = int(rnd() % 1000) - 300;
    a[i] = double(rnd() % 1000) / 8.0;
    b[i] = double(rnd() % 100) / 4.0;
  }
  auto dx = arrc::Array<int32_t, 1>::from(ctx, xs);

  { // reduce
    double ref = 0;
    for (int i = 0; i < n; ++i) ref += a[i] * b[i];
    double got = dot::dot(ctx, arrc::Array<double, 1>::from(ctx, a), arrc::Array<double, 1>::from(ctx, b));
    expect(std::fabs(got - ref) <= 1e-9 * std::fabs(ref), "dot (reduce), n = " + std::to_string(n));
  }
  { // scan
    std::vector<int> ref(n);
    int acc = 0;
    for (int i = 0; i < n; ++i) ref[i] = acc += xs[i];
    expect(soacs::prefix(ctx, dx).to_vector() == ref, "scan");
  }
  { // filter
    std::vector<int> ref;
    for (int x : xs) if (x % 2 == 0) ref.push_back(x);
    expect(soacs::evens(ctx, dx).to_vector() == ref, "filter");
  }
  { // sort
    std::vector<int> ref = xs;
    std::stable_sort(ref.begin(), ref.end());
    expect(soacs::sorted(ctx, dx).to_vector() == ref, "sort");
  }
  { // histogram (bins 0..3, the rest ignored)
    std::vector<int> is(n), ref(4, 0);
    for (int i = 0; i < n; ++i) { is[i] = xs[i] % 6; if (is[i] >= 0 && is[i] < 4) ref[is[i]]++; }
    expect(soacs::histo(ctx, arrc::Array<int32_t, 1>::from(ctx, is)).to_vector() == ref, "histogram");
  }
  { // segmented scan and reduce
    std::vector<bool> fs(n);
    for (int i = 0; i < n; ++i) fs[i] = (rnd() % 7) == 0;
    std::vector<int> scan(n), red;
    int acc = 0;
    for (int i = 0; i < n; ++i) {
      if (fs[i] && i > 0) red.push_back(acc);
      acc = fs[i] ? xs[i] : acc + xs[i];
      scan[i] = acc;
    }
    red.push_back(acc);
    auto dfs = arrc::Array<bool, 1>::from(ctx, fs);
    expect(soacs::segsum(ctx, dfs, dx).to_vector() == scan, "segmented scan");
    expect(soacs::segred(ctx, dfs, dx).to_vector() == red, "segmented reduce");
  }
  { // expand
    std::vector<int> sz(5000), ref;
    for (int i = 0; i < 5000; ++i) sz[i] = int(rnd() % 9);
    for (int x : sz) for (int i = 0; i < x; ++i) ref.push_back(x * 10 + i);
    expect(soacs::ex(ctx, arrc::Array<int32_t, 1>::from(ctx, sz)).to_vector() == ref, "expand");
  }
  { // reduce_by_key
    std::vector<int> ks(n);
    std::map<int, int> ref;
    for (int i = 0; i < n; ++i) { ks[i] = int(rnd() % 50); ref[ks[i]] += xs[i]; }
    auto r = soacs::rbk(ctx, arrc::Array<int32_t, 1>::from(ctx, ks), dx);
    std::vector<int> rk, rv;
    for (auto &[k, v] : ref) { rk.push_back(k); rv.push_back(v); }
    expect(std::get<0>(r).to_vector() == rk && std::get<1>(r).to_vector() == rv, "reduce_by_key");
  }
  { // CSR sparse matrix-vector product: the published example
    auto I = [&](std::vector<int> v) { return arrc::Array<int32_t, 1>::from(ctx, v); };
    auto ro = I({0, 3, 5, 8, 9, 11}), ci = I({0, 1, 3, 1, 2, 1, 2, 3, 3, 3, 4}),
         vs = I({1, 2, 11, 3, 4, 5, 6, 7, 8, 9, 10}), x = I({3, 1, 2, 6, 5});
    std::vector<int> want = {71, 11, 59, 48, 104};
    expect(spmv_csr::spmv(ctx, ro, ci, vs, x).to_vector() == want, "spmv (CSR paper example)");
    expect(spmv_csr::spmv_expand(ctx, ro, ci, vs, x).to_vector() == want, "spmv_expand");
  }
  { // runtime errors are arrc::Error naming the position, inputs intact
    bool thrown = false;
    try {
      dot::dot(ctx, arrc::Array<double, 1>::from(ctx, std::vector<double>{1.0}),
               arrc::Array<double, 1>::from(ctx, std::vector<double>{1.0, 2.0}));
    } catch (const arrc::Error &e) {
      thrown = std::string(e.what()).find("dot.arr:") != std::string::npos;
    }
    expect(thrown, "zip of unequal sizes raises arrc::Error with the position");
    expect(dx.to_vector() == xs, "inputs intact");
  }
  { // the C++ API's edges (held-out QA, stop 39)
    auto what = [&](auto &&call) -> std::string {
      try {
        call();
      } catch (const arrc::Error &e) {
        return e.what();
      }
      return "";
    };
    // an array of tuples whose components differ in size: an error, not a read past the end
    auto ks = arrc::Array<int32_t, 1>::from(ctx, std::vector<int32_t>(1000, 1));
    auto vs = arrc::Array<double, 1>::from(ctx, std::vector<double>{1.0, 2.0});
    std::string e = what([&] { qa_embed::second_sum(ctx, std::make_tuple(ks, vs)); });
    expect(e.find("qa_embed.arr:") != std::string::npos &&
               e.find("components of the array of tuples p differ in size on axis 0: 1000 vs 2") != std::string::npos,
           "unequal components of an array of tuples: " + e);
    expect(qa_embed::second_sum(ctx, std::make_tuple(ks.section<1>({arrc::Sel::range(0, 1)}), vs)) == 3.0,
           "an array of tuples from a section and an array");
    // a tuple holding an array
    expect(qa_embed::pick(ctx, std::make_tuple(vs, int32_t(1))) == 2.0, "a tuple holding an array");
    // a moved-from array is empty
    auto moved = arrc::Array<double, 1>::from(ctx, std::vector<double>{1, 2, 3});
    auto taken = std::move(moved);
    expect(moved.size() == 0 && moved.to_vector().empty() && taken.size() == 3, "a moved-from array is empty");
    e = what([&] { qa_embed::pick(ctx, std::make_tuple(moved, int32_t(0))); });
    expect(e.find("out of bounds for axis 0 of size 0") != std::string::npos, "a moved-from array in a call: " + e);
    // null host pointers
    e = what([&] { arrc::Array<double, 1>::from(ctx, static_cast<const double *>(nullptr), {4}); });
    expect(e.find("null") != std::string::npos, "Array::from(nullptr): " + e);
    expect(arrc::Array<double, 1>::from(ctx, static_cast<const double *>(nullptr), {0}).size() == 0,
           "Array::from(nullptr) of no elements");
    // rank 9: a view copied back through the strided copy's outer loop
    std::vector<double> h9 = {1, 2, 3, 4, 5, 6};
    auto a9 = arrc::Array<double, 9>::from(ctx, h9, {2, 1, 1, 1, 1, 1, 1, 1, 3});
    expect(qa_embed::flip9(ctx, a9).to_vector() == std::vector<double>{4, 6, 1, 3}, "rank 9 view to_vector");
    expect(qa_embed::sum9(ctx, a9) == 21.0, "rank 9 sum");
  }
  std::printf("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
