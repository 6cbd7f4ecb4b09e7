// Context, program cache, kernel launch, device-side errors, memory errors.
#include <doctest/doctest.h>

#include <cctype>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "common.h"

using namespace arrc;
using arrc_test::ctx;

namespace {
const ProgramSource& axpy_program() {
  static ProgramSource p(std::string(kernel_prelude()) + R"CLC(
__kernel void axpy(long n, float a, __global const float* x, __global float* y) {
  long i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
__kernel void checked_get(long n, __global const int* x, long xn, __global const long* idx,
                          __global int* out, __global long* err, int pos) {
  long i = get_global_id(0);
  if (i >= n) return;
  long j = idx[i];
  if (!arrc_in_bounds(err, pos, j, xn, 0)) return;
  out[i] = x[j];
}
__kernel void shape_fail(__global long* err, int pos, long a, long b) {
  if (get_global_id(0) == 0 && a != b) arrc_raise(err, ARRC_ERR_SHAPE, pos, a, b, 0);
}
)CLC");
  return p;
}
}  // namespace

TEST_CASE("context: chooses a device and reports it") {
  Context& c = ctx();
  CHECK(!c.device_name().empty());
  CHECK(!c.platform_name().empty());
  CHECK(c.describe().find(c.device_name()) != std::string::npos);
  CHECK(c.max_alloc_bytes() > 0);
  CHECK(c.compute_units() > 0);
  MESSAGE("device: " << c.describe() << " fp64=" << c.supports_fp64());
}

TEST_CASE("context: bad ARRC_DEVICE name raises arrc::Error and the default context stays usable") {
  ContextOptions o;
  o.device = "no-such-device-xyz";
  try {
    Context bad(o);
    FAIL("expected arrc::Error");
  } catch (const Error& e) {
    std::string m = e.what();
    CHECK(m.find("no-such-device-xyz") != std::string::npos);
    CHECK(m.find("available") != std::string::npos);
  }
  // case-insensitive substring of the platform name selects it
  ContextOptions o2;
  std::string pn = ctx().platform_name();
  for (auto& ch : pn) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  o2.device = pn.substr(0, 4);
  Context c2(o2);
  CHECK(c2.platform_name() == ctx().platform_name());
  auto a = Array<int32_t, 1>::from(ctx(), std::vector<int32_t>{1, 2, 3});
  CHECK(a.to_vector() == std::vector<int32_t>{1, 2, 3});
}

TEST_CASE("context: $ARRC_DEVICE selects the device when no option names one") {
  std::string dn = ctx().device_name();
  for (auto& ch : dn) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const char* old = std::getenv("ARRC_DEVICE");
  std::string saved = old ? old : "";
  ::setenv("ARRC_DEVICE", dn.substr(0, 6).c_str(), 1);
  ContextOptions o;  // no device named: $ARRC_DEVICE decides
  o.cache_dir = arrc_test::cache_dir;
  {
    Context c(o);
    CHECK(c.device_name() == ctx().device_name());
  }
  ::setenv("ARRC_DEVICE", "no-such-device-xyz", 1);
  try {
    Context bad(o);
    FAIL("expected arrc::Error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("no-such-device-xyz") != std::string::npos);
  }
  if (old) ::setenv("ARRC_DEVICE", saved.c_str(), 1);
  else ::unsetenv("ARRC_DEVICE");
}

TEST_CASE("context: profiling reports kernels and transfers with their times") {
  ContextOptions o;
  o.profile = 1;
  o.cache_dir = arrc_test::cache_dir;
  Context c(o);
  CHECK(c.profiling());
  const int64_t n = 1000;
  std::vector<float> hx(n, 1.0f);
  auto X = Array<float, 1>::from(c, hx);
  auto Y = Array<float, 1>::zeros(c, {n});
  c.launch(c.kernel(axpy_program(), "axpy"), round_up(n, 64), 64, n, 2.0f, X, Y.buffer());
  CHECK(Y.to_vector() == std::vector<float>(n, 2.0f));
  std::string r = c.profile_report();
  MESSAGE(r);
  CHECK(r.find("axpy") != std::string::npos);
  CHECK(r.find("[write host->device]") != std::string::npos);
  CHECK(r.find("[read device->host]") != std::string::npos);
  // one axpy call, with a time in ms
  auto line = r.substr(r.find("axpy"));
  line = line.substr(0, line.find('\n'));
  int calls = 0;
  double ms = -1;
  CHECK(std::sscanf(line.c_str(), "axpy %d %lf", &calls, &ms) == 2);
  CHECK(calls == 1);
  CHECK(ms >= 0.0);
}

TEST_CASE("launch: variadic launch with arrays, buffers and scalars") {
  Context& c = ctx();
  const int64_t n = 1000;
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = static_cast<float>(2 * i);
  }
  auto X = Array<float, 1>::from(c, x);
  auto Y = Array<float, 1>::from(c, y);
  cl_kernel k = c.kernel(axpy_program(), "axpy");
  c.launch(k, round_up(n, 64), 64, int64_t{n}, 3.0f, X, Y.buffer());
  auto r = Y.to_vector();
  for (int64_t i = 0; i < n; ++i) REQUIRE(r[i] == doctest::Approx(3.0 * i + 2.0 * i));
}

TEST_CASE("cache: a second context loads programs from disk; corrupt files are ignored") {
  static ProgramSource p(R"CLC(
__kernel void twice(__global int* x) { x[get_global_id(0)] *= 2; }
)CLC");
  uint64_t disk_before = 0;
  {
    Context c1;
    c1.kernel(p, "twice");
    CHECK(c1.cache_stats().builds == 1);
    c1.kernel(p, "twice");
    CHECK(c1.cache_stats().memory_hits >= 1);
  }
  {
    Context c2;
    disk_before = c2.cache_stats().disk_hits;
    cl_kernel k = c2.kernel(p, "twice");
    CHECK(c2.cache_stats().disk_hits == disk_before + 1);
    CHECK(c2.cache_stats().builds == 0);
    auto a = Array<int32_t, 1>::from(c2, std::vector<int32_t>{1, 2, 3});
    c2.launch(k, 3, NDRange(), a);
    CHECK(a.to_vector() == std::vector<int32_t>{2, 4, 6});
  }
  // corrupt every cached binary
  int corrupted = 0;
  for (auto& e : std::filesystem::directory_iterator(arrc_test::cache_dir)) {
    std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(40);
    f.write("garbage!garbage!", 16);
    ++corrupted;
  }
  CHECK(corrupted > 0);
  {
    Context c3;
    cl_kernel k = c3.kernel(p, "twice");
    CHECK(c3.cache_stats().disk_rejected == 1);
    CHECK(c3.cache_stats().builds == 1);
    CHECK(c3.cache_stats().disk_writes == 1);
    auto a = Array<int32_t, 1>::from(c3, std::vector<int32_t>{5});
    c3.launch(k, 1, NDRange(), a);
    CHECK(a.to_vector() == std::vector<int32_t>{10});
  }
  {
    Context c4;  // the rewritten file is valid again
    c4.kernel(p, "twice");
    CHECK(c4.cache_stats().disk_hits == 1);
    CHECK(c4.cache_stats().builds == 0);
  }
  {
    // truncated file
    for (auto& e : std::filesystem::directory_iterator(arrc_test::cache_dir))
      std::filesystem::resize_file(e.path(), 20);
    Context c5;
    c5.kernel(p, "twice");
    CHECK(c5.cache_stats().disk_rejected == 1);
    CHECK(c5.cache_stats().builds == 1);
  }
}

TEST_CASE("cache: build failure raises arrc::Error with the build log; context stays usable") {
  static ProgramSource bad("__kernel void broken(__global int* x) { x[0] = undeclared_thing; }");
  try {
    ctx().kernel(bad, "broken");
    FAIL("expected arrc::Error");
  } catch (const Error& e) {
    std::string m = e.what();
    CHECK(m.find("build failed") != std::string::npos);
    CHECK(m.find("undeclared_thing") != std::string::npos);
  }
  try {
    ctx().kernel(axpy_program(), "no_such_kernel");
    FAIL("expected arrc::Error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("no_such_kernel") != std::string::npos);
  }
  auto a = Array<int32_t, 1>::from(ctx(), std::vector<int32_t>{4, 5});
  CHECK(reduce(ctx(), a, Operator::add()) == 9);
}

TEST_CASE("device errors: out-of-bounds raised by a kernel becomes arrc::Error") {
  Context& c = ctx();
  const char* positions[] = {"main.arr:1:1", "prog.arr:3:7", "prog.arr:9:2"};
  auto x = Array<int32_t, 1>::from(c, std::vector<int32_t>{10, 11, 12, 13, 14});
  auto idx = Array<int64_t, 1>::from(c, std::vector<int64_t>{0, 4, 7, 2});
  auto out = Array<int32_t, 1>::zeros(c, {4});
  cl_kernel k = c.kernel(axpy_program(), "checked_get");
  c.check_errors(positions, 3);  // nothing pending
  c.launch(k, 4, NDRange(), int64_t{4}, x, int64_t{5}, idx, out, c.error_buffer(), int32_t{1});
  try {
    c.check_errors(positions, 3);
    FAIL("expected arrc::Error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "prog.arr:3:7: index 7 out of bounds for axis 0 of size 5");
  }
  c.check_errors(positions, 3);  // reset: no error pending any more
  // shape error code
  cl_kernel ks = c.kernel(axpy_program(), "shape_fail");
  c.launch(ks, 1, NDRange(), c.error_buffer(), int32_t{2}, int64_t{3}, int64_t{4});
  CHECK_THROWS_WITH_AS((c.check_errors(positions, 3)), "prog.arr:9:2: shape mismatch: 3 vs 4", Error);
  // the gather primitive raises through the same buffer
  auto g = gather(c, x, idx, 0);
  CHECK_THROWS_WITH_AS((c.check_errors(positions, 3)),
                       "main.arr:1:1: index 7 out of bounds for axis 0 of size 5", Error);
  auto idx2 = Array<int64_t, 1>::from(c, std::vector<int64_t>{4, 0});
  auto g2 = gather(c, x, idx2, 0);
  c.check_errors(positions, 3);
  CHECK(g2.to_vector() == std::vector<int32_t>{14, 10});
  // host-side formatting helper
  CHECK(std::string(bounds_error("f.arr:2:3", -1, 5, 1).what()) ==
        "f.arr:2:3: index -1 out of bounds for axis 1 of size 5");
  CHECK(format_error(ErrorCode::empty, "f.arr:1:1", 0, 0, 0).find("empty") != std::string::npos);
}

TEST_CASE("memory: too-large allocation raises out of device memory; pool reuses buffers") {
  Context& c = ctx();
  try {
    auto b = c.alloc(c.max_alloc_bytes() + 1);
    FAIL("expected arrc::Error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("out of device memory") != std::string::npos);
  }
  try {
    auto a = Array<double, 2>::alloc(c, {1 << 20, 1 << 20});
    FAIL("expected arrc::Error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("out of device memory") != std::string::npos);
  }
  PoolStats before = c.pool_stats();
  {
    auto b1 = c.alloc(100000);
  }
  {
    auto b2 = c.alloc(99000);  // same size class: reused
  }
  PoolStats after = c.pool_stats();
  CHECK(after.reuses >= before.reuses + 1);
  auto a = Array<int32_t, 1>::from(c, std::vector<int32_t>{1, 2});
  CHECK(reduce(c, a, Operator::add()) == 3);
}

namespace {
// Distance in units in the last place between two finite values of T (0 when
// equal, including +0 and -0).
template <class T, class I>
int64_t ulps(T a, T b) {
  auto key = [](T v) {
    I i;
    std::memcpy(&i, &v, sizeof v);
    return i < 0 ? std::numeric_limits<I>::min() - i : i;  // monotone in v
  };
  int64_t d = static_cast<int64_t>(key(a)) - static_cast<int64_t>(key(b));
  return d < 0 ? -d : d;
}
// Equal as IEEE values: both NaN, or the same bits (the sign of zero too).
template <class T>
bool same_value(T a, T b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}
constexpr size_t kSpecials = 34;  // the special values math_inputs starts with
template <class T>
std::vector<T> math_inputs(uint32_t seed, bool exponent) {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> v = {T(0), -T(0), T(1), T(-1), T(2), T(-2), T(0.5), T(-0.5), T(3), T(-3), T(1.5), T(-1.5),
                      inf, -inf, nan, std::numeric_limits<T>::min(), std::numeric_limits<T>::denorm_min(),
                      std::numeric_limits<T>::max(), -std::numeric_limits<T>::max(), T(0.84375), T(1) - T(1e-7),
                      T(5.9), T(5.95), T(6), T(-4.5), T(30), T(1e-30),
                      T(88.5), T(-90), T(-100), T(-103.9), T(709.5), T(-740), T(-744.5)};
  REQUIRE(v.size() == kSpecials);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (int k = 0; k < 4000; ++k) {
    double m = exponent ? (k % 3 == 0 ? std::round(u(rng) * 40 - 20) : u(rng) * 60 - 30)
                        : (k % 2 ? u(rng) * 8 - 4 : std::exp(u(rng) * 200 - 100));
    if (!exponent && k % 5 == 0) m = -m;
    v.push_back(static_cast<T>(m));
  }
  return v;
}
template <class T, class I>
void check_cpu_math(Context& c, const char* type) {
  std::string src = std::string(kernel_prelude()) + "#define T " + type + "\n" + R"CLC(
__kernel void math(long n, __global const T* x, __global const T* y, __global T* out) {
  long i = get_global_id(0);
  if (i >= n) return;
  out[4 * i] = log(x[i]);
  out[4 * i + 1] = erf(x[i]);
  out[4 * i + 2] = pow(x[i], y[i]);
  out[4 * i + 3] = exp(y[i]);
}
)CLC";
  ProgramSource prog(src);
  std::vector<T> xs = math_inputs<T>(7, false), ys0 = math_inputs<T>(8, true);
  // every x with every special y, then random pairs
  std::vector<T> X, Y;
  for (size_t i = 0; i < xs.size(); ++i) {
    for (size_t j = 0; j < kSpecials; ++j) X.push_back(xs[i]), Y.push_back(ys0[j]);
    X.push_back(xs[i]), Y.push_back(ys0[kSpecials + i % (ys0.size() - kSpecials)]);
  }
  const int64_t n = static_cast<int64_t>(X.size());
  auto AX = Array<T, 1>::from(c, X), AY = Array<T, 1>::from(c, Y);
  auto out = Array<T, 1>::zeros(c, {4 * n});
  c.launch(c.kernel(prog, "math"), round_up(static_cast<size_t>(n), 64), 64, n, AX, AY, out);
  std::vector<T> r = out.to_vector();
  // CPU devices run the prelude's own log, erf and pow (tight bounds) and
  // PoCL's exp (measured faster than a branch-free one: 1.0 against 1.3 ms
  // for 10^6 floats); other devices their built-ins, held to OpenCL's bounds.
  const bool cpu = !c.is_gpu();
  const bool dbl = sizeof(T) == 8;
  const int64_t log_ulps = cpu ? 1 : 3, erf_ulps = cpu ? 3 : 16, exp_ulps = cpu ? 2 : 4;
  int bad = 0;
  for (int64_t i = 0; i < n && bad < 10; ++i) {
    const T x = X[i], y = Y[i];
    const T want[4] = {std::log(x), std::erf(x), static_cast<T>(std::pow(static_cast<double>(x), static_cast<double>(y))),
                       std::exp(y)};
    for (int f = 0; f < 4; ++f) {
      const T got = r[4 * i + f], w = want[f];
      bool ok;
      if (std::isnan(w) || std::isnan(got)) {
        ok = std::isnan(w) && std::isnan(got);
      } else if (std::isinf(w) || std::isinf(got)) {
        ok = got == w;
      } else if (w == 0 && got == 0) {
        ok = std::signbit(w) == std::signbit(got);
      } else if (std::signbit(w) != std::signbit(got)) {
        ok = false;
      } else if (f != 2) {
        // exp: subnormal results lose bits to the two scalings (1 ulp there)
        ok = ulps<T, I>(got, w) <= (f == 0 ? log_ulps : f == 1 ? erf_ulps : exp_ulps);
      } else if (!dbl) {
        ok = ulps<T, I>(got, w) <= (cpu ? 1 : 16);
      } else {
        // double pow: within |y log|x|| * 2^-51 relative (or 4 ulps: subnormals)
        double l = std::fabs(static_cast<double>(y) * std::log(std::fabs(static_cast<double>(x))));
        double rel = std::fabs((static_cast<double>(got) - w) / w);
        ok = ulps<T, I>(got, w) <= 4 ||
             rel <= std::max(4.0, cpu ? l * 2 : 16.0) * std::numeric_limits<double>::epsilon();
      }
      if (!ok) {
        ++bad;
        const std::string name[4] = {"log", "erf", "pow", "exp"};
        std::ostringstream msg;
        msg.precision(17);
        msg << type << " " << name[f] << "(" << (f == 3 ? y : x);
        if (f == 2) msg << ", " << y;
        msg << ") = " << got << ", want " << w;
        FAIL_CHECK(msg.str());
      }
    }
  }
  CHECK(bad == 0);
}
}  // namespace

TEST_CASE("kernel prelude: log, erf, pow and exp agree with the host's libm (special values too)") {
  Context& c = ctx();
  check_cpu_math<float, int32_t>(c, "float");
  if (c.supports_fp64()) check_cpu_math<double, int64_t>(c, "double");
}
