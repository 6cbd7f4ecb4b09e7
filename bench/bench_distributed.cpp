// arrc_bench_distributed: strong and weak scaling of Arr programs run through
// their distributed overloads (docs/distributed.md) on the ranks of an MPI
// job, one device per rank. Run it once per rank count:
//
//   mpirun -n P arrc_bench_distributed [--scale pocl|gpu] [--reps N]
//          [--only bs,kmeans,nbody,sort,groupby] [--no-check] [--no-collectives]
//
// For each program, with n the program's base size at this scale:
//   strong  the same problem (n) on P ranks
//   weak    n per rank: n * P in all (N-body: n * sqrt(P) bodies, the
//           same n^2 / P interactions per rank)
// Inputs are made on each rank for its own rows, from a hash of the global
// index, so every rank count computes the same problem. Each timing is the
// median of --reps calls (after 2 warm-up calls), each between barriers:
// the slowest rank's time, the result left on the devices. On one rank the
// single-device overload is timed too ("plain"). Before timing, --check
// compares each distributed result, gathered, with the single-device result
// on the same inputs. --collectives times the runtime's collectives (device
// staging included) for the scaling model (bench/scaling_model.py).
//
// Output: a table on rank 0, and one `RESULT {json}` / `COLL {json}` line
// per measurement for bench/scaling_model.py.
#include <arrc/cluster.h>

#include "blackscholes.hpp"
#include "groupby.hpp"
#include "kmeans.hpp"
#include "nbody.hpp"
#include "sorting.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using clk = std::chrono::steady_clock;

struct Options {
  std::string scale = "pocl";
  int reps = 5;
  std::set<std::string> only;
  bool check = true, collectives = true;
};

// Deterministic data: a function of (seed, global index) only.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}
double unit(uint64_t seed, int64_t i) { return double(mix(seed * 0x100000001B3ULL + uint64_t(i)) >> 11) * 0x1.0p-53; }

// This rank's rows [lo, hi) of a global array of n rows: f(global row, column).
template <class T, int D, class F>
arrc::DistArray<T, D> makeDist(arrc::Cluster &cl, int64_t n, std::array<int64_t, D> shape, F f) {
  auto part = arrc::Partition::block(n, cl.size());
  int64_t lo = part.lo(cl.rank()), hi = part.hi(cl.rank());
  int64_t row = 1;
  for (int k = 1; k < D; ++k) row *= shape[k];
  std::vector<T> v(size_t((hi - lo) * row));
  for (int64_t i = lo; i < hi; ++i)
    for (int64_t c = 0; c < row; ++c) v[size_t((i - lo) * row + c)] = f(i, c);
  shape[0] = hi - lo;
  return arrc::DistArray<T, D>::from_local(cl, arrc::Array<T, D>::from(cl.context(), v, shape));
}

double ms(clk::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

struct Timing {
  double median = 0, min = 0;
};

// Median and minimum of reps calls, each between barriers.
Timing timeIt(arrc::Cluster &cl, int reps, const std::function<void()> &call) {
  for (int w = 0; w < 2; ++w) {
    call();
    cl.context().finish();
  }
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    cl.barrier();
    auto a = clk::now();
    call();
    cl.context().finish();
    cl.barrier();
    t.push_back(ms(clk::now() - a));
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front()};
}

// ---- the programs: inputs of a given total size, the distributed call, the plain call
struct Program {
  std::string name, what;
  int64_t base;                                  // n at this scale
  std::function<int64_t(int64_t, int)> weakSize; // n on P ranks for weak scaling
  // prepares inputs of size n; returns the distributed call and (on 1 rank) the plain one
  std::function<void(arrc::Cluster &, int64_t, std::function<void()> &, std::function<void()> &)> prepare;
  // the distributed result gathered vs the plain one on the same inputs (small n)
  std::function<std::string(arrc::Cluster &, int64_t)> check;
};

template <class A, class B>
std::string compareVec(const std::vector<A> &got, const std::vector<B> &want, double tol) {
  if (got.size() != want.size())
    return "size " + std::to_string(got.size()) + " vs " + std::to_string(want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    double g = double(got[i]), w = double(want[i]);
    if (std::fabs(g - w) > tol * std::max({1.0, std::fabs(g), std::fabs(w)}))
      return "element " + std::to_string(i) + ": " + std::to_string(g) + " vs " + std::to_string(w);
  }
  return "";
}

const int kDim = 20, kCentres = 10, kIterations = 10;
const int64_t kGroupKeys = 1 << 20;

std::vector<Program> programs(const std::string &scale) {
  bool gpu = scale == "gpu";
  std::vector<Program> ps;
  auto linear = [](int64_t n, int P) { return n * P; };

  // Black-Scholes: S, K, T per option
  ps.push_back({"bs", "Black-Scholes, float options", gpu ? 100000000 : 1000000, linear,
                [](arrc::Cluster &cl, int64_t n, std::function<void()> &dist, std::function<void()> &plain) {
                  auto S = makeDist<float, 1>(cl, n, {n}, [](int64_t i, int64_t) { return float(5 + 25 * unit(1, i)); });
                  auto K = makeDist<float, 1>(cl, n, {n}, [](int64_t i, int64_t) { return float(1 + 99 * unit(2, i)); });
                  auto T = makeDist<float, 1>(cl, n, {n}, [](int64_t i, int64_t) { return float(0.25 + 9.75 * unit(3, i)); });
                  dist = [&cl, S, K, T] { (void)blackscholes::blackscholes(cl, S, K, T, 0.02f, 0.3f); };
                  if (cl.size() == 1) {
                    auto s = S.local(), k = K.local(), t = T.local();
                    plain = [&cl, s, k, t] { (void)blackscholes::blackscholes(cl.context(), s, k, t, 0.02f, 0.3f); };
                  }
                },
                [](arrc::Cluster &cl, int64_t n) {
                  auto S = makeDist<float, 1>(cl, n, {n}, [](int64_t i, int64_t) { return float(5 + 25 * unit(1, i)); });
                  auto K = makeDist<float, 1>(cl, n, {n}, [](int64_t i, int64_t) { return float(1 + 99 * unit(2, i)); });
                  auto T = makeDist<float, 1>(cl, n, {n}, [](int64_t i, int64_t) { return float(0.25 + 9.75 * unit(3, i)); });
                  auto d = blackscholes::blackscholes(cl, S, K, T, 0.02f, 0.3f);
                  auto p = blackscholes::blackscholes(cl.context(), S.gather(), K.gather(), T.gather(), 0.02f, 0.3f);
                  std::string e = compareVec(std::get<0>(d).to_vector(), std::get<0>(p).to_vector(), 1e-5);
                  return e.empty() ? compareVec(std::get<1>(d).to_vector(), std::get<1>(p).to_vector(), 1e-5) : e;
                }});

  // k-means: 10 iterations of Lloyd's algorithm, d = 20, k = 10
  auto kmInputs = [](arrc::Cluster &cl, int64_t n) {
    auto P = makeDist<double, 2>(cl, n, {n, kDim}, [](int64_t i, int64_t c) {
      return double((i * 7 + c) % kCentres) * 10.0 + unit(4, i * kDim + c); // k well-separated clusters
    });
    std::vector<double> c0(size_t(kCentres) * kDim);
    for (int c = 0; c < kCentres; ++c)
      for (int j = 0; j < kDim; ++j) c0[size_t(c * kDim + j)] = 10.0 * c + 0.5 * unit(5, c * kDim + j);
    auto C0 = arrc::DistArray<double, 2>::replicated(
        cl, arrc::Array<double, 2>::from(cl.context(), c0, {kCentres, kDim}));
    return std::make_pair(P, C0);
  };
  ps.push_back({"kmeans", "k-means, 10 iterations, d=20, k=10 (double)", gpu ? 10000000 : 100000, linear,
                [kmInputs](arrc::Cluster &cl, int64_t n, std::function<void()> &dist, std::function<void()> &plain) {
                  auto [P, C0] = kmInputs(cl, n);
                  dist = [&cl, P = P, C0 = C0] { (void)kmeans::kmeans(cl, kIterations, P, C0); };
                  if (cl.size() == 1) {
                    auto p = P.local(), c = C0.local();
                    plain = [&cl, p, c] { (void)kmeans::kmeans(cl.context(), kIterations, p, c); };
                  }
                },
                [kmInputs](arrc::Cluster &cl, int64_t n) {
                  auto [P, C0] = kmInputs(cl, n);
                  auto d = kmeans::kmeans(cl, kIterations, P, C0).to_vector();
                  auto p = kmeans::kmeans(cl.context(), kIterations, P.gather(), C0.gather()).to_vector();
                  return compareVec(d, p, 1e-9);
                }});

  // N-body: one step, all pairs; weak scaling keeps n^2 / P
  auto nbInputs = [](arrc::Cluster &cl, int64_t n) {
    auto comp = [&](int k) {
      return makeDist<float, 1>(cl, n, {n}, [k](int64_t i, int64_t) {
        return k == 6 ? float(0.5 + unit(20 + k, i)) : k < 3 ? float(2 * unit(20 + k, i) - 1) : 0.0f;
      });
    };
    return std::make_tuple(comp(0), comp(1), comp(2), comp(3), comp(4), comp(5), comp(6));
  };
  ps.push_back({"nbody", "N-body step, all pairs (float)", gpu ? 131072 : 4096,
                [](int64_t n, int P) { return int64_t(std::llround(double(n) * std::sqrt(double(P)))); },
                [nbInputs](arrc::Cluster &cl, int64_t n, std::function<void()> &dist, std::function<void()> &plain) {
                  auto b = nbInputs(cl, n);
                  dist = [&cl, b] { (void)nbody::nbody_step(cl, 0.01f, 0.01f, b); };
                  if (cl.size() == 1) {
                    auto l = std::apply([](const auto &...x) { return std::make_tuple(x.local()...); }, b);
                    plain = [&cl, l] { (void)nbody::nbody_step(cl.context(), 0.01f, 0.01f, l); };
                  }
                },
                [nbInputs](arrc::Cluster &cl, int64_t n) {
                  auto b = nbInputs(cl, n);
                  auto d = nbody::nbody_step(cl, 0.01f, 0.01f, b);
                  auto w = std::apply([](const auto &...x) { return std::make_tuple(x.gather()...); }, b);
                  auto p = nbody::nbody_step(cl.context(), 0.01f, 0.01f, w);
                  return compareVec(std::get<3>(d).to_vector(), std::get<3>(p).to_vector(), 1e-4);
                }});

  // sort: ints
  auto sortInput = [](arrc::Cluster &cl, int64_t n) {
    return makeDist<int32_t, 1>(cl, n, {n}, [](int64_t i, int64_t) { return int32_t(mix(uint64_t(i) * 7 + 6)); });
  };
  ps.push_back({"sort", "sort of int32 (sample sort)", gpu ? 100000000 : 1000000, linear,
                [sortInput](arrc::Cluster &cl, int64_t n, std::function<void()> &dist, std::function<void()> &plain) {
                  auto xs = sortInput(cl, n);
                  dist = [&cl, xs] { (void)sorting::sort_ints(cl, xs); };
                  if (cl.size() == 1) {
                    auto l = xs.local();
                    plain = [&cl, l] { (void)sorting::sort_ints(cl.context(), l); };
                  }
                },
                [sortInput](arrc::Cluster &cl, int64_t n) {
                  auto xs = sortInput(cl, n);
                  auto d = sorting::sort_ints(cl, xs).to_vector();
                  auto p = sorting::sort_ints(cl.context(), xs.gather()).to_vector();
                  return compareVec(d, p, 0);
                }});

  // group-by: sum of float values per int key (2^20 distinct keys)
  auto gbInputs = [](arrc::Cluster &cl, int64_t n) {
    auto k = makeDist<int32_t, 1>(cl, n, {n}, [](int64_t i, int64_t) { return int32_t(mix(uint64_t(i) * 3 + 8) % kGroupKeys); });
    auto v = makeDist<float, 1>(cl, n, {n}, [](int64_t i, int64_t) { return float(unit(9, i)); });
    return std::make_pair(k, v);
  };
  ps.push_back({"groupby", "group-by: reduce_by_key (+), 2^20 int keys, float values", gpu ? 100000000 : 1000000, linear,
                [gbInputs](arrc::Cluster &cl, int64_t n, std::function<void()> &dist, std::function<void()> &plain) {
                  auto [k, v] = gbInputs(cl, n);
                  dist = [&cl, k = k, v = v] { (void)groupby::groupby(cl, k, v); };
                  if (cl.size() == 1) {
                    auto kl = k.local();
                    auto vl = v.local();
                    plain = [&cl, kl, vl] { (void)groupby::groupby(cl.context(), kl, vl); };
                  }
                },
                [gbInputs](arrc::Cluster &cl, int64_t n) {
                  auto [k, v] = gbInputs(cl, n);
                  auto d = groupby::groupby(cl, k, v);
                  auto p = groupby::groupby(cl.context(), k.gather(), v.gather());
                  std::string e = compareVec(std::get<0>(d).to_vector(), std::get<0>(p).to_vector(), 0);
                  return e.empty() ? compareVec(std::get<1>(d).to_vector(), std::get<1>(p).to_vector(), 1e-3) : e;
                }});
  return ps;
}

// ---- the collectives the distributed overloads use, device staging included
void collectives(arrc::Cluster &cl, int reps, bool root) {
  auto report = [&](const std::string &name, double bytes, const Timing &t) {
    if (!root) return;
    std::printf("  %-34s %12.0f B  %10.4f ms\n", name.c_str(), bytes, t.median);
    std::printf("COLL {\"name\": \"%s\", \"ranks\": %d, \"bytes\": %.0f, \"median_ms\": %.6f, \"min_ms\": %.6f}\n",
                name.c_str(), cl.size(), bytes, t.median, t.min);
  };
  if (root) std::printf("\ncollectives on %d rank(s) (median of %d)\n", cl.size(), reps);
  report("sync (error agreement)", 4, timeIt(cl, reps * 4, [&] { cl.sync(); }));
  report("allgather of partials (8 B)", 8, timeIt(cl, reps * 4, [&] {
           double x = 1;
           (void)cl.allgather_bytes(&x, sizeof x);
         }));
  for (int64_t n : {int64_t(1) << 10, int64_t(1) << 17, int64_t(1) << 22, int64_t(1) << 25}) {
    auto a = makeDist<float, 1>(cl, n, {n}, [](int64_t i, int64_t) { return float(i); });
    report("replicate (allgatherv) float", double(n) * 4, timeIt(cl, reps, [&] { (void)a.gather(); }));
    auto bins = arrc::Array<float, 1>::from(cl.context(), std::vector<float>(size_t(n), 1.0f));
    report("reduce_scatter float", double(n) * 4,
           timeIt(cl, reps, [&] { (void)arrc::dist::reduce_scatter(cl, bins, arrc::dist::Op::sum); }));
    report("window, halo of 1 row", double(n) * 4, timeIt(cl, reps, [&] {
             (void)arrc::dist::window(a, a.partition(), [](const arrc::dist::Iv &I) { return arrc::dist::hull(I - arrc::dist::Iv(1), I); });
           }));
    int64_t per = n / cl.size();
    std::vector<int32_t> k(static_cast<size_t>(per));
    for (int64_t i = 0; i < per; ++i) k[size_t(i)] = int32_t(i);
    auto K = arrc::Array<int32_t, 1>::from(cl.context(), k);
    report("sort_exchange int (per rank)", double(per) * 4, timeIt(cl, reps, [&] {
             auto kk = K;
             arrc::dist::sort_exchange(cl, kk);
           }));
  }
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--scale") o.scale = value();
    else if (a == "--reps") o.reps = std::max(1, std::atoi(value().c_str()));
    else if (a == "--only") {
      std::stringstream s(value());
      std::string p;
      while (std::getline(s, p, ',')) o.only.insert(p);
    } else if (a == "--no-check") o.check = false;
    else if (a == "--no-collectives") o.collectives = false;
    else {
      std::fprintf(stderr, "usage: mpirun -n P %s [--scale pocl|gpu] [--reps N] [--only bs,kmeans,nbody,sort,groupby] "
                           "[--no-check] [--no-collectives]\n", argv[0]);
      return 2;
    }
  }
  int status = 0;
  try {
    arrc::Cluster cl;
    bool root = cl.rank() == 0;
    int P = cl.size();
    if (root)
      std::printf("arrc_bench_distributed: %d rank(s), scale %s, reps %d\nrank 0 device: %s\n", P, o.scale.c_str(),
                  o.reps, cl.context().describe().c_str());
    for (auto &p : programs(o.scale)) {
      if (!o.only.empty() && !o.only.count(p.name)) continue;
      if (o.check) {
        std::string e = cl.run([&] { return p.check(cl, std::min<int64_t>(p.base, 20000)); });
        if (root) std::printf("check %-8s %s\n", p.name.c_str(), e.empty() ? "ok (equals the single-device result)" : ("FAILED: " + e).c_str());
        if (!e.empty()) status = 1;
      }
      // on one rank both modes are the same problem: measured once
      for (const char *mode : {"strong", "weak"}) {
        if (P == 1 && std::string(mode) == "weak") continue;
        int64_t n = std::string(mode) == "strong" ? p.base : p.weakSize(p.base, P);
        std::function<void()> dist, plain;
        p.prepare(cl, n, dist, plain);
        Timing t = timeIt(cl, o.reps, dist);
        Timing tp;
        if (plain) tp = timeIt(cl, o.reps, plain);
        if (root) {
          std::printf("%-8s %-6s ranks %d  n %12lld  %10.3f ms (min %.3f)%s\n", p.name.c_str(), mode, P,
                      static_cast<long long>(n), t.median, t.min,
                      plain ? (" single-device " + std::to_string(tp.median) + " ms").c_str() : "");
          for (const char *m : {mode, "weak"}) {
            if (m != mode && P != 1) continue;
            std::printf("RESULT {\"program\": \"%s\", \"what\": \"%s\", \"mode\": \"%s\", \"ranks\": %d, "
                        "\"n\": %lld, \"median_ms\": %.6f, \"min_ms\": %.6f, \"plain_ms\": %.6f}\n",
                        p.name.c_str(), p.what.c_str(), m, P, static_cast<long long>(n), t.median, t.min,
                        plain ? tp.median : -1.0);
          }
          std::fflush(stdout);
        }
      }
    }
    if (o.collectives) collectives(cl, o.reps, root);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "arrc_bench_distributed: %s\n", e.what());
    return 1;
  }
  return status;
}
