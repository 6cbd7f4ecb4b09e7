// Every primitive against an independent sequential reference, for sizes
// 0, 1, 2, 31, 32, 33, 1023, 1024, 1025 and 10^6 + 7, random data, for each
// element type. Values are small integers so that float sums are exact.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>

#include "common.h"

using namespace arrc;
using arrc_test::ctx;

namespace {

const std::vector<int64_t> kSizes = {0, 1, 2, 31, 32, 33, 1023, 1024, 1025, 1000007};

template <class T>
std::vector<T> small_values(int64_t n, uint32_t seed, int lo = -8, int hi = 8) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<T>(d(rng));
  return v;
}

template <class T>
std::vector<T> wide_values(int64_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      std::uniform_real_distribution<double> d(-1e6, 1e6);
      x = static_cast<T>(d(rng));
    } else {
      uint64_t r = rng();
      std::memcpy(&x, &r, sizeof(T));
    }
  }
  return v;
}

template <class T>
const char* tname() {
  if constexpr (std::is_same_v<T, int32_t>) return "int32";
  if constexpr (std::is_same_v<T, int64_t>) return "int64";
  if constexpr (std::is_same_v<T, float>) return "float";
  return "double";
}

// "last non-zero": associative, not commutative (checks ordering).
Operator last_nonzero() { return Operator::custom("b != (T)0 ? b : a", "(T)0", false); }
template <class T>
T last_nonzero_ref(T a, T b) {
  return b != T(0) ? b : a;
}

template <class T>
void test_reduce(int64_t n, uint32_t seed) {
  Context& c = ctx();
  auto h = small_values<T>(n, seed);
  auto A = Array<T, 1>::from(c, h);
  T sum = 0, mn = std::numeric_limits<T>::max(), mx = std::numeric_limits<T>::lowest(), ln = 0;
  if constexpr (std::is_floating_point_v<T>) {
    mn = INFINITY;
    mx = -INFINITY;
  }
  for (T x : h) {
    sum += x;
    mn = std::min(mn, x);
    mx = std::max(mx, x);
    ln = last_nonzero_ref(ln, x);
  }
  ElemType et = ElemType::of<T>();
  CHECK(reduce(c, A, Operator::add()) == sum);
  CHECK(reduce(c, A, Operator::min(et)) == mn);
  CHECK(reduce(c, A, Operator::max(et)) == mx);
  CHECK(reduce(c, A, last_nonzero()) == ln);
  if constexpr (std::is_floating_point_v<T>) {
    // min / max skip NaN (fmin / fmax), negatives and infinities in order
    // (CPUs: over integer keys, kReduceCpu)
    std::vector<T> g(static_cast<size_t>(n));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1e30, 1e30);
    const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
    T gmn = inf, gmx = -inf;
    for (int64_t i = 0; i < n; ++i) {
      T x = static_cast<T>(u(rng));
      if (i % 7 == 3) x = i % 2 ? nan : -nan;
      if (i % 97 == 5) x = -x * static_cast<T>(1e-30);
      g[static_cast<size_t>(i)] = x;
      gmn = std::fmin(gmn, x);
      gmx = std::fmax(gmx, x);
    }
    // as generated code makes them (OpenCL's min / max leave NaN undefined)
    const std::string big = "((" + et.name + ")INFINITY)";
    const Operator fmn = Operator::make("fmin(a, b)", big, Operator::Min);
    const Operator fmx = Operator::make("fmax(a, b)", "(-" + big + ")", Operator::Max);
    auto G = Array<T, 1>::from(c, g);
    CHECK(reduce(c, G, fmn) == gmn);
    CHECK(reduce(c, G, fmx) == gmx);
    auto N = Array<T, 1>::from(c, std::vector<T>(static_cast<size_t>(n), nan));
    CHECK(reduce(c, N, fmx) == -inf);  // every element NaN: the neutral element
    CHECK(reduce(c, N, fmn) == inf);
  }
}

template <class T>
void test_scan(int64_t n, uint32_t seed) {
  Context& c = ctx();
  auto h = small_values<T>(n, seed);
  auto A = Array<T, 1>::from(c, h);
  std::vector<T> inc(h.size()), exc(h.size()), lin(h.size());
  T acc = 0, la = 0;
  for (size_t i = 0; i < h.size(); ++i) {
    exc[i] = acc;
    acc += h[i];
    inc[i] = acc;
    la = last_nonzero_ref(la, h[i]);
    lin[i] = la;
  }
  CHECK(scan(c, A, Operator::add(), true).to_vector() == inc);
  CHECK(scan(c, A, Operator::add(), false).to_vector() == exc);
  CHECK(scan(c, A, last_nonzero(), true).to_vector() == lin);
}

template <class T>
void test_compact(int64_t n, uint32_t seed) {
  Context& c = ctx();
  auto h = small_values<T>(n, seed);
  auto A = Array<T, 1>::from(c, h);
  std::vector<T> ref;
  for (T x : h)
    if (x > 0) ref.push_back(x);
  auto F = filter(c, A, "v > (T)0");
  CHECK(F.size() == static_cast<int64_t>(ref.size()));
  CHECK(F.to_vector() == ref);
}

template <class T>
void test_scatter_gather(int64_t n, uint32_t seed) {
  Context& c = ctx();
  auto h = small_values<T>(n, seed);
  std::mt19937 rng(seed + 1);
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  // scatter: dest has n/2 + 1 elements; indices shifted so some are out of range
  int64_t m = n / 2 + 1;
  std::vector<int64_t> is(perm.size());
  for (size_t k = 0; k < is.size(); ++k) is[k] = perm[k] - n / 4;
  std::vector<T> dref(static_cast<size_t>(m), T(-100));
  for (size_t k = 0; k < is.size(); ++k)
    if (is[k] >= 0 && is[k] < m) dref[is[k]] = h[k];
  auto D = Array<T, 1>::from(c, std::vector<T>(static_cast<size_t>(m), T(-100)));
  auto I = Array<int64_t, 1>::from(c, is);
  auto V = Array<T, 1>::from(c, h);
  scatter(c, D, I, V);
  CHECK(D.to_vector() == dref);
  // gather with random in-range indices (int32 indices)
  if (n > 0) {
    std::uniform_int_distribution<int32_t> d(0, static_cast<int32_t>(n - 1));
    std::vector<int32_t> gi(static_cast<size_t>(n));
    for (auto& x : gi) x = d(rng);
    std::vector<T> gref(gi.size());
    for (size_t k = 0; k < gi.size(); ++k) gref[k] = h[gi[k]];
    auto G = gather(c, V, Array<int32_t, 1>::from(c, gi), 0);
    c.check_errors();
    CHECK(G.to_vector() == gref);
  }
}

template <class T>
void test_sort(int64_t n, uint32_t seed) {
  Context& c = ctx();
  auto h = wide_values<T>(n, seed);
  auto K = Array<T, 1>::from(c, h);
  sort(c, K);
  auto ref = h;
  std::sort(ref.begin(), ref.end());
  CHECK(K.to_vector() == ref);
  // key-value, stability: few distinct keys, values = original index
  auto hk = small_values<T>(n, seed + 7, -50, 50);
  std::vector<int32_t> vals(hk.size());
  std::iota(vals.begin(), vals.end(), 0);
  std::vector<int32_t> order = vals;
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return hk[a] < hk[b]; });
  std::vector<T> kref(hk.size());
  for (size_t i = 0; i < hk.size(); ++i) kref[i] = hk[order[i]];
  auto K2 = Array<T, 1>::from(c, hk);
  auto V2 = Array<int32_t, 1>::from(c, vals);
  sort_by_key(c, K2, V2);
  CHECK(K2.to_vector() == kref);
  CHECK(V2.to_vector() == order);
}

template <class T>
void test_segmented(int64_t n, uint32_t seed) {
  Context& c = ctx();
  auto h = small_values<T>(n, seed);
  std::mt19937 rng(seed + 3);
  std::bernoulli_distribution coin(0.1);
  std::vector<uint8_t> fl(h.size());
  for (auto& f : fl) f = coin(rng) ? 1 : 0;
  std::vector<T> inc(h.size()), exc(h.size()), red;
  T acc = 0;
  for (size_t i = 0; i < h.size(); ++i) {
    if (i == 0 || fl[i]) {
      if (i > 0) red.push_back(acc);
      acc = 0;
    }
    exc[i] = acc;
    acc += h[i];
    inc[i] = acc;
  }
  if (!h.empty()) red.push_back(acc);
  auto A = Array<T, 1>::from(c, h);
  auto F = Array<uint8_t, 1>::from(c, fl);
  CHECK(segmented_scan(c, Operator::add(), F, A, true).to_vector() == inc);
  CHECK(segmented_scan(c, Operator::add(), F, A, false).to_vector() == exc);
  auto R = segmented_reduce(c, Operator::add(), F, A);
  CHECK(R.size() == static_cast<int64_t>(red.size()));
  CHECK(R.to_vector() == red);
  // and with max, whose neutral element is not 0
  std::vector<T> rmax;
  for (size_t i = 0; i < h.size(); ++i) {
    if (i == 0 || fl[i]) rmax.push_back(h[i]);
    else rmax.back() = std::max(rmax.back(), h[i]);
  }
  CHECK(segmented_reduce(c, Operator::max(ElemType::of<T>()), F, A).to_vector() == rmax);
  // offsets form, with empty segments
  std::uniform_int_distribution<int> len(0, 40);
  std::vector<int64_t> offs{0};
  while (offs.back() < n) offs.push_back(std::min<int64_t>(n, offs.back() + len(rng)));
  offs.push_back(n);  // a trailing empty segment
  int64_t nseg = static_cast<int64_t>(offs.size()) - 1;
  std::vector<T> oref(static_cast<size_t>(nseg));
  for (int64_t s = 0; s < nseg; ++s) {
    T a = 0;
    for (int64_t i = offs[s]; i < offs[s + 1]; ++i) a += h[i];
    oref[s] = a;
  }
  auto O = Array<int64_t, 1>::from(c, offs);
  auto OR = Array<T, 1>::alloc(c, {nseg});
  segmented_reduce_offsets(c, ElemType::of<T>(), Operator::add(), nseg, O.buffer(),
                           load_from(ElemType::of<T>(), A.buffer()), OR.buffer());
  CHECK(OR.to_vector() == oref);
  // segmented scans over the same offsets: inclusive +, exclusive max
  const T lowest = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                        : std::numeric_limits<T>::lowest();
  std::vector<T> oinc(h.size()), oexc(h.size());
  for (int64_t s = 0; s < nseg; ++s) {
    T a = 0, m = lowest;
    for (int64_t i = offs[s]; i < offs[s + 1]; ++i) {
      a += h[i];
      oinc[i] = a;
      oexc[i] = m;
      m = std::max(m, h[i]);
    }
  }
  auto SI = Array<T, 1>::alloc(c, {n});
  auto SE = Array<T, 1>::alloc(c, {n});
  segmented_scan_offsets(c, ElemType::of<T>(), Operator::add(), n, nseg, O.buffer(),
                         load_from(ElemType::of<T>(), A.buffer()), SI.buffer(), 0, true);
  segmented_scan_offsets(c, ElemType::of<T>(), Operator::max(ElemType::of<T>()), n, nseg,
                         O.buffer(), load_from(ElemType::of<T>(), A.buffer()), SE.buffer(), 0,
                         false);
  CHECK(SI.to_vector() == oinc);
  CHECK(SE.to_vector() == oexc);
}

template <class T>
void test_histogram(int64_t n, uint32_t seed) {
  Context& c = ctx();
  auto h = small_values<T>(n, seed);
  const int64_t nbins = 37;
  auto bins = small_values<int64_t>(n, seed + 5, -2, static_cast<int>(nbins) + 2);
  std::vector<T> ref(nbins, T(0));
  for (size_t i = 0; i < h.size(); ++i)
    if (bins[i] >= 0 && bins[i] < nbins) ref[bins[i]] += h[i];
  auto H = histogram(c, Operator::add(), nbins, Array<int64_t, 1>::from(c, bins),
                     Array<T, 1>::from(c, h));
  CHECK(H.to_vector() == ref);
}

template <class T>
void test_expand(int64_t n, uint32_t seed) {
  Context& c = ctx();
  auto h = small_values<T>(n, seed);
  std::vector<T> ref;
  for (T x : h) {
    int64_t s = std::llabs(static_cast<long long>(x)) % 4;
    for (int64_t k = 0; k < s; ++k) ref.push_back(x * T(10) + T(k));
  }
  auto A = Array<T, 1>::from(c, h);
  ElemType et = ElemType::of<T>();
  Fused in;
  in.source =
      "long arrc_size(long i ARRC_PARAMS) { long v = (long)xs[i]; return (v < 0 ? -v : v) % 4; }\n"
      "T arrc_get(long i, long k ARRC_PARAMS) { return xs[i] * (T)10 + (T)k; }\n";
  in.args = {KernelArg::buffer("__global const " + et.name + "*", "xs", A.buffer())};
  Expanded e = expand(c, et, n, in);
  REQUIRE(e.count == static_cast<int64_t>(ref.size()));
  std::vector<T> got(ref.size());
  if (!ref.empty()) c.read(e.data->mem(), 0, ref.size() * sizeof(T), got.data());
  CHECK(got == ref);
}

template <class T>
void run_all() {
  if constexpr (std::is_same_v<T, double>) {
    if (!ctx().supports_fp64()) {
      MESSAGE("device has no fp64: skipping double");
      return;
    }
  }
  uint32_t seed = 1234;
  for (int64_t n : kSizes) {
    const std::string type_name = tname<T>();
    INFO("type " << type_name << " n = " << n);
    ++seed;
    test_reduce<T>(n, seed);
    test_scan<T>(n, seed);
    test_compact<T>(n, seed);
    test_scatter_gather<T>(n, seed);
    test_sort<T>(n, seed);
    test_segmented<T>(n, seed);
    test_histogram<T>(n, seed);
    test_expand<T>(n, seed);
  }
}

}  // namespace

TEST_CASE("primitives int32") { run_all<int32_t>(); }
TEST_CASE("primitives int64") { run_all<int64_t>(); }
TEST_CASE("primitives float") { run_all<float>(); }
TEST_CASE("primitives double") { run_all<double>(); }

TEST_CASE("primitives int32: segmented reduce where segments meet chunk and tile edges") {
  // every element its own segment (each chunk starts with a segment), one
  // segment over all chunks, and segments of 4096 that straddle chunk edges
  // with a non-commutative operator
  Context& c = ctx();
  const int64_t n = 200003;
  auto h = small_values<int32_t>(n, 17);
  auto A = Array<int32_t, 1>::from(c, h);
  auto every = segmented_reduce(c, Operator::add(), Array<uint8_t, 1>::from(
                                    c, std::vector<uint8_t>(n, 1)), A);
  CHECK(every.to_vector() == h);
  auto one = segmented_reduce(c, Operator::add(), Array<uint8_t, 1>::from(
                                  c, std::vector<uint8_t>(n, 0)), A);
  CHECK(one.to_vector() == std::vector<int32_t>{std::accumulate(h.begin(), h.end(), 0)});
  // "first of the segment": associative, not commutative, neutral INT_MIN
  Operator first = Operator::custom("a == INT_MIN ? b : a", "INT_MIN");
  std::vector<uint8_t> fl(n, 0);
  for (int64_t i = 0; i < n; i += 4096) fl[i] = 1;
  std::vector<int32_t> firsts;
  for (int64_t i = 0; i < n; i += 4096) firsts.push_back(h[i]);
  CHECK(segmented_reduce(c, first, Array<uint8_t, 1>::from(c, fl), A).to_vector() == firsts);
}

// From 2^22 items NVIDIA GPUs take larger tiles (primitives.cpp,
// run_segscan): segments of 1-64 items and one of 10^5, a size no tile
// divides, the sum and "first of the segment" (not commutative).
template <class T>
void test_segmented_large() {
  Context& c = ctx();
  const int64_t n = (int64_t(1) << 22) + 5;
  auto h = small_values<T>(n, 23);
  std::mt19937 rng(29);
  std::uniform_int_distribution<int> len(1, 64);
  std::vector<uint8_t> fl(n, 0);
  for (int64_t i = 0; i < n; i += (i >= 2000000 && i < 2100000) ? 100000 : len(rng)) fl[i] = 1;
  std::vector<T> inc(n), sums, firsts;
  T acc = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (i == 0 || fl[i]) {
      if (i > 0) sums.push_back(acc);
      acc = 0;
      firsts.push_back(h[i]);
    }
    acc += h[i];
    inc[i] = acc;
  }
  sums.push_back(acc);
  auto A = Array<T, 1>::from(c, h);
  auto F = Array<uint8_t, 1>::from(c, fl);
  CHECK(segmented_scan(c, Operator::add(), F, A, true).to_vector() == inc);
  CHECK(segmented_reduce(c, Operator::add(), F, A).to_vector() == sums);
  const std::string ne = std::is_same_v<T, double> ? "-INFINITY" : "INT_MIN";
  Operator first = Operator::custom("a == " + ne + " ? b : a", ne);
  CHECK(segmented_reduce(c, first, F, A).to_vector() == firsts);
}

TEST_CASE("primitives int32: segmented scan and reduce of 2^22 + 5 items") {
  test_segmented_large<int32_t>();
}
TEST_CASE("primitives double: segmented scan and reduce of 2^22 + 5 items") {
  if (!ctx().supports_fp64()) return;
  test_segmented_large<double>();
}

TEST_CASE("primitives int32: segmented reduce with offsets, every segment-length shape") {
  // The NVIDIA schedule picks the lanes per segment from the mean length:
  // lengths around 1, 20, 300 and 5000, one huge segment among empty ones,
  // and all empty; "first of the segment" (not commutative) and +.
  Context& c = ctx();
  const int64_t n = 300007;
  auto h = small_values<int32_t>(n, 23);
  auto A = Array<int32_t, 1>::from(c, h);
  Operator first = Operator::custom("a == INT_MIN ? b : a", "INT_MIN");
  std::mt19937 rng(7);
  auto check = [&](const std::vector<int64_t>& offs) {
    int64_t nseg = static_cast<int64_t>(offs.size()) - 1;
    std::vector<int32_t> sums(static_cast<size_t>(nseg), 0), firsts(static_cast<size_t>(nseg), INT_MIN);
    for (int64_t s = 0; s < nseg; ++s)
      for (int64_t i = offs[s]; i < offs[s + 1]; ++i) {
        sums[s] += h[i];
        if (firsts[s] == INT_MIN) firsts[s] = h[i];
      }
    auto O = Array<int64_t, 1>::from(c, offs);
    auto R = Array<int32_t, 1>::alloc(c, {nseg});
    segmented_reduce_offsets(c, ElemType::of<int32_t>(), Operator::add(), nseg, O.buffer(),
                             load_from(ElemType::of<int32_t>(), A.buffer()), R.buffer());
    CHECK(R.to_vector() == sums);
    segmented_reduce_offsets(c, ElemType::of<int32_t>(), first, nseg, O.buffer(),
                             load_from(ElemType::of<int32_t>(), A.buffer()), R.buffer());
    CHECK(R.to_vector() == firsts);
  };
  for (int mean : {1, 20, 300, 5000}) {
    std::uniform_int_distribution<int> len(0, 2 * mean);
    std::vector<int64_t> offs{0};
    while (offs.back() < n) offs.push_back(std::min<int64_t>(n, offs.back() + len(rng)));
    check(offs);
  }
  std::vector<int64_t> huge(1001, 0);  // 500 empty, one of n, 499 empty
  for (size_t s = 501; s < huge.size(); ++s) huge[s] = n;
  check(huge);
  check(std::vector<int64_t>(65, 0));  // 64 empty segments
}

TEST_CASE("primitives int32: histogram with many bins, min operator (global atomics)") {
  Context& c = ctx();
  const int64_t n = 100003, nbins = 5000;
  auto h = small_values<int32_t>(n, 99, -1000, 1000);
  auto bins = small_values<int64_t>(n, 98, -10, static_cast<int>(nbins) + 10);
  std::vector<int32_t> ref(nbins, INT32_MAX);
  for (int64_t i = 0; i < n; ++i)
    if (bins[i] >= 0 && bins[i] < nbins) ref[bins[i]] = std::min(ref[bins[i]], h[i]);
  auto H = histogram(c, Operator::min(ElemType::of<int32_t>()), nbins,
                     Array<int64_t, 1>::from(c, bins), Array<int32_t, 1>::from(c, h));
  CHECK(H.to_vector() == ref);
}

TEST_CASE("fused producers: map fused into reduce, scan store hook, predicate, argmin struct") {
  Context& c = ctx();
  const int64_t n = 10007;
  auto h = small_values<float>(n, 7);
  auto X = Array<float, 1>::from(c, h);
  ElemType ft = ElemType::of<float>();
  // reduce(+, 0, map(x -> a*x*x, xs)) with an extra scalar argument
  {
    Fused in;
    in.source = "float arrc_load(long i ARRC_PARAMS) { float x = xs[i]; return a * x * x; }";
    in.args = {KernelArg::buffer("__global const float*", "xs", X.buffer()),
               KernelArg::scalar("float", "a", 2.0f)};
    auto out = c.alloc(sizeof(float) * 4);
    reduce(c, ft, Operator::add(), n, in, out->mem(), 2);
    float r = 0;
    c.read(out->mem(), 2 * sizeof(float), sizeof r, &r);
    float ref = 0;
    for (float x : h) ref += 2.0f * x * x;
    CHECK(r == ref);
  }
  // scan with a store hook: writes 2*prefix into a strided output
  {
    auto out = Array<float, 1>::zeros(c, {2 * n});
    Fused in = load_from(ft, X.buffer());
    in.source += "void arrc_store(long i, T v ARRC_PARAMS) { ys[2 * i + 1] = 2.0f * v; }";
    in.args.push_back(KernelArg::buffer("__global float*", "ys", out.buffer()));
    scan(c, ft, Operator::add(), n, in, nullptr, 0, true);
    auto got = out.to_vector();
    float acc = 0;
    bool ok = true;
    for (int64_t i = 0; i < n; ++i) {
      acc += h[i];
      ok = ok && got[2 * i + 1] == 2 * acc && got[2 * i] == 0;
    }
    CHECK(ok);
  }
  // filter(p, map(f, xs)) with a predicate on index and value, count on device
  {
    Fused in;
    in.source = "float arrc_load(long i ARRC_PARAMS) { return xs[i] + 1.0f; }\n"
                "int arrc_keep(long i, float v ARRC_PARAMS) { return v > 0.0f && (i % 3) != 0; }";
    in.args = {KernelArg::buffer("__global const float*", "xs", X.buffer())};
    auto out = Array<float, 1>::alloc(c, {n});
    auto cnt = c.alloc(8);
    int64_t k = compact(c, ft, n, in, out.buffer(), 0, cnt->mem());
    std::vector<float> ref;
    for (int64_t i = 0; i < n; ++i)
      if (h[i] + 1 > 0 && i % 3 != 0) ref.push_back(h[i] + 1);
    REQUIRE(k == static_cast<int64_t>(ref.size()));
    auto got = out.to_vector();
    got.resize(k);
    CHECK(got == ref);
    int64_t dc = 0;
    c.read(cnt->mem(), 0, 8, &dc);
    CHECK(dc == k);
  }
  // argmin over a strided view, element type = struct (value, index)
  {
    ElemType vi{"arrc_vi", 8, "typedef struct { float v; int i; } arrc_vi;\n"};
    Operator amin = Operator::custom(
        "(b.v < a.v || (b.v == a.v && b.i < a.i)) ? b : a", "((arrc_vi){INFINITY, -1})", true);
    auto view = X.slice(0, n - 1, 0, -2);  // reversed, every other element
    Fused in;
    in.source = "arrc_vi arrc_load(long i ARRC_PARAMS) { arrc_vi r; r.v = xs[off + i * st]; r.i = (int)i; return r; }";
    in.args = {KernelArg::buffer("__global const float*", "xs", view.buffer()),
               KernelArg::scalar("long", "off", view.offset()),
               KernelArg::scalar("long", "st", view.weight(0))};
    auto out = c.alloc(8);
    reduce(c, vi, amin, view.size(), in, out->mem(), 0);
    struct { float v; int32_t i; } r{};
    c.read(out->mem(), 0, 8, &r);
    auto hv = view.to_vector();
    auto it = std::min_element(hv.begin(), hv.end());
    CHECK(r.v == *it);
    CHECK(r.i == static_cast<int32_t>(it - hv.begin()));
  }
}
