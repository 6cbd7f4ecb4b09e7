// Shared machinery of arrc_bench_whole: see harness.h.
#include "harness.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace whole {

namespace {
using clk = std::chrono::steady_clock;

double elapsed_ms(clk::time_point t0) {
  return std::chrono::duration<double, std::milli>(clk::now() - t0).count();
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      auto c = line.find(':');
      return c == std::string::npos ? line : line.substr(c + 2);
    }
  return "unknown CPU";
}

// The 1-minute load average (other processes competing for the cores).
std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string first;
  in >> first;
  return first.empty() ? "?" : first;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (c == '\n') o += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) o += ' ';
    else o += c;
  }
  return o;
}

std::string json_stats(const Stats& s) {
  if (s.empty()) return "null";
  std::ostringstream o;
  o.precision(6);
  o << "{\"median_ms\": " << s.median() << ", \"min_ms\": " << s.min() << ", \"max_ms\": " << s.max()
    << ", \"samples_ms\": [";
  for (size_t i = 0; i < s.ms.size(); ++i) o << (i ? ", " : "") << s.ms[i];
  o << "]}";
  return o.str();
}

// "12.3 (11.9-13.0) x5"; "-" when not measured.
std::string cell(const Stats& s) {
  if (s.empty()) return "-";
  char buf[96];
  if (s.ms.size() == 1) {
    std::snprintf(buf, sizeof buf, "%.3f (1 run)", s.median());
  } else {
    std::snprintf(buf, sizeof buf, "%.3f (%.3f-%.3f) x%zu", s.median(), s.min(), s.max(), s.ms.size());
  }
  return buf;
}

std::string ratio(const Stats& num, const Stats& den) {
  if (num.empty() || den.empty() || den.median() <= 0) return "-";
  char buf[32];
  double r = num.median() / den.median();
  std::snprintf(buf, sizeof buf, r >= 100 ? "%.0f" : r >= 10 ? "%.1f" : "%.2f", r);
  return buf;
}

std::string device_desc;  // of the first context made

// A positive size such as 1000000, 1e6 or 2.5e5.
int64_t parse_size(const std::string& program, const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(v >= 1) || v > 9e18)
    throw std::runtime_error("--size " + program + "=" + text + ": not a positive size");
  return static_cast<int64_t>(v);
}
}  // namespace

double Stats::median() const {
  std::vector<double> v = ms;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
double Stats::min() const { return *std::min_element(ms.begin(), ms.end()); }
double Stats::max() const { return *std::max_element(ms.begin(), ms.end()); }

Bench::Bench(Options opts) : opts_(std::move(opts)), load_at_start_(load_average()) {
  if (opts_.check_only) opts_.reps = 1;
  for (auto& [program, text] : opts_.sizes) sizes(program, "", "", "");  // bad --size: fail now
  if (opts_.cache_dir.empty()) {
    std::string base = std::filesystem::temp_directory_path().string() + "/arrc-bench-whole-XXXXXX";
    std::vector<char> tmpl(base.begin(), base.end());
    tmpl.push_back('\0');
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed for " + base);
    tmp_root_ = tmpl.data();
    // The OpenCL implementations' own caches must be cold too, for every
    // program (two rows may run the same module): PoCL's kernel cache is
    // off (its scratch files go to the fresh directory), NVIDIA's JIT cache
    // is disabled. Set before the first OpenCL call: both are read when the
    // platform loads.
    setenv("POCL_CACHE_DIR", (tmp_root_ + "/pocl").c_str(), 1);
    setenv("POCL_KERNEL_CACHE", "0", 1);
    setenv("CUDA_CACHE_DISABLE", "1", 1);
  }
}

Bench::~Bench() {
  if (!tmp_root_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(tmp_root_, ec);
  }
}

bool Bench::selected(const std::string& program) const {
  return opts_.only.empty() || opts_.only.count(program) > 0;
}

int64_t Bench::size(const std::string& program, int64_t tiny, int64_t small, int64_t full) const {
  auto it = opts_.sizes.find(program);
  if (it != opts_.sizes.end()) return parse_size(program, it->second);
  return opts_.scale == "tiny" ? tiny : opts_.scale == "full" ? full : small;
}

std::vector<int64_t> Bench::sizes(const std::string& program, const std::string& tiny,
                                  const std::string& small, const std::string& full) const {
  auto it = opts_.sizes.find(program);
  std::string list = it != opts_.sizes.end()          ? it->second
                     : opts_.scale == "tiny" ? tiny
                     : opts_.scale == "full" ? full
                                             : small;
  std::vector<int64_t> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(parse_size(program, item));
  return out;
}

std::unique_ptr<arrc::Context> Bench::context(const std::string& program) {
  arrc::ContextOptions o;
  if (!opts_.cache_dir.empty()) {
    o.cache_dir = opts_.cache_dir;
  } else {
    o.cache_dir = tmp_root_ + "/" + program;
    std::filesystem::create_directories(o.cache_dir);
  }
  auto ctx = std::make_unique<arrc::Context>(o);
  if (device_desc.empty()) {
    device_desc = ctx->describe();
    std::printf("device: %s\n", device_desc.c_str());
    std::fflush(stdout);
  }
  return ctx;
}

Stats Bench::time(const std::function<void()>& fn, bool warmup, const std::function<void()>& setup) {
  Stats s;
  double total = 0;
  if (warmup && !opts_.check_only) {
    if (setup) setup();
    auto t0 = clk::now();
    fn();
    double t = elapsed_ms(t0);
    if (t >= 500 * opts_.budget_s) {  // over half the budget: this run is the only sample
      s.ms.push_back(t);
      return s;
    }
  }
  for (int r = 0; r < opts_.reps; ++r) {
    if (setup) setup();
    auto t0 = clk::now();
    fn();
    double t = elapsed_ms(t0);
    s.ms.push_back(t);
    total += t;
    if (total >= 1000 * opts_.budget_s) break;
  }
  return s;
}

Stats Bench::device(Row& row, arrc::Context& ctx, const std::function<void()>& fn, bool warmup,
                    const std::function<void()>& setup) {
  Stats s = time(fn, warmup, setup);
  if (setup) setup();
  ctx.finish();
  uint64_t l0 = ctx.launch_count(), r0 = ctx.blocking_read_count();
  fn();
  row.launches = int64_t(ctx.launch_count() - l0);
  row.round_trips = int64_t(ctx.blocking_read_count() - r0);
  return s;
}

double Bench::once(const std::function<void()>& fn) {
  auto t0 = clk::now();
  fn();
  return elapsed_ms(t0);
}

void Bench::add(Row row) {
  // One line per program as it finishes, so a long run shows progress.
  std::printf("  %-22s %-24s device %s, seq %s, omp %s%s\n", row.program.c_str(), row.size.c_str(),
              cell(row.device).c_str(), cell(row.seq).c_str(), cell(row.omp).c_str(),
              row.failures.empty() ? "" : "  FAIL");
  for (auto& f : row.failures) std::printf("    FAIL: %s\n", f.c_str());
  std::fflush(stdout);
  rows_.push_back(std::move(row));
}

int Bench::failures() const {
  int n = 0;
  for (auto& r : rows_) n += !r.failures.empty();
  return n;
}

void Bench::print_table() const {
  std::printf("\ndevice: %s\nhost: %s, OpenMP threads: %d, load average %s at the start, %s at the end\n",
              device_desc.c_str(), cpu_model().c_str(), omp_get_max_threads(), load_at_start_.c_str(),
              load_average().c_str());
  std::printf("times in ms: median (min-max) xsamples; x seq / x omp = C++ time / arrc time "
              "(above 1: arrc faster)\n\n");
  std::printf("| program | size | type | arrc cold | arrc on device | arrc + transfers | seq C++ | "
              "OpenMP C++ | x seq | x omp | x seq (+transfers) | launches / reads per call | check |\n");
  std::printf("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
  for (auto& r : rows_) {
    char cold[32] = "-";
    if (r.cold_ms >= 0) std::snprintf(cold, sizeof cold, "%.1f", r.cold_ms);
    char calls[48] = "-";
    if (r.launches >= 0) std::snprintf(calls, sizeof calls, "%lld / %lld", (long long)r.launches,
                                       (long long)r.round_trips);
    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.program.c_str(),
                r.size.c_str(), r.type.c_str(), cold, cell(r.device).c_str(), cell(r.transfers).c_str(),
                cell(r.seq).c_str(), cell(r.omp).c_str(), ratio(r.seq, r.device).c_str(),
                ratio(r.omp, r.device).c_str(), ratio(r.seq, r.transfers).c_str(), calls,
                r.failures.empty() ? "ok" : "FAIL");
  }
  for (auto& r : rows_)
    if (!r.note.empty()) std::printf("\n* %s: %s", r.program.c_str(), r.note.c_str());
  std::printf("\n");
}

void Bench::write_json(const std::string& path) const {
  std::ofstream o(path);
  if (!o) throw std::runtime_error("cannot write " + path);
  o << "{\n  \"device\": \"" << json_escape(device_desc) << "\",\n  \"host\": \""
    << json_escape(cpu_model()) << "\",\n  \"omp_threads\": " << omp_get_max_threads()
    << ",\n  \"load_average\": [\"" << load_at_start_ << "\", \"" << load_average() << "\"]"
    << ",\n  \"scale\": \"" << json_escape(opts_.scale) << "\",\n  \"reps\": " << opts_.reps
    << ",\n  \"cold_cache\": " << (opts_.cache_dir.empty() ? "true" : "false") << ",\n  \"rows\": [\n";
  for (size_t i = 0; i < rows_.size(); ++i) {
    auto& r = rows_[i];
    o << "    {\"program\": \"" << json_escape(r.program) << "\", \"size\": \"" << json_escape(r.size)
      << "\", \"type\": \"" << json_escape(r.type) << "\", \"note\": \"" << json_escape(r.note) << "\",\n"
      << "     \"cold_ms\": ";
    if (r.cold_ms >= 0) o << r.cold_ms; else o << "null";
    o << ",\n     \"launches\": " << r.launches << ", \"round_trips\": " << r.round_trips;
    o << ",\n     \"device\": " << json_stats(r.device) << ",\n     \"transfers\": " << json_stats(r.transfers)
      << ",\n     \"seq\": " << json_stats(r.seq) << ",\n     \"omp\": " << json_stats(r.omp)
      << ",\n     \"check\": \"" << (r.failures.empty() ? "ok" : "FAIL") << "\", \"failures\": [";
    for (size_t j = 0; j < r.failures.size(); ++j)
      o << (j ? ", " : "") << "\"" << json_escape(r.failures[j]) << "\"";
    o << "]}" << (i + 1 < rows_.size() ? "," : "") << "\n";
  }
  o << "  ]\n}\n";
}

void fail(Row& row, const std::string& what) { row.failures.push_back(what); }

void expect_scalar(Row& row, const std::string& what, double got, double ref, double tol) {
  double d = std::fabs(got - ref) / std::max(std::fabs(ref), 1e-300);
  if (!(got == ref || d <= tol)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, ": got %.17g, expected %.17g", got, ref);
    fail(row, what + buf);
  }
}

std::vector<double> uniform_doubles(uint64_t seed, int64_t n, double lo, double hi) {
  std::vector<double> v(n);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) v[i] = lo + (hi - lo) * uniform01(seed, i);
  return v;
}

std::vector<float> uniform_floats(uint64_t seed, int64_t n, float lo, float hi) {
  std::vector<float> v(n);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) v[i] = lo + (hi - lo) * float(uniform01(seed, i));
  return v;
}

std::vector<int32_t> uniform_ints(uint64_t seed, int64_t n, int64_t lo, int64_t hi) {
  std::vector<int32_t> v(n);
  const uint64_t span = static_cast<uint64_t>(hi - lo);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i)
    v[i] = static_cast<int32_t>(lo + static_cast<int64_t>(mix64(mix64(seed) ^ i) % span));
  return v;
}

std::string fmt_count(int64_t n) {
  int e = 0;
  int64_t m = n;
  while (m >= 10 && m % 10 == 0) m /= 10, ++e;
  if (e >= 4) return std::to_string(m) + "e" + std::to_string(e);
  return std::to_string(n);
}

}  // namespace whole
