// arrc_bench_runtime: effective bandwidth of the arrc runtime primitives,
// next to Boost.Compute on the same device and queue, CUB on the same GPU
// (when built with -DARRC_BENCH_CUB=ON: bench/cub_reference.cu), and the
// device-to-device copy bandwidth (clEnqueueCopyBuffer) measured in the same
// run.
//
//   arrc_bench_runtime [--sizes 1e6,1e7] [--reps 10] [--ops reduce,scan,...]
//                      [--no-cub] [--std-sort]
//
// Effective GB/s = (bytes the operation must read + write) / time, e.g.
// reduce n*s, scan 2*n*s, compaction n*s + kept*s, copy 2*n*s, sort (keys
// only) 2*n*s, sort_by_key 2*n*(sk+sv), gather/scatter n*(s + 4 + s).
// Sorts also report keys per second. Each result is checked against
// Boost.Compute, CUB or a host reference. Ops (all by default): reduce scan
// compact sort sort64 sort_by_key sort_by_key64 gather scatter segscan
// segreduce segreduce_offsets histogram histcount histcurve expand
// expand_skew; std::sort on the host (one thread) is timed beside the sorts
// on CPU devices (--std-sort: on GPUs too).
#include <arrc/runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#ifdef ARRC_HAVE_CUB
#include "cub_reference.h"
#endif

#ifdef ARRC_HAVE_BOOST_COMPUTE
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wignored-attributes"
#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/algorithm/copy_if.hpp>
#include <boost/compute/algorithm/gather.hpp>
#include <boost/compute/algorithm/inclusive_scan.hpp>
#include <boost/compute/algorithm/reduce.hpp>
#include <boost/compute/algorithm/reduce_by_key.hpp>
#include <boost/compute/algorithm/scatter.hpp>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/algorithm/sort_by_key.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/lambda.hpp>
#pragma GCC diagnostic pop
namespace bc = boost::compute;
#endif

using namespace arrc;
using clk = std::chrono::steady_clock;

namespace {

struct Opts {
  std::vector<int64_t> sizes;
  int reps = 0;
  std::vector<std::string> ops;
  bool sync_probe = false, overhead = true, cub = true, std_sort = false;
  bool want(const std::string& o) const {
    return ops.empty() || std::find(ops.begin(), ops.end(), o) != ops.end();
  }
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> r;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ',')) r.push_back(x);
  return r;
}

// median time in ms of `reps` runs of f (setup() before each, untimed)
double time_ms(Context& ctx, int reps, const std::function<void()>& f,
               const std::function<void()>& setup = {}) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    if (setup) setup();
    ctx.finish();
    auto t0 = clk::now();
    f();
    ctx.finish();
    t.push_back(std::chrono::duration<double, std::milli>(clk::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct Row {
  std::string op, type;
  int64_t n;
  double arrc_ms, arrc_gbs, boost_gbs, cub_gbs, copy_gbs;
  bool ok;
  double keys = 0;  // sorts: keys per row (Gkeys/s column)
};
std::vector<Row> rows;

void print_header() {
  std::printf("\n| op             |          n | type   |   arrc ms | arrc GB/s | boost GB/s | cub GB/s | copy GB/s | arrc/copy | arrc/boost | arrc/cub | Gkeys/s | check |\n");
  std::printf("|----------------|-----------:|--------|----------:|---------:|---------:|---------:|---------:|-------:|-------:|-------:|-------:|----|\n");
}

void print_row(const Row& r) {
  char b[32] = "     n/a", rb[32] = "   n/a", c[32] = "     n/a", rc[32] = "   n/a", k[32] = "";
  if (r.boost_gbs > 0) {
    std::snprintf(b, sizeof b, "%8.1f", r.boost_gbs);
    std::snprintf(rb, sizeof rb, "%6.2f", r.arrc_gbs / r.boost_gbs);
  }
  if (r.cub_gbs > 0) {
    std::snprintf(c, sizeof c, "%8.1f", r.cub_gbs);
    std::snprintf(rc, sizeof rc, "%6.2f", r.arrc_gbs / r.cub_gbs);
  }
  if (r.keys > 0) std::snprintf(k, sizeof k, "%7.2f", r.keys / (r.arrc_ms * 1e6));
  std::printf("| %-14s | %10lld | %-6s | %9.3f | %8.1f | %8s | %8s | %8.1f | %6.2f | %6s | %6s | %7s | %s |\n",
              r.op.c_str(), static_cast<long long>(r.n), r.type.c_str(), r.arrc_ms, r.arrc_gbs, b, c,
              r.copy_gbs, r.arrc_gbs / r.copy_gbs, rb, rc, k, r.ok ? "ok" : "MISMATCH");
  std::fflush(stdout);
}

// One row: arrc's time, the bytes the operation must move, Boost.Compute's
// and CUB's times (0: none), the copy bandwidth of this size, the check;
// keys > 0 adds keys per second (sorts).
void add(const std::string& op, const std::string& type, int64_t n, double ms, double bytes,
         double boost_ms, double copy_gbs, bool ok, double cub_ms = 0, double keys = 0) {
  Row r{op, type, n, ms, bytes / (ms * 1e6), boost_ms > 0 ? bytes / (boost_ms * 1e6) : 0,
        cub_ms > 0 ? bytes / (cub_ms * 1e6) : 0, copy_gbs, ok, keys};
  rows.push_back(r);
  print_row(r);
}

#ifdef ARRC_HAVE_CUB
bool cub_on = false;
// Runs a CUB reference; a CUDA error turns CUB off for the rest of the run.
template <class F>
double cub_ms(F f) {
  if (!cub_on) return 0;
  try {
    return f();
  } catch (const std::exception& e) {
    std::printf("CUB reference failed (%s): no CUB columns from here on\n", e.what());
    cub_on = false;
    return 0;
  }
}
template <class T>
arrc_cub::Type cub_type() {
  if constexpr (std::is_same_v<T, int32_t>) return arrc_cub::Type::I32;
  if constexpr (std::is_same_v<T, float>) return arrc_cub::Type::F32;
  if constexpr (std::is_same_v<T, int64_t>) return arrc_cub::Type::I64;
  return arrc_cub::Type::F64;
}
#endif

// A host reference for sorts on CPU devices: std::sort on one thread.
template <class T>
double std_sort_ms(const std::vector<T>& unsorted, int reps) {
  std::vector<double> t;
  for (int r = 0; r < std::max(1, std::min(reps, 3)); ++r) {
    std::vector<T> v = unsorted;
    auto t0 = clk::now();
    std::sort(v.begin(), v.end());
    t.push_back(std::chrono::duration<double, std::milli>(clk::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class T>
const char* tn() {
  if constexpr (std::is_same_v<T, int32_t>) return "int";
  if constexpr (std::is_same_v<T, int64_t>) return "long";
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, uint32_t>) return "uint";
  if constexpr (std::is_same_v<T, uint64_t>) return "ulong";
  return "double";
}

template <class T>
std::vector<T> random_data(int64_t n, int lo, int hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<T>(d(rng));
  return v;
}

double copy_bandwidth(Context& ctx, int64_t bytes, int reps) {
  auto a = ctx.alloc(bytes), b = ctx.alloc(bytes);
  ctx.fill_zero(a->mem(), 0, bytes);
  ctx.copy(a->mem(), 0, b->mem(), 0, bytes);
  double ms = time_ms(ctx, reps, [&] { ctx.copy(a->mem(), 0, b->mem(), 0, bytes); });
  return 2.0 * bytes / (ms * 1e6);
}

#ifdef ARRC_HAVE_BOOST_COMPUTE
struct BC {
  bc::device dev;
  bc::context ctx;
  bc::command_queue q;
  explicit BC(Context& c) : dev(c.device(), true), ctx(c.context(), true), q(c.queue(), true) {}
};
#endif

#ifndef ARRC_HAVE_BOOST_COMPUTE
struct BC {
  explicit BC(Context&) {}
};
#endif

// A sorted result is checked in O(n) (std::sort of 10^8 keys took seconds
// per row): ascending, and the same multiset as the input (the sum of a
// 64-bit mix of each key's bits).
template <class K>
uint64_t multiset_hash(const std::vector<K>& v) {
  uint64_t h = 0;
  for (const K& x : v) {
    uint64_t z = 0;
    std::memcpy(&z, &x, sizeof(K));
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    h += z ^ (z >> 31);
  }
  return h;
}

// Keys for the sorts: uniform over [-1e9, 1e9] (32-bit), over every bit
// pattern (64-bit integers).
template <class K>
std::vector<K> sort_keys(int64_t n, uint32_t seed) {
  if constexpr (sizeof(K) == 8 && std::is_integral_v<K>) {
    std::mt19937_64 rng(seed);
    std::vector<K> v(static_cast<size_t>(n));
    for (auto& x : v) x = static_cast<K>(rng());
    return v;
  } else {
    return random_data<K>(n, -1000000000, 1000000000, seed);
  }
}

// sort (keys only) of K: arrc, Boost.Compute, CUB, std::sort (CPU devices).
template <class K>
void bench_sort(Context& ctx, const Opts& o, const std::string& op, int64_t n, double copy_gbs,
                BC& B) {
  const double s = sizeof(K);
  const int reps = o.reps;
  auto hw = sort_keys<K>(n, 7);
  auto src = Array<K, 1>::from(ctx, hw);
  auto K_ = Array<K, 1>::alloc(ctx, {n});
  K_.assign(src);
  sort(ctx, K_);  // warm-up: programs built
  double ms = time_ms(ctx, reps, [&] { sort(ctx, K_); }, [&] { K_.assign(src); });
  auto got = K_.to_vector();
  bool ok = std::is_sorted(got.begin(), got.end()) && multiset_hash(got) == multiset_hash(hw);
  double bms = 0, cms = 0;
  (void)B;
#ifdef ARRC_HAVE_BOOST_COMPUTE
  if (sizeof(K) == 4) {
    bc::vector<K> bsrc(n, B.ctx), bout(n, B.ctx);
    bc::copy(hw.begin(), hw.end(), bsrc.begin(), B.q);
    int breps = std::max(1, std::min(reps, 3));
    bms = time_ms(ctx, breps, [&] { bc::sort(bout.begin(), bout.end(), B.q); },
                  [&] { bc::copy(bsrc.begin(), bsrc.end(), bout.begin(), B.q); });
  }
#endif
#ifdef ARRC_HAVE_CUB
  std::vector<K> cout_(static_cast<size_t>(n));
  cms = cub_ms([&] { return arrc_cub::sort_keys(cub_type<K>(), hw.data(), n, reps, cout_.data()); });
  if (cms > 0) ok = ok && cout_ == got;
#endif
  add(op, tn<K>(), n, ms, 2 * n * s, bms, copy_gbs, ok, cms, static_cast<double>(n));
  if (!ctx.is_gpu() || o.std_sort)
    add("std::sort 1thr", tn<K>(), n, std_sort_ms(hw, reps), 2 * n * s, 0, copy_gbs, true, 0,
        static_cast<double>(n));
}

// sort_by_key of K keys with int values (the index): arrc, Boost.Compute, CUB.
template <class K>
void bench_sort_by_key(Context& ctx, const Opts& o, const std::string& op, int64_t n,
                       double copy_gbs, BC& B) {
  const double s = sizeof(K);
  const int reps = o.reps;
  auto hk = sort_keys<K>(n, 9);
  std::vector<int32_t> hv(n);
  std::iota(hv.begin(), hv.end(), 0);
  auto ks = Array<K, 1>::from(ctx, hk);
  auto vs = Array<int32_t, 1>::from(ctx, hv);
  auto K_ = Array<K, 1>::alloc(ctx, {n});
  auto V = Array<int32_t, 1>::alloc(ctx, {n});
  K_.assign(ks);
  V.assign(vs);
  sort_by_key(ctx, K_, V);  // warm-up: programs built
  double ms = time_ms(ctx, reps, [&] { sort_by_key(ctx, K_, V); },
                      [&] { K_.assign(ks); V.assign(vs); });
  auto gk = K_.to_vector();
  auto gv = V.to_vector();
  // sorted, each value the index of its key, stable, a permutation
  bool ok = std::is_sorted(gk.begin(), gk.end());
  std::vector<uint8_t> seen(static_cast<size_t>(n), 0);
  for (int64_t i = 0; i < n && ok; ++i) {
    ok = gv[i] >= 0 && gv[i] < n && !seen[gv[i]] && hk[gv[i]] == gk[i] &&
         (i == 0 || gk[i - 1] != gk[i] || gv[i - 1] < gv[i]);
    if (ok) seen[gv[i]] = 1;
  }
  double bms = 0, cms = 0;
  (void)B;
#ifdef ARRC_HAVE_BOOST_COMPUTE
  if (sizeof(K) == 4) {
    bc::vector<K> bks(n, B.ctx), bk(n, B.ctx);
    bc::vector<int32_t> bvs(n, B.ctx), bv(n, B.ctx);
    bc::copy(hk.begin(), hk.end(), bks.begin(), B.q);
    bc::copy(hv.begin(), hv.end(), bvs.begin(), B.q);
    int breps = std::max(1, std::min(reps, 3));
    bms = time_ms(ctx, breps, [&] { bc::sort_by_key(bk.begin(), bk.end(), bv.begin(), B.q); },
                  [&] {
                    bc::copy(bks.begin(), bks.end(), bk.begin(), B.q);
                    bc::copy(bvs.begin(), bvs.end(), bv.begin(), B.q);
                  });
  }
#endif
#ifdef ARRC_HAVE_CUB
  std::vector<K> ck(static_cast<size_t>(n));
  std::vector<int32_t> cv(static_cast<size_t>(n));
  cms = cub_ms([&] {
    return arrc_cub::sort_pairs(cub_type<K>(), hk.data(), hv.data(), n, reps, ck.data(), cv.data());
  });
  if (cms > 0) ok = ok && ck == gk && cv == gv;
#endif
  add(op, tn<K>(), n, ms, 2.0 * n * (s + 4), bms, copy_gbs, ok, cms, static_cast<double>(n));
}

// Sizes of the skewed expansions (mean about 3.5 where possible).
std::vector<int32_t> expand_sizes(const std::string& dist, int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int32_t> v(static_cast<size_t>(n), 0);
  if (dist == "one-huge") {
    v[n / 2] = static_cast<int32_t>(std::min<int64_t>(INT32_MAX, 3 * n + 1));  // everything in one
  } else if (dist == "sparse") {  // 95% empty, the others 0..140
    std::uniform_int_distribution<int> big(0, 140);
    std::bernoulli_distribution some(0.05);
    for (auto& x : v) x = some(rng) ? big(rng) : 0;
  } else {  // power law: P(size >= s) ~ s^-1.5, capped at 10^6
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (auto& x : v) {
      double r = std::pow(1.0 - u(rng), -1.0 / 1.5) - 1.0;
      x = static_cast<int32_t>(std::min(r * 1.2, 1e6));
    }
  }
  return v;
}

template <class T>
void bench_type(Context& ctx, const Opts& o, int64_t n, double copy_gbs, BC& B) {
  const double s = sizeof(T);
  const int reps = o.reps;
  auto h = random_data<T>(n, -100, 100, 42);
  auto X = Array<T, 1>::from(ctx, h);
  double cms = 0;
  (void)cms;
#ifdef ARRC_HAVE_BOOST_COMPUTE
  bc::vector<T> bx(n, B.ctx), bout(n, B.ctx), bres(1, B.ctx);
  bc::copy(h.begin(), h.end(), bx.begin(), B.q);
  B.q.finish();
#endif
  if (o.want("reduce")) {
    auto out = ctx.alloc(sizeof(T));
    Fused in = load_from(ElemType::of<T>(), X.buffer());
    auto run = [&] { reduce(ctx, ElemType::of<T>(), Operator::add(), n, in, out->mem(), 0); };
    run();
    double ms = time_ms(ctx, reps, run);
    T got{};
    ctx.read(out->mem(), 0, sizeof(T), &got);
    double bms = 0;
    double ref = 0;
    for (T x : h) ref += x;
    auto close = [&](double v) { return std::fabs(v - ref) <= 1e-3 * (1 + std::fabs(ref)); };
    bool ok = close(static_cast<double>(got));
#ifdef ARRC_HAVE_BOOST_COMPUTE
    auto brun = [&] { bc::reduce(bx.begin(), bx.end(), bres.begin(), bc::plus<T>(), B.q); };
    brun();
    bms = time_ms(ctx, reps, brun);
    T bref{};
    bc::copy(bres.begin(), bres.end(), &bref, B.q);
    ok = ok && close(static_cast<double>(bref));
#endif
#ifdef ARRC_HAVE_CUB
    T cref{};
    cms = cub_ms([&] { return arrc_cub::reduce_sum(cub_type<T>(), h.data(), n, reps, &cref); });
    if (cms > 0) ok = ok && close(static_cast<double>(cref));
#endif
    add("reduce", tn<T>(), n, ms, n * s, bms, copy_gbs, ok, cms);
  }
  if (o.want("scan")) {
    auto Y = Array<T, 1>::alloc(ctx, {n});
    Fused in = load_from(ElemType::of<T>(), X.buffer());
    auto run = [&] { scan(ctx, ElemType::of<T>(), Operator::add(), n, in, Y.buffer(), 0, true); };
    run();
    double ms = time_ms(ctx, reps, run);
    auto got = Y.to_vector();
    double bms = 0;
    bool ok = true;
#ifdef ARRC_HAVE_BOOST_COMPUTE
    auto brun = [&] { bc::inclusive_scan(bx.begin(), bx.end(), bout.begin(), B.q); };
    brun();
    bms = time_ms(ctx, reps, brun);
#endif
    auto check = [&](const std::vector<T>& v) {
      bool good = true;
      if constexpr (std::is_integral_v<T>) {
        T acc = 0;
        for (int64_t i = 0; i < n && good; ++i) good = v[i] == (acc += h[i]);
      } else {
        double acc = 0;
        for (int64_t i = 0; i < n && good; ++i) {
          acc += h[i];
          good = std::fabs(v[i] - acc) <= 1e-3 * (1 + std::fabs(acc)) + 1e-6 * i;
        }
      }
      return good;
    };
    ok = check(got);
#ifdef ARRC_HAVE_CUB
    std::vector<T> cv(static_cast<size_t>(n));
    cms = cub_ms([&] { return arrc_cub::scan_sum(cub_type<T>(), h.data(), n, reps, cv.data()); });
    if (cms > 0) ok = ok && check(cv);
#endif
    add("scan", tn<T>(), n, ms, 2 * n * s, bms, copy_gbs, ok, cms);
  }
  if (o.want("compact")) {
    auto Y = Array<T, 1>::alloc(ctx, {n});
    Fused in = load_from(ElemType::of<T>(), X.buffer());
    in.source += "int arrc_keep(long i, T v ARRC_PARAMS) { return v > (T)0; }\n";
    int64_t cnt = 0;
    auto run = [&] { cnt = compact(ctx, ElemType::of<T>(), n, in, Y.buffer(), 0); };
    run();
    double ms = time_ms(ctx, reps, run);
    std::vector<T> ref;
    for (T x : h)
      if (x > 0) ref.push_back(x);
    auto got = Y.to_vector();
    got.resize(cnt);
    bool ok = got == ref;
    double bms = 0;
#ifdef ARRC_HAVE_BOOST_COMPUTE
    using bc::lambda::_1;
    auto brun = [&] { bc::copy_if(bx.begin(), bx.end(), bout.begin(), _1 > 0, B.q); };
    brun();
    bms = time_ms(ctx, reps, brun);
#endif
#ifdef ARRC_HAVE_CUB
    std::vector<T> cv(static_cast<size_t>(n));
    int64_t ccount = 0;
    cms = cub_ms(
        [&] { return arrc_cub::select_positive(cub_type<T>(), h.data(), n, reps, cv.data(), &ccount); });
    cv.resize(static_cast<size_t>(ccount));
    if (cms > 0) ok = ok && cv == ref;
#endif
    add("compact", tn<T>(), n, ms, (n + cnt) * s, bms, copy_gbs, ok, cms);
  }
  if (o.want("sort")) bench_sort<T>(ctx, o, "sort", n, copy_gbs, B);
  if constexpr (std::is_same_v<T, int32_t>) {
    if (o.want("sort64")) bench_sort<int64_t>(ctx, o, "sort", n, copy_gbs, B);
    if (o.want("sort_by_key")) bench_sort_by_key<int32_t>(ctx, o, "sort_by_key", n, copy_gbs, B);
    if (o.want("sort_by_key64")) bench_sort_by_key<int64_t>(ctx, o, "sort_by_key", n, copy_gbs, B);
    std::mt19937 rng(5);
    std::vector<int32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    auto P = Array<int32_t, 1>::from(ctx, perm);
  #ifdef ARRC_HAVE_BOOST_COMPUTE
    bc::vector<int32_t> bp(n, B.ctx);
    bc::copy(perm.begin(), perm.end(), bp.begin(), B.q);
  #endif
    if (o.want("gather")) {
      Array<T, 1> G;
      auto run = [&] { G = gather(ctx, X, P, 0); };
      run();
      double ms = time_ms(ctx, reps, run);
      ctx.check_errors();
      auto got = G.to_vector();
      bool ok = true;
      for (int64_t i = 0; i < n && ok; i += 101) ok = got[i] == h[perm[i]];
      double bms = 0;
  #ifdef ARRC_HAVE_BOOST_COMPUTE
      auto brun = [&] { bc::gather(bp.begin(), bp.end(), bx.begin(), bout.begin(), B.q); };
      brun();
      bms = time_ms(ctx, reps, brun);
  #endif
      add("gather", tn<T>(), n, ms, n * (2 * s + 4), bms, copy_gbs, ok);
    }
    if (o.want("scatter")) {
      auto D = Array<T, 1>::alloc(ctx, {n});
      auto run = [&] { scatter(ctx, D, P, X); };
      run();
      double ms = time_ms(ctx, reps, run);
      auto got = D.to_vector();
      bool ok = true;
      for (int64_t i = 0; i < n && ok; i += 101) ok = got[perm[i]] == h[i];
      double bms = 0;
  #ifdef ARRC_HAVE_BOOST_COMPUTE
      auto brun = [&] { bc::scatter(bx.begin(), bx.end(), bp.begin(), bout.begin(), B.q); };
      brun();
      bms = time_ms(ctx, reps, brun);
  #endif
      add("scatter", tn<T>(), n, ms, n * (2 * s + 4), bms, copy_gbs, ok);
    }
    // segments of random length 1..64: flags, segment ids, offsets
    std::vector<uint8_t> flags(n, 0);
    std::vector<int32_t> segid(n);
    std::vector<int64_t> offs;
    {
      std::uniform_int_distribution<int> len(1, 64);
      int64_t i = 0;
      int32_t sid = -1;
      while (i < n) {
        int64_t e = std::min<int64_t>(n, i + len(rng));
        flags[i] = 1;
        offs.push_back(i);
        ++sid;
        for (int64_t j = i; j < e; ++j) segid[j] = sid;
        i = e;
      }
      offs.push_back(n);
    }
    const int64_t nseg = static_cast<int64_t>(offs.size()) - 1;
    std::vector<T> segsum(static_cast<size_t>(nseg), T(0));
    for (int64_t i = 0; i < n; ++i) segsum[segid[i]] += h[i];
    auto F = Array<uint8_t, 1>::from(ctx, flags);
    if (o.want("segscan")) {
      Array<T, 1> R;
      auto run = [&] { R = segmented_scan(ctx, Operator::add(), F, X, true); };
      run();
      double ms = time_ms(ctx, reps, run);
      auto got = R.to_vector();
      auto check = [&](const std::vector<T>& v) {
        bool good = true;
        T acc = 0;
        for (int64_t i = 0; i < n && good; ++i) {
          acc = flags[i] ? h[i] : acc + h[i];
          good = v[i] == acc;
        }
        return good;
      };
      bool ok = check(got);
  #ifdef ARRC_HAVE_CUB
      std::vector<T> cv(static_cast<size_t>(n));
      cms = cub_ms(
          [&] { return arrc_cub::scan_by_key(cub_type<T>(), segid.data(), h.data(), n, reps, cv.data()); });
      if (cms > 0) ok = ok && check(cv);
  #endif
      add("segscan", tn<T>(), n, ms, n * (2 * s + 1), 0, copy_gbs, ok, cms);
    }
    if (o.want("segreduce")) {
      Array<T, 1> R;
      auto run = [&] { R = segmented_reduce(ctx, Operator::add(), F, X); };
      run();
      double ms = time_ms(ctx, reps, run);
      auto got = R.to_vector();
      bool ok = got == segsum;
      double bms = 0;
  #ifdef ARRC_HAVE_BOOST_COMPUTE
      bc::vector<int32_t> bseg(n, B.ctx), bkeys(n, B.ctx);
      bc::copy(segid.begin(), segid.end(), bseg.begin(), B.q);
      auto brun = [&] {
        bc::reduce_by_key(bseg.begin(), bseg.end(), bx.begin(), bkeys.begin(), bout.begin(), B.q);
      };
      brun();
      bms = time_ms(ctx, reps, brun);
  #endif
  #ifdef ARRC_HAVE_CUB
      std::vector<T> cv(static_cast<size_t>(n));
      int64_t runs = 0;
      cms = cub_ms([&] {
        return arrc_cub::reduce_by_key(cub_type<T>(), segid.data(), h.data(), n, reps, cv.data(), &runs);
      });
      cv.resize(static_cast<size_t>(runs));
      if (cms > 0) ok = ok && cv == segsum;
  #endif
      add("segreduce", tn<T>(), n, ms, n * (s + 1), bms, copy_gbs, ok, cms);
    }
    if (o.want("segreduce_offsets")) {
      auto O = Array<int64_t, 1>::from(ctx, offs);
      auto R = Array<T, 1>::alloc(ctx, {nseg});
      Fused in = load_from(ElemType::of<T>(), X.buffer());
      auto run = [&] {
        segmented_reduce_offsets(ctx, ElemType::of<T>(), Operator::add(), nseg, O.buffer(), in,
                                 R.buffer(), 0);
      };
      run();
      double ms = time_ms(ctx, reps, run);
      bool ok = R.to_vector() == segsum;
  #ifdef ARRC_HAVE_CUB
      std::vector<T> cv(static_cast<size_t>(nseg));
      cms = cub_ms([&] {
        return arrc_cub::segmented_reduce(cub_type<T>(), offs.data(), nseg, h.data(), n, reps, cv.data());
      });
      if (cms > 0) ok = ok && cv == segsum;
  #endif
      add("segred_offs", tn<T>(), n, ms, n * s + nseg * (8.0 + s), 0, copy_gbs, ok, cms);
    }
    if (o.want("histogram")) {
      auto bins = random_data<int32_t>(n, 0, 255, 11);
      auto Bn = Array<int32_t, 1>::from(ctx, bins);
      Array<T, 1> Hh;
      auto run = [&] { Hh = histogram(ctx, Operator::add(), 256, Bn, X); };
      run();
      double ms = time_ms(ctx, reps, run);
      std::vector<T> ref(256, 0);
      for (int64_t i = 0; i < n; ++i) ref[bins[i]] += h[i];
      add("histogram", tn<T>(), n, ms, n * (s + 4), 0, copy_gbs, Hh.to_vector() == ref);
    }
    if (o.want("histcount")) {
      // counts per bin (int), bins read from an int array: CUB's HistogramEven
      auto bins = random_data<int32_t>(n, 0, 255, 13);
      auto Bn = Array<int32_t, 1>::from(ctx, bins);
      Fused in = detail::load_array(Bn, "arrc_bin", "arrc_idx");
      in.source += "int arrc_load(long i ARRC_PARAMS) { return 1; }\n";
      auto out = Array<int32_t, 1>::alloc(ctx, {256});
      auto run = [&] {
        histogram(ctx, ElemType::of<int32_t>(), Operator::add(), 256, n, in, out.buffer(), 0);
      };
      run();
      double ms = time_ms(ctx, reps, run);
      std::vector<int32_t> ref(256, 0);
      for (int32_t b : bins) ref[b]++;
      bool ok = out.to_vector() == ref;
  #ifdef ARRC_HAVE_CUB
      std::vector<int32_t> cv(256);
      cms = cub_ms([&] { return arrc_cub::histogram_even(bins.data(), n, 256, reps, cv.data()); });
      if (cms > 0) ok = ok && cv == ref;
  #endif
      add("histcount", "int", n, ms, n * 4.0, 0, copy_gbs, ok, cms);
    }
    if (o.want("histcurve")) {
      // the number of bins from 16 to 10^6: the schedule histogram() picks
      // (auto), and sort-based grouping (the exact ordered path, taken here by
      // declaring + not commutative)
      Operator sorted_add = Operator::custom("a + b", "(T)0", false);
      for (int64_t nb : {16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576}) {
        auto bins = random_data<int32_t>(n, 0, static_cast<int>(nb - 1), 17);
        auto Bn = Array<int32_t, 1>::from(ctx, bins);
        std::vector<T> ref(static_cast<size_t>(nb), 0);
        for (int64_t i = 0; i < n; ++i) ref[bins[i]] += h[i];
        for (int mode = 0; mode < 2; ++mode) {
          Array<T, 1> Hh;
          const Operator& op = mode == 0 ? Operator::add() : sorted_add;
          Operator keep = op;
          auto run = [&] { Hh = histogram(ctx, keep, nb, Bn, X); };
          run();
          double ms = time_ms(ctx, std::max(1, std::min(reps, 5)), run);
          add((mode == 0 ? "hist:" : "hist-sort:") + std::to_string(nb), tn<T>(), n, ms, n * (s + 4), 0,
              copy_gbs, Hh.to_vector() == ref);
        }
      }
    }
    if (o.want("expand")) {
      // sizes 0..7 from the data, element k of x = x + k
      Fused in;
      in.source =
          "long arrc_size(long i ARRC_PARAMS) { return xs[i] & 7; }\n"
          "T arrc_get(long i, long k ARRC_PARAMS) { return xs[i] + (T)k; }\n";
      in.args = {KernelArg::buffer("__global const int*", "xs", X.buffer())};
      Expanded e;
      auto run = [&] { e = expand(ctx, ElemType::of<T>(), n, in); };
      run();
      double ms = time_ms(ctx, reps, run);
      int64_t total = 0;
      for (T x : h) total += x & 7;
      add("expand", tn<T>(), n, ms, n * (s + 8) + total * s, 0, copy_gbs, e.count == total);
    }
    if (o.want("expand_skew")) {
      // sizes from a separate array: one huge source, 95% empty, power law;
      // element k of source i = x_i + k, checked at sampled positions
      for (const char* dist : {"one-huge", "sparse", "power"}) {
        auto sz = expand_sizes(dist, n, 23);
        auto S = Array<int32_t, 1>::from(ctx, sz);
        Fused in;
        in.source =
            "long arrc_size(long i ARRC_PARAMS) { return sz[i]; }\n"
            "T arrc_get(long i, long k ARRC_PARAMS) { return xs[i] + (T)k; }\n";
        in.args = {KernelArg::buffer("__global const int*", "sz", S.buffer()),
                   KernelArg::buffer("__global const int*", "xs", X.buffer())};
        Expanded e;
        auto run = [&] { e = expand(ctx, ElemType::of<T>(), n, in); };
        run();
        double ms = time_ms(ctx, reps, run);
        std::vector<int64_t> ends(static_cast<size_t>(n));
        int64_t total = 0;
        for (int64_t i = 0; i < n; ++i) ends[i] = total += sz[i];
        bool ok = e.count == total;
        for (int64_t j = 0; ok && total > 0 && j < total; j += std::max<int64_t>(1, total / 4099)) {
          int64_t i = std::upper_bound(ends.begin(), ends.end(), j) - ends.begin();
          T v{};
          ctx.read(e.data->mem(), j * sizeof(T), sizeof(T), &v);
          ok = v == h[i] + static_cast<T>(j - (ends[i] - sz[i]));
        }
        add(std::string("expand:") + dist, tn<T>(), n, ms, n * (4 + s + 8) + total * s, 0, copy_gbs,
            ok);
      }
    }
  }
}

// --sync-probe: the round trip of a tiny kernel whose 8-byte result the host
// needs (what compact() pays for its count), by several ways of waiting.
void sync_probe(Context& ctx) {
  static ProgramSource p(
      "__kernel void put(__global long* x, long v) { if (get_global_id(0) == 0) x[0] = v; }");
  cl_kernel k = ctx.kernel(p, "put");
  cl_command_queue q = ctx.queue();
  cl_int err = CL_SUCCESS;
  auto dev = ctx.alloc(64);
  cl_mem host = clCreateBuffer(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 64,
                               nullptr, &err);
  cl_mem stage = clCreateBuffer(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 4096,
                                nullptr, &err);
  void* pinned = clEnqueueMapBuffer(q, stage, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 4096, 0,
                                    nullptr, nullptr, &err);
  int64_t got = 0, v = 0;
  auto launch = [&](cl_mem m) {
    ++v;
    clSetKernelArg(k, 0, sizeof(cl_mem), &m);
    clSetKernelArg(k, 1, sizeof v, &v);
    size_t g = 64, l = 64;
    clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, &l, 0, nullptr, nullptr);
  };
  auto time = [&](const char* what, const std::function<void()>& f) {
    const int reps = 2000;
    f();
    bool ok = got == v;
    auto t0 = clk::now();
    for (int i = 0; i < reps; ++i) {
      f();
      ok = ok && got == v;
    }
    double us = std::chrono::duration<double, std::micro>(clk::now() - t0).count() / reps;
    std::printf("sync probe: %-52s %7.2f us %s\n", what, us, ok ? "ok" : "WRONG VALUE");
  };
  cl_mem d = dev->mem();
  time("kernel + clFinish (no result)", [&] { launch(d); clFinish(q); got = v; });
  time("kernel + blocking read (pageable)", [&] {
    launch(d);
    clEnqueueReadBuffer(q, d, CL_TRUE, 0, 8, &got, 0, nullptr, nullptr);
  });
  time("kernel + blocking read (pinned)", [&] {
    launch(d);
    clEnqueueReadBuffer(q, d, CL_TRUE, 0, 8, pinned, 0, nullptr, nullptr);
    std::memcpy(&got, pinned, 8);
  });
  time("kernel + read (pinned) + clFinish", [&] {
    launch(d);
    clEnqueueReadBuffer(q, d, CL_FALSE, 0, 8, pinned, 0, nullptr, nullptr);
    clFinish(q);
    std::memcpy(&got, pinned, 8);
  });
  time("kernel to ALLOC_HOST_PTR buffer + blocking map", [&] {
    launch(host);
    void* m = clEnqueueMapBuffer(q, host, CL_TRUE, CL_MAP_READ, 0, 8, 0, nullptr, nullptr, &err);
    std::memcpy(&got, m, 8);
    clEnqueueUnmapMemObject(q, host, m, 0, nullptr, nullptr);
  });
  time("kernel + read (pinned) + clWaitForEvents", [&] {
    launch(d);
    cl_event e;
    clEnqueueReadBuffer(q, d, CL_FALSE, 0, 8, pinned, 0, nullptr, &e);
    clWaitForEvents(1, &e);
    clReleaseEvent(e);
    std::memcpy(&got, pinned, 8);
  });
  clFinish(q);
  clEnqueueUnmapMemObject(q, stage, pinned, 0, nullptr, nullptr);
  clFinish(q);
  clReleaseMemObject(stage);
  clReleaseMemObject(host);
}

}  // namespace

int main(int argc, char** argv) {
  Opts o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--sizes" && i + 1 < argc) {
      for (auto& s : split(argv[++i])) o.sizes.push_back(static_cast<int64_t>(std::stod(s)));
    } else if (a == "--reps" && i + 1 < argc) {
      o.reps = std::atoi(argv[++i]);
    } else if (a == "--ops" && i + 1 < argc) {
      o.ops = split(argv[++i]);
    } else if (a == "--sync-probe") {
      o.sync_probe = true;
    } else if (a == "--no-overhead") {
      o.overhead = false;
    } else if (a == "--no-cub") {
      o.cub = false;
    } else if (a == "--std-sort") {
      o.std_sort = true;
    } else {
      std::fprintf(stderr, "usage: %s [--sizes 1e6,1e7] [--reps N] [--ops reduce,scan,...] [--sync-probe] [--no-overhead] [--no-cub] [--std-sort]\n",
                   argv[0]);
      return 2;
    }
  }
  Context ctx;
  if (o.sizes.empty())
    o.sizes = ctx.is_gpu() ? std::vector<int64_t>{1000000, 10000000, 100000000}
                           : std::vector<int64_t>{1000000, 10000000};
  if (o.reps == 0) o.reps = ctx.is_gpu() ? 20 : 5;
  std::printf("device: %s, %zu compute units, fp64 %s\n", ctx.describe().c_str(),
              ctx.compute_units(), ctx.supports_fp64() ? "yes" : "no");
  BC B(ctx);
#ifdef ARRC_HAVE_BOOST_COMPUTE
  std::printf("Boost.Compute: yes (same context and queue)\n");
#else
  std::printf("Boost.Compute: not built in\n");
#endif
#ifdef ARRC_HAVE_CUB
  std::string why;
  cub_on = o.cub && arrc_cub::available(&why);
  if (cub_on)
    std::printf("CUB: yes (%s, same process)\n", arrc_cub::device_name().c_str());
  else
    std::printf("CUB: built in, not used (%s)\n", o.cub ? why.c_str() : "--no-cub");
#else
  std::printf("CUB: not built in (-DARRC_BENCH_CUB=ON with nvcc)\n");
#endif
  // Host overhead per launch of a cached kernel (enqueue only, no wait), and
  // of a whole primitive call on a tiny input (program lookup by key).
  if (o.sync_probe) sync_probe(ctx);
  if (o.overhead) {
    static ProgramSource p("__kernel void nop(__global int* x, long n) { if (get_global_id(0) < n) x[0] = 1; }");
    auto b = ctx.alloc(64);
    cl_kernel k = ctx.kernel(p, "nop");
    ctx.launch(k, 64, 64, b, int64_t{0});
    ctx.finish();
    const int reps = 20000;
    auto t0 = clk::now();
    for (int i = 0; i < reps; ++i) ctx.launch(ctx.kernel(p, "nop"), 64, 64, b, int64_t{0});
    double us = std::chrono::duration<double, std::micro>(clk::now() - t0).count() / reps;
    ctx.finish();
    auto X = Array<int32_t, 1>::from(ctx, std::vector<int32_t>(1000, 1));
    auto out = ctx.alloc(4);
    Fused in = load_from(ElemType::of<int32_t>(), X.buffer());
    reduce(ctx, ElemType::of<int32_t>(), Operator::add(), 1000, in, out->mem(), 0);
    ctx.finish();
    const int reps2 = 2000;
    auto t1 = clk::now();
    for (int i = 0; i < reps2; ++i)
      reduce(ctx, ElemType::of<int32_t>(), Operator::add(), 1000, in, out->mem(), 0);
    double us2 = std::chrono::duration<double, std::micro>(clk::now() - t1).count() / reps2;
    ctx.finish();
    // compact() waits for its count: a whole call, and the blocking 8-byte
    // read alone (after a finished queue)
    Fused pin = in;
    pin.source += "int arrc_keep(long i, T v ARRC_PARAMS) { return v > 0; }\n";
    auto cbuf = ctx.alloc(8);
    auto out2 = ctx.alloc(4000);
    compact(ctx, ElemType::of<int32_t>(), 1000, pin, out2->mem(), 0, cbuf->mem());
    auto t2 = clk::now();
    for (int i = 0; i < reps2; ++i)
      compact(ctx, ElemType::of<int32_t>(), 1000, pin, out2->mem(), 0, cbuf->mem());
    double us3 = std::chrono::duration<double, std::micro>(clk::now() - t2).count() / reps2;
    int64_t c8 = 0;
    auto t3 = clk::now();
    for (int i = 0; i < reps2; ++i) ctx.read(cbuf->mem(), 0, 8, &c8);
    double us4 = std::chrono::duration<double, std::micro>(clk::now() - t3).count() / reps2;
    // what each timed copy pays besides its bytes: a tiny copy and clFinish
    auto t4 = clk::now();
    for (int i = 0; i < reps2; ++i) {
      ctx.copy(out2->mem(), 0, out2->mem(), 2000, 2000);
      ctx.finish();
    }
    double us5 = std::chrono::duration<double, std::micro>(clk::now() - t4).count() / reps2;
    std::printf("host overhead: cached kernel lookup + launch %.2f us; reduce() call (2 launches, "
                "program lookup) %.2f us; compact() call (launch, count read) %.2f us; "
                "8-byte read %.2f us; tiny copy + clFinish %.2f us\n",
                us, us2, us3, us4, us5);
  }
  print_header();
  for (int64_t n : o.sizes) {
    double cg = copy_bandwidth(ctx, n * 4, o.reps);
    double cub_copy = 0;
#ifdef ARRC_HAVE_CUB
    cub_copy = cub_ms([&] { return arrc_cub::copy(n * 4, o.reps); });
    if (cub_copy > 0) cub_copy = 2.0 * n * 4 / (cub_copy * 1e6);
#endif
    char cc[32] = "     n/a";
    if (cub_copy > 0) std::snprintf(cc, sizeof cc, "%8.1f", cub_copy);
    std::printf("| copy (clEnqueueCopyBuffer; cub: cudaMemcpy) | %10lld | int    |           | %8.1f |          | %8s | %8.1f |   1.00 |        |        |         | ok |\n",
                static_cast<long long>(n), cg, cc, cg);
    bench_type<int32_t>(ctx, o, n, cg, B);
    bench_type<float>(ctx, o, n, cg, B);
    ctx.trim_pool();
  }
  int bad = 0;
  for (auto& r : rows) bad += !r.ok;
  std::printf("\n%d mismatches\n", bad);
  return bad ? 1 : 0;
}
