// arrc_bench_runtime: effective bandwidth of the arrc runtime primitives,
// next to Boost.Compute on the same device and queue, and the device-to-device
// copy bandwidth (clEnqueueCopyBuffer) measured in the same run.
//
//   arrc_bench_runtime [--sizes 1e6,1e7] [--reps 10] [--ops reduce,scan,...]
//
// Effective GB/s = (bytes the operation must read + write) / time, e.g.
// reduce n*s, scan 2*n*s, compaction n*s + kept*s, copy 2*n*s, sort (keys
// only) 2*n*s, sort_by_key 2*n*(sk+sv), gather/scatter n*(s + 4 + s).
// Each result is checked against Boost.Compute (or a host reference).
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
  bool sync_probe = false, overhead = true;
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
  double arrc_ms, arrc_gbs, boost_gbs, copy_gbs;
  bool ok;
};
std::vector<Row> rows;

void print_row(const Row& r) {
  char b[64] = "     n/a", ratio_b[64] = "   n/a";
  if (r.boost_gbs > 0) {
    std::snprintf(b, sizeof b, "%8.1f", r.boost_gbs);
    std::snprintf(ratio_b, sizeof ratio_b, "%6.2f", r.arrc_gbs / r.boost_gbs);
  }
  std::printf("| %-14s | %10lld | %-6s | %9.3f | %8.1f | %8s | %8.1f | %6.2f | %6s | %s |\n",
              r.op.c_str(), static_cast<long long>(r.n), r.type.c_str(), r.arrc_ms, r.arrc_gbs, b,
              r.copy_gbs, r.arrc_gbs / r.copy_gbs, ratio_b, r.ok ? "ok" : "MISMATCH");
  std::fflush(stdout);
}

void add(const std::string& op, const std::string& type, int64_t n, double ms, double bytes,
         double boost_ms, double copy_gbs, bool ok) {
  Row r{op, type, n, ms, bytes / (ms * 1e6), boost_ms > 0 ? bytes / (boost_ms * 1e6) : 0,
        copy_gbs, ok};
  rows.push_back(r);
  print_row(r);
}

template <class T>
const char* tn() {
  if constexpr (std::is_same_v<T, int32_t>) return "int";
  if constexpr (std::is_same_v<T, int64_t>) return "long";
  if constexpr (std::is_same_v<T, float>) return "float";
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

template <class T>
void bench_type(Context& ctx, const Opts& o, int64_t n, double copy_gbs
#ifdef ARRC_HAVE_BOOST_COMPUTE
                , BC& B
#endif
) {
  const double s = sizeof(T);
  const int reps = o.reps;
  auto h = random_data<T>(n, -100, 100, 42);
  auto X = Array<T, 1>::from(ctx, h);
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
    bool ok;
#ifdef ARRC_HAVE_BOOST_COMPUTE
    auto brun = [&] { bc::reduce(bx.begin(), bx.end(), bres.begin(), bc::plus<T>(), B.q); };
    brun();
    bms = time_ms(ctx, reps, brun);
    T bref{};
    bc::copy(bres.begin(), bres.end(), &bref, B.q);
    ok = std::fabs(static_cast<double>(got) - static_cast<double>(bref)) <=
         1e-3 * (1 + std::fabs(static_cast<double>(bref)));
#else
    double ref = 0;
    for (T x : h) ref += x;
    ok = std::fabs(static_cast<double>(got) - ref) <= 1e-3 * (1 + std::fabs(ref));
#endif
    add("reduce", tn<T>(), n, ms, n * s, bms, copy_gbs, ok);
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
    if constexpr (std::is_integral_v<T>) {
      T acc = 0;
      for (int64_t i = 0; i < n && ok; ++i) ok = got[i] == (acc += h[i]);
    } else {
      double acc = 0;
      for (int64_t i = 0; i < n && ok; ++i) {
        acc += h[i];
        ok = std::fabs(got[i] - acc) <= 1e-3 * (1 + std::fabs(acc)) + 1e-6 * i;
      }
    }
    add("scan", tn<T>(), n, ms, 2 * n * s, bms, copy_gbs, ok);
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
    add("compact", tn<T>(), n, ms, (n + cnt) * s, bms, copy_gbs, ok);
  }
  if (o.want("sort")) {
    auto hw = random_data<T>(n, -1000000000, 1000000000, 7);
    auto src = Array<T, 1>::from(ctx, hw);
    auto K = Array<T, 1>::alloc(ctx, {n});
    double ms = time_ms(ctx, reps, [&] { sort(ctx, K); }, [&] { K.assign(src); });
    auto got = K.to_vector();
    std::sort(hw.begin(), hw.end());
    bool ok = got == hw;
    double bms = 0;
#ifdef ARRC_HAVE_BOOST_COMPUTE
    bc::vector<T> bsrc(n, B.ctx);
    auto hw2 = random_data<T>(n, -1000000000, 1000000000, 7);
    bc::copy(hw2.begin(), hw2.end(), bsrc.begin(), B.q);
    int breps = std::max(1, std::min(reps, 3));
    bms = time_ms(ctx, breps, [&] { bc::sort(bout.begin(), bout.end(), B.q); },
                  [&] { bc::copy(bsrc.begin(), bsrc.end(), bout.begin(), B.q); });
#endif
    add("sort", tn<T>(), n, ms, 2 * n * s, bms, copy_gbs, ok);
  }
  if constexpr (std::is_same_v<T, int32_t>) {
    if (o.want("sort_by_key")) {
      auto hk = random_data<T>(n, -1000000000, 1000000000, 9);
      std::vector<int32_t> hv(n);
      std::iota(hv.begin(), hv.end(), 0);
      auto ks = Array<T, 1>::from(ctx, hk);
      auto vs = Array<int32_t, 1>::from(ctx, hv);
      auto K = Array<T, 1>::alloc(ctx, {n});
      auto V = Array<int32_t, 1>::alloc(ctx, {n});
      double ms = time_ms(ctx, reps, [&] { sort_by_key(ctx, K, V); },
                          [&] { K.assign(ks); V.assign(vs); });
      auto gk = K.to_vector();
      auto gv = V.to_vector();
      bool ok = std::is_sorted(gk.begin(), gk.end());
      for (int64_t i = 0; i < n && ok; i += 997) ok = hk[gv[i]] == gk[i];
      double bms = 0;
#ifdef ARRC_HAVE_BOOST_COMPUTE
      bc::vector<T> bks(n, B.ctx), bk(n, B.ctx);
      bc::vector<int32_t> bvs(n, B.ctx), bv(n, B.ctx);
      bc::copy(hk.begin(), hk.end(), bks.begin(), B.q);
      bc::copy(hv.begin(), hv.end(), bvs.begin(), B.q);
      int breps = std::max(1, std::min(reps, 3));
      bms = time_ms(ctx, breps, [&] { bc::sort_by_key(bk.begin(), bk.end(), bv.begin(), B.q); },
                    [&] {
                      bc::copy(bks.begin(), bks.end(), bk.begin(), B.q);
                      bc::copy(bvs.begin(), bvs.end(), bv.begin(), B.q);
                    });
#endif
      add("sort_by_key", tn<T>(), n, ms, 2.0 * n * (s + 4), bms, copy_gbs, ok);
    }
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
    // segments of random length 1..64
    std::vector<uint8_t> flags(n, 0);
    std::vector<int32_t> segid(n);
    {
      std::uniform_int_distribution<int> len(1, 64);
      int64_t i = 0;
      int32_t sid = -1;
      while (i < n) {
        int64_t e = std::min<int64_t>(n, i + len(rng));
        flags[i] = 1;
        ++sid;
        for (int64_t j = i; j < e; ++j) segid[j] = sid;
        i = e;
      }
    }
    auto F = Array<uint8_t, 1>::from(ctx, flags);
    if (o.want("segscan")) {
      Array<T, 1> R;
      auto run = [&] { R = segmented_scan(ctx, Operator::add(), F, X, true); };
      run();
      double ms = time_ms(ctx, reps, run);
      auto got = R.to_vector();
      bool ok = true;
      T acc = 0;
      for (int64_t i = 0; i < n && ok; ++i) {
        acc = flags[i] ? h[i] : acc + h[i];
        ok = got[i] == acc;
      }
      add("segscan", tn<T>(), n, ms, n * (2 * s + 1), 0, copy_gbs, ok);
    }
    if (o.want("segreduce")) {
      Array<T, 1> R;
      auto run = [&] { R = segmented_reduce(ctx, Operator::add(), F, X); };
      run();
      double ms = time_ms(ctx, reps, run);
      auto got = R.to_vector();
      bool ok = static_cast<int64_t>(got.size()) == segid.back() + 1;
      double bms = 0;
#ifdef ARRC_HAVE_BOOST_COMPUTE
      bc::vector<int32_t> bseg(n, B.ctx), bkeys(n, B.ctx);
      bc::copy(segid.begin(), segid.end(), bseg.begin(), B.q);
      auto brun = [&] {
        bc::reduce_by_key(bseg.begin(), bseg.end(), bx.begin(), bkeys.begin(), bout.begin(), B.q);
      };
      brun();
      bms = time_ms(ctx, reps, brun);
      std::vector<T> bref(got.size());
      if (ok) bc::copy(bout.begin(), bout.begin() + got.size(), bref.begin(), B.q);
      ok = ok && bref == got;
#endif
      add("segreduce", tn<T>(), n, ms, n * (s + 1), bms, copy_gbs, ok);
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
    } else {
      std::fprintf(stderr, "usage: %s [--sizes 1e6,1e7] [--reps N] [--ops reduce,scan,...] [--sync-probe] [--no-overhead]\n",
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
#ifdef ARRC_HAVE_BOOST_COMPUTE
  BC B(ctx);
  std::printf("Boost.Compute: yes (same context and queue)\n");
#else
  std::printf("Boost.Compute: not built in\n");
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
  std::printf("\n| op             |          n | type   |   arrc ms | arrc GB/s | boost GB/s | copy GB/s | arrc/copy | arrc/boost | check |\n");
  std::printf("|----------------|-----------:|--------|----------:|---------:|---------:|---------:|-------:|-------:|----|\n");
  for (int64_t n : o.sizes) {
    double cg = copy_bandwidth(ctx, n * 4, o.reps);
    std::printf("| copy (clEnqueueCopyBuffer) | %10lld | int    |           | %8.1f |          | %8.1f |   1.00 |        | ok |\n",
                static_cast<long long>(n), cg, cg);
#ifdef ARRC_HAVE_BOOST_COMPUTE
    bench_type<int32_t>(ctx, o, n, cg, B);
    bench_type<float>(ctx, o, n, cg, B);
#else
    bench_type<int32_t>(ctx, o, n, cg);
    bench_type<float>(ctx, o, n, cg);
#endif
    ctx.trim_pool();
  }
  int bad = 0;
  for (auto& r : rows) bad += !r.ok;
  std::printf("\n%d mismatches\n", bad);
  return bad ? 1 : 0;
}
