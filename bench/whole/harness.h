// arrc_bench_whole: whole Arr programs (bench/programs/*.arr, compiled by
// arrc into headers) against hand-written sequential and OpenMP C++ in one
// process. This header is the shared machinery: options, timing, result
// checks, deterministic inputs and the report (markdown table + JSON).
// Each program lives in its own file (bench/whole/<program>.cpp) and uses
// only the generated header API (LANGUAGE.md section 8, docs/cpp-api.md).
#pragma once

#include <arrc/runtime.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace whole {

struct Options {
  std::string scale = "small";                // tiny | small | full
  std::map<std::string, std::string> sizes;   // --size program=value
  std::set<std::string> only;                 // --only a,b (empty: all)
  int reps = 5;                               // timed calls per measurement
  double budget_s = 10;                       // stop repeating after this many seconds
  bool check_only = false;                    // one call per variant, no warm-up
  std::string cache_dir;                      // empty: a fresh empty directory per program
  std::string json_path;
};

// Samples of one measurement, in milliseconds.
struct Stats {
  std::vector<double> ms;
  bool empty() const { return ms.empty(); }
  double median() const;
  double min() const;
  double max() const;
};

struct Row {
  std::string program;  // e.g. "k-means step"
  std::string size;     // e.g. "M=1e6 d=20 k=10"
  std::string type;     // element type(s)
  std::string note;
  double cold_ms = -1;  // first call on a fresh context with an empty program cache
  Stats device;         // steady state, inputs already on the device, ended by ctx.finish()
  Stats transfers;      // steady state with Array::from of the inputs + to_vector of the outputs
  Stats seq, omp;       // hand-written C++: one thread / all host threads
  int64_t launches = -1, round_trips = -1;  // per steady-state call: kernels enqueued, blocking reads
  std::vector<std::string> failures;
};

class Bench {
public:
  explicit Bench(Options opts);
  ~Bench();  // removes the fresh cache directories

  const Options& options() const { return opts_; }
  bool selected(const std::string& program) const;
  // The size of `program` at the current scale, or its --size override.
  int64_t size(const std::string& program, int64_t tiny, int64_t small, int64_t full) const;
  // Same for a comma-separated list of sizes (pythagorean: "1000,2000").
  std::vector<int64_t> sizes(const std::string& program, const std::string& tiny,
                             const std::string& small, const std::string& full) const;

  // A new context whose arrc program cache is an empty directory (so the
  // first call builds every kernel), unless --cache-dir was given.
  std::unique_ptr<arrc::Context> context(const std::string& program);

  // Times fn (ms). The first call is a warm-up unless `warmup` is false or
  // --check-only; a warm-up call longer than half the budget is kept as the
  // only sample (one run of a slow baseline). Then up to `reps` calls, fewer
  // once their sum exceeds the budget. `setup` runs untimed before each call.
  Stats time(const std::function<void()>& fn, bool warmup = true,
             const std::function<void()>& setup = {});
  double once(const std::function<void()>& fn);
  // time() of an arrc call on ctx, also counting the kernels it enqueues and
  // the reads it waits for (one more, untimed call) into row.
  Stats device(Row& row, arrc::Context& ctx, const std::function<void()>& fn, bool warmup = true,
               const std::function<void()>& setup = {});

  void add(Row row);
  int failures() const;
  void print_table() const;
  void write_json(const std::string& path) const;

private:
  Options opts_;
  std::string tmp_root_;
  std::string load_at_start_;
  std::vector<Row> rows_;
};

// --- checks -------------------------------------------------------------------

// max |got - ref| / max(max |ref|, tiny): a norm-wise relative difference, the
// right measure for results whose summation order differs.
template <class T>
double max_rel_diff(const std::vector<T>& got, const std::vector<T>& ref) {
  double d = 0, m = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    d = std::max(d, std::fabs(double(got[i]) - double(ref[i])));
    m = std::max(m, std::fabs(double(ref[i])));
  }
  return d / std::max(m, 1e-300);
}

void fail(Row& row, const std::string& what);

template <class T>
void expect_close(Row& row, const std::string& what, const std::vector<T>& got,
                  const std::vector<T>& ref, double tol) {
  if (got.size() != ref.size()) {
    fail(row, what + ": " + std::to_string(got.size()) + " elements, expected " +
                  std::to_string(ref.size()));
    return;
  }
  for (size_t i = 0; i < got.size(); ++i)
    if (std::isnan(double(got[i])) != std::isnan(double(ref[i]))) {
      fail(row, what + ": NaN mismatch at " + std::to_string(i));
      return;
    }
  double d = max_rel_diff(got, ref);
  if (!(d <= tol)) fail(row, what + ": max relative difference " + std::to_string(d) + " > " +
                                 std::to_string(tol));
}

template <class T>
void expect_equal(Row& row, const std::string& what, const std::vector<T>& got,
                  const std::vector<T>& ref) {
  if (got.size() != ref.size()) {
    fail(row, what + ": " + std::to_string(got.size()) + " elements, expected " +
                  std::to_string(ref.size()));
    return;
  }
  for (size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == ref[i])) {
      fail(row, what + ": element " + std::to_string(i) + " differs");
      return;
    }
}

void expect_scalar(Row& row, const std::string& what, double got, double ref, double tol);

// --- deterministic inputs -------------------------------------------------------

// Uniform in [0, 1): a counter-based generator (splitmix64 of seed and i), so
// inputs are the same whatever the thread count and can be made in parallel.
inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
inline double uniform01(uint64_t seed, uint64_t i) {
  return double(mix64(mix64(seed) ^ i) >> 11) * 0x1.0p-53;
}
// n values lo + (hi - lo) * uniform01(seed, i).
std::vector<double> uniform_doubles(uint64_t seed, int64_t n, double lo, double hi);
std::vector<float> uniform_floats(uint64_t seed, int64_t n, float lo, float hi);
std::vector<int32_t> uniform_ints(uint64_t seed, int64_t n, int64_t lo, int64_t hi);  // [lo, hi)

std::string fmt_count(int64_t n);  // 1000000 -> "1e6", 4096 -> "4096"

// --- the programs (one file each) -----------------------------------------------
void bench_kmeans(Bench& b);
void bench_blackscholes(Bench& b);
void bench_nbody(Bench& b);
void bench_pythagorean(Bench& b);
void bench_smvm(Bench& b);
void bench_dot(Bench& b);
void bench_saxpy(Bench& b);
void bench_filtercount(Bench& b);
void bench_sort(Bench& b);
void bench_dgemm(Bench& b);
void bench_groupby(Bench& b);

}  // namespace whole
