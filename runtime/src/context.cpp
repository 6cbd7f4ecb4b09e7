// arrc runtime: Context, program cache (memory + disk), buffer pool,
// profiling, error buffer.
#include <arrc/array.h>

#include "impl.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <unistd.h>

namespace arrc {

// ---------------------------------------------------------------------------
// Errors

const char* cl_error_name(int32_t err) {
  switch (err) {
#define C(x) case x: return #x;
    C(CL_SUCCESS) C(CL_DEVICE_NOT_FOUND) C(CL_DEVICE_NOT_AVAILABLE)
    C(CL_COMPILER_NOT_AVAILABLE) C(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    C(CL_OUT_OF_RESOURCES) C(CL_OUT_OF_HOST_MEMORY)
    C(CL_PROFILING_INFO_NOT_AVAILABLE) C(CL_MEM_COPY_OVERLAP)
    C(CL_BUILD_PROGRAM_FAILURE) C(CL_MAP_FAILURE)
    C(CL_MISALIGNED_SUB_BUFFER_OFFSET) C(CL_COMPILE_PROGRAM_FAILURE)
    C(CL_LINK_PROGRAM_FAILURE) C(CL_INVALID_VALUE) C(CL_INVALID_DEVICE_TYPE)
    C(CL_INVALID_PLATFORM) C(CL_INVALID_DEVICE) C(CL_INVALID_CONTEXT)
    C(CL_INVALID_QUEUE_PROPERTIES) C(CL_INVALID_COMMAND_QUEUE)
    C(CL_INVALID_HOST_PTR) C(CL_INVALID_MEM_OBJECT) C(CL_INVALID_BINARY)
    C(CL_INVALID_BUILD_OPTIONS) C(CL_INVALID_PROGRAM)
    C(CL_INVALID_PROGRAM_EXECUTABLE) C(CL_INVALID_KERNEL_NAME)
    C(CL_INVALID_KERNEL_DEFINITION) C(CL_INVALID_KERNEL) C(CL_INVALID_ARG_INDEX)
    C(CL_INVALID_ARG_VALUE) C(CL_INVALID_ARG_SIZE) C(CL_INVALID_KERNEL_ARGS)
    C(CL_INVALID_WORK_DIMENSION) C(CL_INVALID_WORK_GROUP_SIZE)
    C(CL_INVALID_WORK_ITEM_SIZE) C(CL_INVALID_GLOBAL_OFFSET)
    C(CL_INVALID_EVENT_WAIT_LIST) C(CL_INVALID_EVENT) C(CL_INVALID_OPERATION)
    C(CL_INVALID_BUFFER_SIZE) C(CL_INVALID_GLOBAL_WORK_SIZE)
#undef C
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "unknown OpenCL error";
  }
}

static bool is_oom(int32_t err) {
  return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
         err == CL_OUT_OF_HOST_MEMORY;
}

void check_cl(int32_t err, const char* what) {
  if (err == CL_SUCCESS) return;
  std::ostringstream os;
  if (is_oom(err)) os << "out of device memory: ";
  os << what << ": " << cl_error_name(err) << " (" << err << ")";
  throw Error(os.str());
}

std::string format_error(ErrorCode code, const std::string& pos, int64_t index,
                         int64_t extent, int64_t axis) {
  std::ostringstream os;
  if (!pos.empty()) os << pos << ": ";
  switch (code) {
    // Sizes of -1 mean "not known here" (checks inside device code: a
    // guard of lowering raises the check's code without its values).
    case ErrorCode::bounds:
      if (extent < 0)
        os << "index out of bounds";
      else
        os << "index " << index << " out of bounds for axis " << axis << " of size " << extent;
      break;
    case ErrorCode::shape:
      os << "shape mismatch";
      if (index >= 0 && extent >= 0) os << ": " << index << " vs " << extent;
      if (axis > 0) os << " (axis " << axis << ")";
      break;
    case ErrorCode::zip:
      os << "zip of arrays of unequal sizes";
      if (index >= 0 && extent >= 0) os << ": " << index << " vs " << extent;
      break;
    case ErrorCode::empty:
      os << "maximum/minimum of an empty array";
      break;
    case ErrorCode::section:
      os << "section bound " << index << " out of range for axis " << axis << " of size "
         << extent;
      break;
    case ErrorCode::negative_size:
      os << "negative size " << index;
      break;
    case ErrorCode::none:
    case ErrorCode::generic:
    default:
      os << "runtime error (code " << static_cast<int>(code) << ", values " << index << ", "
         << extent << ", " << axis << ")";
      break;
  }
  return os.str();
}

const char* kernel_prelude() {
  return R"CLC(
#ifndef ARRC_PRELUDE_H
#define ARRC_PRELUDE_H
#define ARRC_ERR_BOUNDS 1
#define ARRC_ERR_SHAPE 2
#define ARRC_ERR_ZIP 3
#define ARRC_ERR_EMPTY 4
#define ARRC_ERR_SECTION 5
#define ARRC_ERR_NEGATIVE_SIZE 6
#define ARRC_ERR_GENERIC 7
inline void arrc_raise(__global long* err, int code, int pos, long index, long extent, long axis) {
  if (atomic_cmpxchg((volatile __global int*)err, 0, code) == 0) {
    err[1] = pos; err[2] = index; err[3] = extent; err[4] = axis;
  }
}
inline void arrc_raise_bounds(__global long* err, int pos, long index, long extent, int axis) {
  arrc_raise(err, ARRC_ERR_BOUNDS, pos, index, extent, axis);
}
// extent >= 0: one unsigned comparison tests both ends
inline int arrc_in_bounds(__global long* err, int pos, long index, long extent, int axis) {
  if ((ulong)index >= (ulong)extent) { arrc_raise_bounds(err, pos, index, extent, axis); return 0; }
  return 1;
}
#endif
#if defined(ARRC_CPU) && !defined(ARRC_CPU_MATH_H)
#define ARRC_CPU_MATH_H
// CPU devices (the runtime builds with -DARRC_CPU=1 there): float log and erf
// without branches, so that the device compiler vectorises them across
// work-items (PoCL's own are scalar: 12-14 ns per call on one core, against
// 0.3-1.1 ns for these). musl's logf (fdlibm's polynomial, < 0.76 ulp) and a
// minimax erff (1 - exp(p(|x|)) above 0.9277, x p(x^2) below), both checked
// against double-precision glibc over every float. double keeps the built-ins.
#ifdef FP_FAST_FMAF
#define ARRC_FMAF(a, b, c) fma(a, b, c)
#else
#define ARRC_FMAF(a, b, c) ((a) * (b) + (c))
#endif
static inline float __attribute__((overloadable, always_inline)) arrc_cpu_log(float x) {
  const int sub = x < 1.17549435e-38f;  /* subnormal: scale by 2^25 */
  uint ix = as_uint(sub ? x * 33554432.0f : x);
  ix += 0x3f800000u - 0x3f3504f3u;  /* m in [sqrt(2)/2, sqrt(2)) */
  const int k = (int)(ix >> 23) - 0x7f - (sub ? 25 : 0);
  const float f = as_float((ix & 0x007fffffu) + 0x3f3504f3u) - 1.0f;
  const float s = f / (2.0f + f), z = s * s, w = z * z;
  const float R = z * (0.66666662693f + w * 0.28498786688f) + w * (0.40000972152f + w * 0.24279078841f);
  const float hfsq = 0.5f * f * f, dk = (float)k;
  float r = s * (hfsq + R) + dk * 9.0580006145e-06f - hfsq + f + dk * 6.9313812256e-01f;
  r = x == 1.0f ? 0.0f : r;
  r = x == INFINITY ? x : r;
  r = x == 0.0f ? -INFINITY : r;
  return (x < 0.0f || isnan(x)) ? NAN : r;
}
// e^x for x <= 0 (erf's tail; below -87 it is 0 to erf): x = n ln2 + r with
// |r| <= ln2/2 (Cody-Waite), a degree-7 Taylor polynomial, 2^n from the
// exponent bits. PoCL's exp, inlined twice in one kernel, stops its
// vectoriser (Black-Scholes: 4 erf calls).
static inline __attribute__((always_inline)) float arrc_cpu_exp_neg(float x) {
  x = fmax(x, -87.0f);
  const float n = rint(x * 1.44269504f);
  const float r = ARRC_FMAF(n, -1.42860677e-06f, ARRC_FMAF(n, -0.693145751953125f, x));
  float p = 1.98412698e-4f;
  p = ARRC_FMAF(p, r, 1.38888889e-3f);
  p = ARRC_FMAF(p, r, 8.33333333e-3f);
  p = ARRC_FMAF(p, r, 4.16666667e-2f);
  p = ARRC_FMAF(p, r, 1.66666667e-1f);
  p = ARRC_FMAF(p, r, 0.5f);
  p = ARRC_FMAF(p, r, 1.0f);
  p = ARRC_FMAF(p, r, 1.0f);
  return p * as_float((uint)((int)n + 127) << 23);
}
static inline float __attribute__((overloadable, always_inline)) arrc_cpu_erf(float a) {
  const float t = fabs(a), s = a * a;
  float r = ARRC_FMAF(-1.72853470e-5f, t, 3.83197126e-4f);
  const float u = ARRC_FMAF(-3.88396438e-3f, t, 2.42546219e-2f);
  r = ARRC_FMAF(r, s, u);
  r = ARRC_FMAF(r, t, -1.06777877e-1f);
  r = ARRC_FMAF(r, t, -6.34846687e-1f);
  r = ARRC_FMAF(r, t, -1.28717512e-1f);
  r = ARRC_FMAF(r, t, -t);
  r = copysign(1.0f - arrc_cpu_exp_neg(r), a);
  float q = -5.96761703e-4f;
  q = ARRC_FMAF(q, s, 4.99119423e-3f);
  q = ARRC_FMAF(q, s, -2.67681349e-2f);
  q = ARRC_FMAF(q, s, 1.12819925e-1f);
  q = ARRC_FMAF(q, s, -3.76125336e-1f);
  q = ARRC_FMAF(q, s, 1.28379166e-1f);
  q = ARRC_FMAF(q, a, a);
  return t > 0.927734375f ? r : q;
}
#ifdef cl_khr_fp64
// double log, exp, erf and pow of both types, without branches either
// (PoCL's, one core: log 13.5 ns, erf 65 ns, pow 83-88 ns per call; glibc's
// 4-10 ns). log: fdlibm's reduction and polynomial (< 1 ulp). exp: Cody-Waite
// reduction, a degree-13 Taylor polynomial, 2^n as two factors (so that
// subnormal results and n = 1024 need no branch). erf: x p(x^2) below 1, else
// 1 - e^(-x^2) q(1/x) / x (Chebyshev fits made with mpmath, <= 2 ulp against
// it), 1 from 5.95 on. pow: e^(y log|x|) in double with C99's special cases
// as selects; for float exact to < 1 ulp, for double within
// |y log|x|| * 2^-52 relative (the product's and log's rounding). Always
// inlined: a kernel calling erf twice (Black-Scholes) otherwise calls it,
// and the vectoriser stops at the call.
#ifdef FP_FAST_FMA
#define ARRC_FMA(a, b, c) fma(a, b, c)
#else
#define ARRC_FMA(a, b, c) ((a) * (b) + (c))
#endif
static inline __attribute__((always_inline)) double arrc_cpu_logd(double x) {
  const int sub = x < 2.2250738585072014e-308;  /* subnormal: scale by 2^54 */
  ulong ix = as_ulong(sub ? x * 18014398509481984.0 : x);
  ix += 0x3ff0000000000000ul - 0x3fe6a09e667f3bcdul;  /* m in [sqrt(2)/2, sqrt(2)) */
  const int k = (int)(ix >> 52) - 0x3ff - (sub ? 54 : 0);
  const double f = as_double((ix & 0x000ffffffffffffful) + 0x3fe6a09e667f3bcdul) - 1.0;
  const double s = f / (2.0 + f), z = s * s, w = z * z;
  const double t1 = w * ARRC_FMA(w, ARRC_FMA(w, 1.531383769920937332e-01, 2.222219843214978396e-01),
                                 3.999999999940941908e-01);
  const double t2 = z * ARRC_FMA(w, ARRC_FMA(w, ARRC_FMA(w, 1.479819860511658591e-01, 1.818357216161805012e-01),
                                              2.857142874366239149e-01), 6.666666666666735130e-01);
  const double hfsq = 0.5 * f * f, dk = (double)k;
  double r = s * (hfsq + t1 + t2) + dk * 1.90821492927058770002e-10 - hfsq + f + dk * 6.93147180369123816490e-01;
  r = x == 1.0 ? 0.0 : r;
  r = x == INFINITY ? x : r;
  r = x == 0.0 ? -INFINITY : r;
  return (x < 0.0 || isnan(x)) ? NAN : r;
}
static inline __attribute__((always_inline)) double arrc_cpu_expd(double x) {
  const double xc = fmin(fmax(x, -746.0), 710.0);
  const double n = rint(xc * 1.4426950408889634);
  /* n * ln2_hi is exact (its low 32 bits are 0) */
  const double r = (xc - n * 6.93147180369123816490e-01) - n * 1.90821492927058770002e-10;
  double p = 1.0 / 6227020800.0;
  p = ARRC_FMA(p, r, 1.0 / 479001600.0);
  p = ARRC_FMA(p, r, 1.0 / 39916800.0);
  p = ARRC_FMA(p, r, 1.0 / 3628800.0);
  p = ARRC_FMA(p, r, 1.0 / 362880.0);
  p = ARRC_FMA(p, r, 1.0 / 40320.0);
  p = ARRC_FMA(p, r, 1.0 / 5040.0);
  p = ARRC_FMA(p, r, 1.0 / 720.0);
  p = ARRC_FMA(p, r, 1.0 / 120.0);
  p = ARRC_FMA(p, r, 1.0 / 24.0);
  p = ARRC_FMA(p, r, 1.0 / 6.0);
  p = ARRC_FMA(p, r, 0.5);
  p = ARRC_FMA(p, r, 1.0);
  p = ARRC_FMA(p, r, 1.0);
  const long ni = (long)n, n1 = ni >> 1, n2 = ni - n1;
  const double y = p * as_double((ulong)(n1 + 1023) << 52) * as_double((ulong)(n2 + 1023) << 52);
  return isnan(x) ? x : y;
}
static inline __attribute__((always_inline)) double arrc_cpu_erfd(double x) {
  const double t = fabs(x), u = t * t;
  /* |x| < 1: x p(x^2), p fitted around x^2 = 0.5 */
  const double up = u - 0.5;
  double p = -7.795898827002142e-10;
  p = ARRC_FMA(p, up, 9.432320191926508e-09);
  p = ARRC_FMA(p, up, -1.0420387617195658e-07);
  p = ARRC_FMA(p, up, 1.0536323840680666e-06);
  p = ARRC_FMA(p, up, -9.614808641390195e-06);
  p = ARRC_FMA(p, up, 7.829649688379886e-05);
  p = ARRC_FMA(p, up, -0.0005611894221209664);
  p = ARRC_FMA(p, up, 0.003480274496570158);
  p = ARRC_FMA(p, up, -0.018283884489152684);
  p = ARRC_FMA(p, up, 0.07940998675593687);
  p = ARRC_FMA(p, up, -0.2810721780454342);
  p = ARRC_FMA(p, up, 0.9654687386698673);
  /* |x| >= 1: erfc(t) = e^(-t^2) q(v) v, v = 1/t, q fitted around v = 0.58403 */
  const double v = 1.0 / fmax(t, 1.0);
  const double vq = v - 0.5840336134453782;
  double q = 0.5881248883925912;
  q = ARRC_FMA(q, vq, -0.8357464483723777);
  q = ARRC_FMA(q, vq, 0.15463670996248832);
  q = ARRC_FMA(q, vq, 0.3205594613137361);
  q = ARRC_FMA(q, vq, -0.2451019274499533);
  q = ARRC_FMA(q, vq, 0.15525101554988102);
  q = ARRC_FMA(q, vq, -0.15674239116299224);
  q = ARRC_FMA(q, vq, 0.11537682533157902);
  q = ARRC_FMA(q, vq, -0.03596101357871302);
  q = ARRC_FMA(q, vq, -0.03365174590853053);
  q = ARRC_FMA(q, vq, 0.07758826639638258);
  q = ARRC_FMA(q, vq, -0.09275682241136915);
  q = ARRC_FMA(q, vq, 0.08008259140816433);
  q = ARRC_FMA(q, vq, -0.04634387120939132);
  q = ARRC_FMA(q, vq, 0.002856266642836338);
  q = ARRC_FMA(q, vq, 0.03743108043905066);
  q = ARRC_FMA(q, vq, -0.06275983004407847);
  q = ARRC_FMA(q, vq, 0.06511641227387945);
  q = ARRC_FMA(q, vq, -0.04230419440314983);
  q = ARRC_FMA(q, vq, -0.0006743735545811703);
  q = ARRC_FMA(q, vq, 0.051027492658298736);
  q = ARRC_FMA(q, vq, -0.08838372322519844);
  q = ARRC_FMA(q, vq, 0.08573355223678339);
  q = ARRC_FMA(q, vq, -0.01097610253377627);
  q = ARRC_FMA(q, vq, -0.17109440596443634);
  q = ARRC_FMA(q, vq, 0.49654667652821827);
  const double big = 1.0 - arrc_cpu_expd(-u) * q * v;
  const double r = t < 1.0 ? t * p : (t < 5.95 ? big : 1.0);
  return isnan(x) ? x : copysign(r, x);
}
static inline __attribute__((always_inline)) double arrc_cpu_powd(double x, double y) {
  double r = arrc_cpu_expd(y * arrc_cpu_logd(fabs(x)));
  const int yint = y == rint(y);  /* infinities count as (even) integers */
  const int yodd = yint && fabs(y) < 9007199254740992.0 && rint(y * 0.5) != y * 0.5;
  r = (signbit(x) && yodd) ? -r : r;
  r = (x < 0.0 && x != -INFINITY && !yint) ? NAN : r;
  r = (x == 1.0 || y == 0.0 || (x == -1.0 && isinf(y))) ? 1.0 : r;
  return r;
}
static inline double __attribute__((overloadable, always_inline)) arrc_cpu_log(double x) { return arrc_cpu_logd(x); }
static inline double __attribute__((overloadable, always_inline)) arrc_cpu_erf(double x) { return arrc_cpu_erfd(x); }
static inline double __attribute__((overloadable, always_inline)) arrc_cpu_pow(double x, double y) { return arrc_cpu_powd(x, y); }
static inline float __attribute__((overloadable, always_inline)) arrc_cpu_pow(float x, float y) {
  return (float)arrc_cpu_powd((double)x, (double)y);
}
#define pow(x, y) arrc_cpu_pow(x, y)
#endif
#define log(x) arrc_cpu_log(x)
#define erf(x) arrc_cpu_erf(x)
#endif
)CLC";
}

// ---------------------------------------------------------------------------
// Hashing

namespace {
struct Hasher {
  uint64_t a = 1469598103934665603ULL, b = 0x9e3779b97f4a7c15ULL;
  void add(const void* p, size_t n) {
    const unsigned char* s = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) {
      a = (a ^ s[i]) * 1099511628211ULL;
      b = (b ^ s[i]) * 0x100000001b3ULL + 0x2545f4914f6cdd1dULL;
      b ^= b >> 29;
    }
  }
  void add(const std::string& s) {
    uint64_t n = s.size();
    add(&n, sizeof n);
    add(s.data(), s.size());
  }
};
std::string hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}
std::atomic<uint64_t> next_program_id{1};
}  // namespace

ProgramSource::ProgramSource(std::string source, std::string options)
    : source_(std::move(source)), options_(std::move(options)), id_(next_program_id++) {
  Hasher h;
  h.add(source_);
  h.add(options_);
  hash_ = {h.a, h.b};
}

// ---------------------------------------------------------------------------
// Device selection

namespace {
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string platform_str(cl_platform_id p, cl_platform_info what) {
  size_t n = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS) return {};
  std::string s(n, '\0');
  clGetPlatformInfo(p, what, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}
std::string device_str(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS) return {};
  std::string s(n, '\0');
  clGetDeviceInfo(d, what, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}
template <class T>
T device_val(cl_device_id d, cl_device_info what) {
  T v{};
  clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
  return v;
}
const char* getenv_nonempty(const char* n) {
  const char* v = std::getenv(n);
  return (v && *v) ? v : nullptr;
}
}  // namespace

namespace detail {

void set_kernel_arg(cl_kernel k, cl_uint index, size_t size, const void* value) {
  cl_int err = clSetKernelArg(k, index, size, value);
  if (err != CL_SUCCESS) {
    std::string what = "clSetKernelArg(" + kernel_name_of(k) + ", arg " +
                       std::to_string(index) + ", " + std::to_string(size) + " bytes)";
    check_cl(err, what.c_str());
  }
}

std::string kernel_name_of(cl_kernel k) {
  size_t n = 0;
  if (clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &n) != CL_SUCCESS) return "?";
  std::string s(n, '\0');
  clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

size_t size_class(size_t bytes) {
  if (bytes <= 256) return 256;
  size_t p = 1;
  while (p * 2 <= bytes) p *= 2;
  size_t step = std::max<size_t>(p / 8, 1);
  return (bytes + step - 1) / step * step;
}

ContextImpl::~ContextImpl() {
  if (queue) clFinish(queue);
  for (auto& e : events) clReleaseEvent(e.event);
  for (auto& [id, pe] : programs) {
    for (auto& [n, k] : pe.kernels) clReleaseKernel(k);
    if (pe.program) clReleaseProgram(pe.program);
  }
  for (auto& [c, v] : free_lists)
    for (cl_mem m : v) clReleaseMemObject(m);
  if (err_buf) clReleaseMemObject(err_buf);
  for (cl_mem m : {scan_ctl, scan_aggs, scan_incs})
    if (m) clReleaseMemObject(m);
  release_staging(*this);
  if (queue) clReleaseCommandQueue(queue);
  if (context) clReleaseContext(context);
}


void ContextImpl::track(cl_event ev, const char* name, size_t bytes) {
  if (!ev) return;
  events.push_back({name, ev, bytes});
  if (events.size() >= 4096) drain_events();
}

void ContextImpl::drain_events() {
  if (events.empty()) return;
  clFinish(queue);
  for (auto& e : events) {
    cl_ulong t0 = 0, t1 = 0;
    if (clGetEventProfilingInfo(e.event, CL_PROFILING_COMMAND_START, sizeof t0, &t0, nullptr) ==
            CL_SUCCESS &&
        clGetEventProfilingInfo(e.event, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr) ==
            CL_SUCCESS) {
      auto& t = totals[e.name];
      t.count++;
      t.ms += (t1 - t0) * 1e-6;
      t.bytes += e.bytes;
    }
    clReleaseEvent(e.event);
  }
  events.clear();
}

std::string ContextImpl::report() {
  drain_events();
  std::ostringstream os;
  os << "arrc profile (" << device_name << ")\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-40s %8s %12s %12s %10s\n", "kernel/transfer", "calls",
                "total ms", "avg us", "GB/s");
  os << line;
  std::vector<std::pair<std::string, Totals>> v(totals.begin(), totals.end());
  std::sort(v.begin(), v.end(), [](auto& x, auto& y) { return x.second.ms > y.second.ms; });
  for (auto& [n, t] : v) {
    double gbs = t.bytes > 0 && t.ms > 0 ? t.bytes / (t.ms * 1e6) : 0;
    std::snprintf(line, sizeof line, "  %-40s %8llu %12.3f %12.2f %10.2f\n", n.c_str(),
                  static_cast<unsigned long long>(t.count), t.ms, t.ms * 1e3 / t.count, gbs);
    os << line;
  }
  return os.str();
}

static std::string cache_file(const ContextImpl& c, const ProgramSource& src,
                              const std::string& opts, std::array<uint64_t, 2>& key) {
  Hasher h;
  h.add(&src.hash()[0], 16);
  h.add(c.device_name);
  h.add(c.platform_name);
  h.add(c.driver_version);
  h.add(c.device_version);
  h.add(opts);
  key = {h.a, h.b};
  return c.cache_dir + "/" + hex(h.a) + hex(h.b) + ".clbin";
}

static const char kMagic[8] = {'A', 'R', 'R', 'C', 'B', 'I', 'N', '1'};

static bool load_binary(const std::string& path, const std::array<uint64_t, 2>& key,
                        std::vector<unsigned char>& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  char magic[8];
  uint64_t k[2], size = 0, sum = 0;
  if (!f.read(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) return false;
  if (!f.read(reinterpret_cast<char*>(k), 16) || k[0] != key[0] || k[1] != key[1]) return false;
  if (!f.read(reinterpret_cast<char*>(&size), 8) || size == 0 || size > (1ull << 31)) return false;
  out.resize(size);
  if (!f.read(reinterpret_cast<char*>(out.data()), size)) return false;
  if (!f.read(reinterpret_cast<char*>(&sum), 8)) return false;
  Hasher h;
  h.add(out.data(), out.size());
  return h.a == sum;
}

// Says once per process that the cache cannot be written (a read-only or
// full directory): programs are then built on each run, which is slow but
// not an error.
static void cache_not_written(const std::string& dir, const std::string& why) {
  static std::atomic<bool> said{false};
  const char* quiet = std::getenv("ARRC_QUIET");
  if (said.exchange(true) || (quiet && *quiet && std::strcmp(quiet, "0") != 0)) return;
  std::fprintf(stderr, "arrc: cannot write the kernel cache %s (%s): programs are built without caching\n",
               dir.c_str(), why.c_str());
}

// Writes the binary atomically (a temporary file renamed over the name), so
// readers see a whole file or none; false if it could not be written.
static bool store_binary(const std::string& dir, const std::string& path,
                         const std::array<uint64_t, 2>& key,
                         const std::vector<unsigned char>& bin) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  // unique per process and call, so concurrent writers never share a file
  static std::atomic<uint64_t> serial{0};
  std::string tmp = path + ".tmp" + std::to_string(::getpid()) + "." + std::to_string(serial++);
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) {
      cache_not_written(dir, std::strerror(errno));
      return false;
    }
    uint64_t size = bin.size();
    Hasher h;
    h.add(bin.data(), bin.size());
    f.write(kMagic, 8);
    f.write(reinterpret_cast<const char*>(key.data()), 16);
    f.write(reinterpret_cast<const char*>(&size), 8);
    f.write(reinterpret_cast<const char*>(bin.data()), size);
    f.write(reinterpret_cast<const char*>(&h.a), 8);
    f.flush();
    if (!f) {
      std::filesystem::remove(tmp, ec);
      cache_not_written(dir, "write failed");
      return false;
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    cache_not_written(dir, ec.message());
    return false;
  }
  return true;
}

static std::string build_log(cl_program p, cl_device_id d) {
  size_t n = 0;
  clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string s(n, '\0');
  clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, s.data(), nullptr);
  while (!s.empty() && (s.back() == '\0' || s.back() == '\n')) s.pop_back();
  return s;
}

// Says on stderr why the first run pauses: once per process, when builds
// from source have taken more than a second in all (a call may build several
// programs) and one is still going ($ARRC_QUIET=1 keeps it quiet;
// $ARRC_BUILD_NOTICE_MS changes the second, for tests). One object lives for
// the duration of one build.
class BuildNotice {
public:
  explicit BuildNotice(const std::string& device) : start_(std::chrono::steady_clock::now()) {
    const char* quiet = std::getenv("ARRC_QUIET");
    if (announced().load() || (quiet && *quiet && std::strcmp(quiet, "0") != 0)) return;
    long long after = 1000;
    if (const char* ms = std::getenv("ARRC_BUILD_NOTICE_MS"); ms && *ms) after = std::atoll(ms);
    auto wait = std::chrono::milliseconds(std::max(0LL, after - spent().load()));
    watcher_ = std::thread([this, device, wait] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!done_cv_.wait_for(lock, wait, [this] { return done_; }) && !announced().exchange(true))
        std::fprintf(stderr, "arrc: building OpenCL program for %s (cached afterwards)\u2026\n",
                     device.c_str());
    });
  }
  ~BuildNotice() {
    spent() += std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_)
                   .count();
    if (!watcher_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_cv_.notify_all();
    watcher_.join();
  }
  BuildNotice(const BuildNotice&) = delete;
  BuildNotice& operator=(const BuildNotice&) = delete;

private:
  static std::atomic<bool>& announced() {
    static std::atomic<bool> a{false};
    return a;
  }
  static std::atomic<long long>& spent() {  // ms taken by all builds from source so far
    static std::atomic<long long> s{0};
    return s;
  }
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  std::thread watcher_;
};

cl_program ContextImpl::build(const ProgramSource& src) {
  std::string opts = "-cl-std=CL1.2";
  if (!src.options().empty()) opts += " " + src.options();
  // CPU devices: the prelude's vectorisable float log/erf (kernel_prelude())
  if (!gpu) opts += " -DARRC_CPU=1";
  if (!gpu && !map_lanes) opts += " -DARRC_NO_MAP_LANES=1";
  if (!gpu && !map_chunks) opts += " -DARRC_NO_MAP_CHUNKS=1";
  // generated map kernels stage rows on a CPU device only when forced;
  // otherwise their reads skip the staged copy's condition there
  if (!gpu && stage_rows) opts += " -DARRC_CPU_STAGING=1";
  if (!gpu && gpu_lanes) opts += " -DARRC_CPU_GPU_LANES=1";
  if (!gpu && long_row_min > 0) opts += " -DARRC_CPU_LONG_ROWS=1";
  // The device compiler's warnings (PoCL prints them on stderr itself) stay
  // out of the user's output; $ARRC_BUILD_LOG shows them with the build log.
  if (!getenv_nonempty("ARRC_BUILD_LOG")) opts += " -w";
  // debugging knobs: extra options for every build (e.g. -cl-nv-verbose),
  // and the build log of each program built from source on stderr
  if (const char* extra = getenv_nonempty("ARRC_BUILD_OPTIONS")) opts += std::string(" ") + extra;
  std::array<uint64_t, 2> key{};
  std::string path;
  if (!cache_dir.empty()) {
    path = cache_file(*this, src, opts, key);
    std::vector<unsigned char> bin;
    if (std::filesystem::exists(path)) {
      bool ok = load_binary(path, key, bin);
      if (ok) {
        const unsigned char* bp = bin.data();
        size_t bs = bin.size();
        cl_int st = CL_SUCCESS, err = CL_SUCCESS;
        cl_program p = clCreateProgramWithBinary(context, 1, &device, &bs, &bp, &st, &err);
        if (p && err == CL_SUCCESS && st == CL_SUCCESS &&
            clBuildProgram(p, 1, &device, opts.c_str(), nullptr, nullptr) == CL_SUCCESS) {
          stats.disk_hits++;
          return p;
        }
        if (p) clReleaseProgram(p);
      }
      stats.disk_rejected++;
    }
  }
  if (const char* dump = getenv_nonempty("ARRC_DUMP_SOURCES")) {
    std::error_code ec;
    std::filesystem::create_directories(dump, ec);
    std::ofstream(std::string(dump) + "/" + hex(src.hash()[0]) + ".cl") << src.source();
  }
  const char* s = src.source().c_str();
  size_t len = src.source().size();
  cl_program p = nullptr;
  for (int attempt = 0;; ++attempt) {
    cl_int err = CL_SUCCESS;
    p = clCreateProgramWithSource(context, 1, &s, &len, &err);
    check_cl(err, "clCreateProgramWithSource");
    {
      BuildNotice notice(device_name);
      err = clBuildProgram(p, 1, &device, opts.c_str(), nullptr, nullptr);
    }
    if (err == CL_SUCCESS) break;
    std::string log = build_log(p, device);
    clReleaseProgram(p);
    // A failure without a compiler diagnostic (no "error" in the log) is the
    // compiler's environment, not the source: PoCL, while other processes
    // wrote its kernel cache (MPI ranks and tests building a new program at
    // once), once logged only "Device ... failed to build the program". It
    // is tried once more; a real error fails the same way again.
    std::string lower = log;
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (attempt == 0 && lower.find("error") == std::string::npos) continue;
    throw Error("OpenCL program build failed on " + device_name + " (" + cl_error_name(err) +
                "):\n" + log);
  }
  stats.builds++;
  if (getenv_nonempty("ARRC_BUILD_LOG")) {
    std::string log = build_log(p, device);
    std::fprintf(stderr, "arrc: built program %s (%s)%s%s\n", hex(src.hash()[0]).c_str(),
                 opts.c_str(), log.empty() ? "" : ":\n", log.c_str());
  }
  if (!cache_dir.empty()) {
    size_t bs = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, nullptr) == CL_SUCCESS &&
        bs > 0) {
      std::vector<unsigned char> bin(bs);
      unsigned char* bp = bin.data();
      if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bp, &bp, nullptr) == CL_SUCCESS) {
        if (store_binary(cache_dir, path, key, bin)) stats.disk_writes++;
      }
    }
  }
  return p;
}

cl_program ContextImpl::get_program(const ProgramSource& src) {
  auto it = programs.find(src.id());
  if (it != programs.end()) {
    stats.memory_hits++;
    return it->second.program;
  }
  cl_program p = build(src);
  programs[src.id()].program = p;
  return p;
}

cl_kernel ContextImpl::get_kernel(const ProgramSource& src, const char* name) {
  auto it = programs.find(src.id());
  ProgramEntry* pe;
  if (it != programs.end()) {
    stats.memory_hits++;
    pe = &it->second;
    for (auto& [n, k] : pe->kernels)
      if (n == name) return k;
  } else {
    cl_program p = build(src);
    pe = &programs[src.id()];
    pe->program = p;
  }
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(pe->program, name, &err);
  if (err != CL_SUCCESS)
    throw Error(std::string("no kernel named '") + name + "' in program (" +
                cl_error_name(err) + ")");
  pe->kernels.emplace_back(name, k);
  return k;
}

void ContextImpl::release_to_pool(cl_mem m, size_t capacity, size_t bytes) {
  std::lock_guard<std::mutex> lock(pool_mutex);
  pool.live_bytes -= bytes;
  size_t limit = global_mem / 2;
  if (pool.cached_bytes + capacity > limit) {
    clReleaseMemObject(m);
    return;
  }
  free_lists[capacity].push_back(m);
  pool.cached_bytes += capacity;
}

}  // namespace detail

// ---------------------------------------------------------------------------
// Buffer

Buffer::Buffer(std::shared_ptr<detail::ContextImpl> owner, cl_mem mem, size_t bytes,
               size_t capacity)
    : owner_(std::move(owner)), mem_(mem), bytes_(bytes), capacity_(capacity) {}

Buffer::~Buffer() {
  if (mem_) owner_->release_to_pool(mem_, capacity_, bytes_);
}

// ---------------------------------------------------------------------------
// Context

Context::Context() : Context(ContextOptions{}) {}

Context::Context(const ContextOptions& opt) : impl_(std::make_shared<detail::ContextImpl>()) {
  auto& c = *impl_;
  // PoCL's worker threads pinned one per core unless the user says
  // otherwise (POCL_AFFINITY, read when PoCL starts them, on the process's
  // first OpenCL call): unpinned, the first 20-50 short calls of a process
  // ran at one thread's speed on a 2-core machine (Pythagorean n=600: the
  // first 15 calls' median 1.3 ms, pinned 0.95-1.0; docs/performance.md).
  // ARRC_POCL_AFFINITY=0 leaves it to PoCL's default.
  static const bool pocl_pinned = [] {  // once per process (setenv is not thread-safe)
    const char* aff = getenv_nonempty("ARRC_POCL_AFFINITY");
    return !(aff && std::strcmp(aff, "0") == 0) && setenv("POCL_AFFINITY", "1", 0) == 0;
  }();
  (void)pocl_pinned;
  cl_uint np = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &np);
  if (err != CL_SUCCESS || np == 0)
    throw Error(
        "no OpenCL platform found (" + std::string(cl_error_name(err)) +
        "): install an OpenCL driver, e.g. `apt install pocl-opencl-icd` for a CPU device "
        "(or your GPU vendor's OpenCL ICD)");
  std::vector<cl_platform_id> plats(np);
  clGetPlatformIDs(np, plats.data(), nullptr);

  // pnames: the platform's name, vendor and version ("Portable Computing
  // Language", "The pocl project", "OpenCL 3.0 PoCL 3.1 ..."), so that a
  // filter such as "pocl" or "nvidia" finds the platform by any of them
  struct Cand { cl_platform_id p; cl_device_id d; std::string pname, pnames, dname; cl_device_type t; };
  std::vector<Cand> cands;
  for (auto p : plats) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
    std::vector<cl_device_id> devs(nd);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devs.data(), nullptr);
    for (auto d : devs)
      cands.push_back({p, d, platform_str(p, CL_PLATFORM_NAME),
                       platform_str(p, CL_PLATFORM_NAME) + "\n" + platform_str(p, CL_PLATFORM_VENDOR) +
                           "\n" + platform_str(p, CL_PLATFORM_VERSION),
                       device_str(d, CL_DEVICE_NAME), device_val<cl_device_type>(d, CL_DEVICE_TYPE)});
  }
  if (cands.empty())
    throw Error("no OpenCL device found on " + std::to_string(np) +
                " platform(s): install an OpenCL driver, e.g. `apt install pocl-opencl-icd`");
  std::string filter = opt.device;
  if (filter.empty())
    if (const char* e = getenv_nonempty("ARRC_DEVICE")) filter = e;
  const Cand* chosen = nullptr;
  // The candidates the rule picks from, in order: the first one, or the one
  // at opt.device_index modulo their number.
  auto pick = [&](const std::vector<const Cand*>& from) -> const Cand* {
    if (from.empty()) return nullptr;
    size_t k = opt.device_index < 0 ? 0 : static_cast<size_t>(opt.device_index) % from.size();
    return from[k];
  };
  if (!filter.empty()) {
    std::string f = lower(filter);
    std::vector<const Cand*> matching;
    for (auto& cd : cands)
      if (lower(cd.pnames).find(f) != std::string::npos ||
          lower(cd.dname).find(f) != std::string::npos)
        matching.push_back(&cd);
    chosen = pick(matching);
    if (!chosen) {
      std::string avail;
      for (auto& cd : cands) avail += "\n  " + cd.dname + " (platform " + cd.pname + ")";
      throw Error(std::string(opt.device.empty() ? "ARRC_DEVICE" : "the device filter of ContextOptions") +
                  " '" + filter + "' matches no OpenCL platform or device; available:" + avail);
    }
  } else {
    std::vector<const Cand*> gpus, cpus, all;
    for (auto& cd : cands) {
      if (cd.t & CL_DEVICE_TYPE_GPU) gpus.push_back(&cd);
      if (cd.t & CL_DEVICE_TYPE_CPU) cpus.push_back(&cd);
      all.push_back(&cd);
    }
    chosen = !gpus.empty() ? pick(gpus) : !cpus.empty() ? pick(cpus) : pick(all);
  }
  c.platform = chosen->p;
  c.device = chosen->d;
  c.device_name = chosen->dname;
  c.platform_name = chosen->pname;
  c.gpu = (chosen->t & CL_DEVICE_TYPE_GPU) != 0;
  {
    const char* lanes = getenv_nonempty("ARRC_MAP_LANES");
    const char* glanes = getenv_nonempty("ARRC_GPU_LANES");
    c.gpu_lanes = glanes ? glanes[0] != '0' : c.gpu;
    c.gpu_lanes_forced = glanes && glanes[0] != '0';
    // forced on a CPU device (to test the GPU tiles there), instead of its own
    c.map_lanes = !c.gpu && !c.gpu_lanes && !(lanes && lanes[0] == '0');
    const char* chunks = getenv_nonempty("ARRC_MAP_CHUNKS");
    c.map_chunks = !c.gpu && !(chunks && chunks[0] == '0');
    const char* stage = getenv_nonempty("ARRC_STAGE_ROWS");
    c.stage_rows = stage ? stage[0] != '0' : c.gpu;
    const char* one = getenv_nonempty("ARRC_ITEMS_ONE_PASS");
    c.items_in_one_pass = one ? one[0] != '0' : !c.gpu;
    const char* inner = getenv_nonempty("ARRC_INNER_LOOPS");
    c.inner_loops_sequential = inner ? inner[0] != '0' : !c.gpu;
    const char* bins = getenv_nonempty("ARRC_GROUP_BY_HIST_BINS");
    c.group_by_hist_bins = bins ? std::max<int64_t>(0, std::atoll(bins)) : c.gpu ? int64_t(1) << 23 : int64_t(1) << 22;
  }
  c.driver_version = device_str(c.device, CL_DRIVER_VERSION);
  c.device_version = device_str(c.device, CL_DEVICE_VERSION);
  std::string ext = device_str(c.device, CL_DEVICE_EXTENSIONS);
  c.fp64 = ext.find("cl_khr_fp64") != std::string::npos ||
           device_val<cl_device_fp_config>(c.device, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  c.unified_memory = device_val<cl_bool>(c.device, CL_DEVICE_HOST_UNIFIED_MEMORY) != 0;
  c.max_alloc = device_val<cl_ulong>(c.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  c.global_mem = device_val<cl_ulong>(c.device, CL_DEVICE_GLOBAL_MEM_SIZE);
  c.max_wg = device_val<size_t>(c.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  {
    // long rows shared by a work-group of 256 (generated map kernels): rows of
    // more than 128 (CSR SpMV on the H100: thresholds 32 / 64 / 128 / 256 / 512
    // took 0.278 / 0.269 / 0.264 / 0.315 / 0.388 ms, one work-item per row 2.07)
    const char* lr = getenv_nonempty("ARRC_LONG_ROWS");
    c.long_row_min = lr ? std::max<long long>(0, std::atoll(lr)) : c.gpu ? 128 : 0;
    if (c.max_wg < 256) c.long_row_min = 0;
    const char* split = getenv_nonempty("ARRC_SPLIT_LOOPS");
    if (split) c.split_loops = std::max<long long>(0, std::atoll(split));
  }
  c.compute_units = device_val<cl_uint>(c.device, CL_DEVICE_MAX_COMPUTE_UNITS);
  c.local_mem = device_val<cl_ulong>(c.device, CL_DEVICE_LOCAL_MEM_SIZE);
  if (c.gpu && ext.find("cl_nv_device_attribute_query") != std::string::npos) {
    const cl_device_info kComputeCapabilityMajorNV = 0x4000;
    const char* off = getenv_nonempty("ARRC_NV_WARP");
    c.nv_warp = device_val<cl_uint>(c.device, kComputeCapabilityMajorNV) >= 7 &&
                !(off && std::strcmp(off, "0") == 0);
  }

  if (opt.profile >= 0) {
    c.profile = opt.profile > 0;
  } else if (const char* p = getenv_nonempty("ARRC_PROFILE")) {
    c.profile = std::strcmp(p, "0") != 0;
  }

  if (const char* fp = getenv_nonempty("ARRC_FORCE_PINNED")) c.force_pinned = std::strcmp(fp, "0") != 0;
  detail::init_staging(c);

  if (!opt.cache_dir.empty()) {
    c.cache_dir = opt.cache_dir == "-" ? "" : opt.cache_dir;
  } else if (const char* d = getenv_nonempty("ARRC_CACHE_DIR")) {
    c.cache_dir = std::strcmp(d, "-") == 0 ? "" : d;
  } else if (const char* x = getenv_nonempty("XDG_CACHE_HOME")) {
    c.cache_dir = std::string(x) + "/arrc";
  } else if (const char* h = getenv_nonempty("HOME")) {
    c.cache_dir = std::string(h) + "/.cache/arrc";
  }

  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(c.platform), 0};
  c.context = clCreateContext(props, 1, &c.device, nullptr, nullptr, &err);
  check_cl(err, "clCreateContext");
  c.queue = clCreateCommandQueue(c.context, c.device,
                                 c.profile ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
  check_cl(err, "clCreateCommandQueue");
  // the record (64 bytes), then room for a small result read with it
  // (read_checked)
  c.err_buf = clCreateBuffer(c.context, CL_MEM_READ_WRITE, 64 + Context::kCheckedReadMax, nullptr, &err);
  check_cl(err, "clCreateBuffer(error buffer)");
  int64_t zeros[8] = {};
  check_cl(clEnqueueWriteBuffer(c.queue, c.err_buf, CL_TRUE, 0, 64, zeros, 0, nullptr, nullptr),
           "initialising the error buffer");
}

Context::~Context() {
  if (impl_ && impl_->profile) {
    std::string r = impl_->report();
    std::fputs(r.c_str(), stderr);
  }
}

cl_context Context::context() const { return impl_->context; }
cl_device_id Context::device() const { return impl_->device; }
cl_command_queue Context::queue() const { return impl_->queue; }
std::string Context::device_name() const { return impl_->device_name; }
std::string Context::platform_name() const { return impl_->platform_name; }
std::string Context::driver_version() const { return impl_->driver_version; }
std::string Context::describe() const {
  return impl_->device_name + " (" + impl_->platform_name + ", driver " + impl_->driver_version +
         ")";
}
bool Context::is_gpu() const { return impl_->gpu; }
bool Context::map_lanes() const { return impl_->map_lanes; }
bool Context::gpu_lanes(int64_t tiles) const {
  // enough tiles to fill the device: a 256 x 256 dgemm (2048 tiles) took
  // 0.074 ms in tiles against 0.023 one element per work-item on an H200,
  // 1024 x 1024 (32768 tiles) 0.26 against 0.56
  const auto& c = *impl_;
  return c.gpu_lanes && (c.gpu_lanes_forced || tiles >= int64_t(std::max<size_t>(c.compute_units, 1)) * 128);
}
bool Context::map_chunks() const { return impl_->map_chunks; }
bool Context::stage_rows() const { return impl_->stage_rows; }
bool Context::items_in_one_pass() const { return impl_->items_in_one_pass; }
bool Context::inner_loops_sequential() const { return impl_->inner_loops_sequential; }
int64_t Context::group_by_hist_bins() const { return impl_->group_by_hist_bins; }
int64_t Context::long_row_min() const { return impl_->long_row_min; }

int64_t Context::loop_chunks(int64_t elements, int64_t count) const {
  const auto& c = *impl_;
  if (elements <= 0 || count <= 1) return 0;
  if (c.split_loops >= 0) return c.split_loops > 1 ? std::min(c.split_loops, count) : 0;
  if (!c.gpu) return 0; // a CPU's few cores are busy with the elements alone
  // fewer than 512 elements per compute unit: enough chunks to fill the
  // device (4096 work-items per compute unit), each at least 256 steps
  // (N-body's 32768 bodies on an H200, 248 per compute unit: 2.55 ms
  // unsplit, 1.92 in 16 chunks, 2.15 in 4)
  const int64_t units = static_cast<int64_t>(std::max<size_t>(c.compute_units, 1));
  const int64_t want = units * 4096;
  if (elements >= units * 512) return 0;
  int64_t g = std::min((want + elements - 1) / elements, count / 256);
  // a power of two: the chunks are the innermost axis of a map whose
  // work-groups take a power of two along it (17 chunks ran in groups of
  // 32, 15 idle: N-body 3.41 ms against 1.92 with 16)
  while (g & (g - 1)) g &= g - 1;
  return g >= 2 ? g : 0;
}
bool Context::supports_fp64() const { return impl_->fp64; }
size_t Context::max_alloc_bytes() const { return impl_->max_alloc; }
size_t Context::global_mem_bytes() const { return impl_->global_mem; }
size_t Context::max_work_group_size() const { return impl_->max_wg; }
size_t Context::compute_units() const { return impl_->compute_units; }
size_t Context::local_mem_bytes() const { return impl_->local_mem; }

std::unique_lock<std::recursive_mutex> Context::lock() const {
  return std::unique_lock<std::recursive_mutex>(impl_->call_mutex);
}

cl_program Context::program(const ProgramSource& src) {
  const auto held = lock();
  return impl_->get_program(src);
}
cl_kernel Context::kernel(const ProgramSource& src, const char* name) {
  const auto held = lock();
  return impl_->get_kernel(src, name);
}
cl_kernel Context::kernel(const std::string& source, const std::string& options,
                          const char* name) {
  const auto held = lock();
  return impl_->get_kernel(impl_->intern(source, options), name);
}
namespace detail {
const ProgramSource& ContextImpl::intern(const std::string& source, const std::string& options) {
  std::string key;
  key.reserve(options.size() + 1 + source.size());
  key += options;
  key += '\x01';
  key += source;
  auto it = dynamic_sources.find(key);
  if (it == dynamic_sources.end())
    it = dynamic_sources.emplace(std::move(key), std::make_unique<ProgramSource>(source, options))
             .first;
  return *it->second;
}
}  // namespace detail
CacheStats Context::cache_stats() const {
  const auto held = lock();
  return impl_->stats;
}

void Context::enqueue(cl_kernel k, const NDRange& global, const NDRange& local) {
  const auto held = lock();
  for (size_t i = 0; i < global.dims; ++i)
    if (global.v[i] == 0) return;
  auto& c = *impl_;
  ++c.launches;
  cl_event ev = nullptr;
  cl_int err = clEnqueueNDRangeKernel(c.queue, k, static_cast<cl_uint>(global.dims), nullptr,
                                      global.v, local.dims ? local.v : nullptr, 0, nullptr,
                                      c.profile ? &ev : nullptr);
  if (err != CL_SUCCESS) {
    std::string what = "launching kernel " + detail::kernel_name_of(k);
    check_cl(err, what.c_str());
  }
  if (ev) c.track(ev, detail::kernel_name_of(k).c_str(), 0);
}

uint64_t Context::launch_count() const {
  const auto held = lock();
  return impl_->launches;
}
uint64_t Context::blocking_read_count() const {
  const TransferStats t = transfer_stats();
  return t.direct_reads + t.staged_reads + t.small_reads;
}

BufferPtr Context::alloc(size_t bytes) {
  const auto held = lock();
  return detail::alloc(*impl_, impl_, bytes);
}

namespace detail {
BufferPtr alloc(ContextImpl& c, const std::shared_ptr<ContextImpl>& owner, size_t bytes) {
  const std::lock_guard<std::recursive_mutex> held(c.call_mutex);  // Context::lock()
  if (bytes == 0) bytes = 1;
  if (bytes > c.max_alloc)
    throw Error("out of device memory: allocation of " + std::to_string(bytes) +
                " bytes exceeds the device's maximum allocation size of " +
                std::to_string(c.max_alloc) + " bytes (" + c.device_name + ")");
  size_t cap = size_class(bytes);
  if (cap > c.max_alloc) cap = bytes;
  {
    std::lock_guard<std::mutex> lock(c.pool_mutex);
    auto it = c.free_lists.find(cap);
    if (it != c.free_lists.end() && !it->second.empty()) {
      cl_mem m = it->second.back();
      it->second.pop_back();
      c.pool.cached_bytes -= cap;
      c.pool.reuses++;
      c.pool.live_bytes += bytes;
      return std::make_shared<Buffer>(owner, m, bytes, cap);
    }
  }
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(c.context, CL_MEM_READ_WRITE, cap, nullptr, &err);
  if (err != CL_SUCCESS) {
    c.trim();
    m = clCreateBuffer(c.context, CL_MEM_READ_WRITE, cap, nullptr, &err);
  }
  if (err != CL_SUCCESS) {
    std::string what = "allocating " + std::to_string(bytes) + " bytes on " + c.device_name;
    if (err == CL_INVALID_BUFFER_SIZE) err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    check_cl(err, what.c_str());
  }
  std::lock_guard<std::mutex> lock(c.pool_mutex);
  c.pool.allocations++;
  c.pool.live_bytes += bytes;
  return std::make_shared<Buffer>(owner, m, bytes, cap);
}

void ContextImpl::trim() {
  std::lock_guard<std::mutex> lock(pool_mutex);
  for (auto& [cap, v] : free_lists)
    for (cl_mem m : v) clReleaseMemObject(m);
  free_lists.clear();
  pool.cached_bytes = 0;
}
}  // namespace detail

void Context::trim_pool() {
  const auto held = lock();
  impl_->trim();
}
PoolStats Context::pool_stats() const {
  std::lock_guard<std::mutex> lock(impl_->pool_mutex);
  return impl_->pool;
}

void Context::write(cl_mem dst, size_t off, size_t bytes, const void* src) {
  const auto held = lock();
  detail::host_write(*impl_, dst, off, bytes, src);
}
void Context::read(cl_mem src, size_t off, size_t bytes, void* dst) {
  const auto held = lock();
  detail::host_read(*impl_, src, off, bytes, dst);
}

void Context::copy(cl_mem src, size_t so, cl_mem dst, size_t dof, size_t bytes) {
  if (bytes == 0) return;
  const auto held = lock();
  auto& c = *impl_;
  cl_event ev = nullptr;
  check_cl(clEnqueueCopyBuffer(c.queue, src, dst, so, dof, bytes, 0, nullptr,
                               c.profile ? &ev : nullptr),
           "device-to-device copy");
  c.track(ev, "[copy device->device]", 2 * bytes);
}

void Context::fill(cl_mem dst, const void* pattern, size_t ps, size_t off, size_t bytes) {
  if (bytes == 0) return;
  const auto held = lock();
  auto& c = *impl_;
  cl_event ev = nullptr;
  check_cl(clEnqueueFillBuffer(c.queue, dst, pattern, ps, off, bytes, 0, nullptr,
                               c.profile ? &ev : nullptr),
           "clEnqueueFillBuffer");
  c.track(ev, "[fill]", bytes);
}

void Context::fill_zero(cl_mem dst, size_t off, size_t bytes) {
  if (off % 4 == 0 && bytes % 4 == 0) {
    uint32_t z = 0;
    fill(dst, &z, 4, off, bytes);
  } else {
    uint8_t z = 0;
    fill(dst, &z, 1, off, bytes);
  }
}

void Context::finish() {
  const auto held = lock();
  check_cl(clFinish(impl_->queue), "clFinish");
}

cl_mem Context::error_buffer() const { return impl_->err_buf; }

namespace {
// Throws the error in the record `rec` (after resetting the device's copy).
void raise_recorded(detail::ContextImpl& c, const int64_t* rec, const char* const* positions,
                    size_t count) {
  int32_t code;
  std::memcpy(&code, &rec[0], 4);
  if (code == 0) return;
  int64_t zeros[5] = {};
  check_cl(clEnqueueWriteBuffer(c.queue, c.err_buf, CL_TRUE, 0, sizeof zeros, zeros, 0, nullptr,
                                nullptr),
           "resetting the error buffer");
  std::string pos;
  if (positions && rec[1] >= 0 && static_cast<size_t>(rec[1]) < count && positions[rec[1]])
    pos = positions[rec[1]];
  throw Error(format_error(static_cast<ErrorCode>(code), pos, rec[2], rec[3], rec[4]));
}
}  // namespace

void Context::check_errors(const char* const* positions, size_t count) {
  const auto held = lock();
  auto& c = *impl_;
  int64_t rec[5];
  detail::host_read(c, c.err_buf, 0, sizeof rec, rec);
  raise_recorded(c, rec, positions, count);
}

void Context::read_checked(cl_mem src, size_t off, size_t bytes, void* dst,
                           const char* const* positions, size_t count) {
  const auto held = lock();
  if (bytes > kCheckedReadMax) {
    read(src, off, bytes, dst);
    check_errors(positions, count);
    return;
  }
  auto& c = *impl_;
  // one round trip: the result is copied next to the record, both read at once
  unsigned char buf[64 + kCheckedReadMax];
  if (bytes > 0)
    check_cl(clEnqueueCopyBuffer(c.queue, src, c.err_buf, off, 64, bytes, 0, nullptr, nullptr),
             "copying a result next to the error record");
  detail::host_read(c, c.err_buf, 0, 64 + bytes, buf);
  int64_t rec[5];
  std::memcpy(rec, buf, sizeof rec);
  raise_recorded(c, rec, positions, count);
  std::memcpy(dst, buf + 64, bytes);
}

bool Context::profiling() const { return impl_->profile; }
std::string Context::profile_report() {
  const auto held = lock();
  return impl_->report();
}

}  // namespace arrc
