// Private: what the primitives' source files share (primitives.cpp,
// sort.cpp): the configuration, program assembly and lookup, launches.
#pragma once

#include <arrc/primitives.h>

#include <functional>
#include <string>

#include "impl.h"

namespace arrc::prim {

struct Config {
  int wg = 256;       // reduce, histogram, expand walks
  int scan_wg = 256;  // chained scan / compaction
  size_t tile_bytes = 16384;
  size_t groups = 0;
  int lookback_chunks = 1;  // NVIDIA look-back window, in chunks of 32 tiles
  // NVIDIA: tile id = work-group id (1) or an atomic ticket (0). Measured
  // on the H100 (docs/performance.md): the ticket is faster for scans, the
  // work-group id for compaction.
  int scan_group_order = 0, compact_group_order = 1;
  // NVIDIA warp path of compaction: work-group size and items per work-item
  // and sub-tiles per look-back
  int compact_wg = 128, compact_vt = 16, compact_sub = 3;
  // Reduce, scans, compaction and expand in the CPU schedule (kReduceCpu etc.):
  // CPU devices, unless ARRC_SCHEDULE=gpu; ARRC_SCHEDULE=cpu forces it.
  bool cpu = false;
};

Config config(Context& ctx);
int env_int(const char* name, int dflt);

// CPU schedule: contiguous chunks, a few per compute unit (balance), none
// smaller than 4096 elements (launch cost); one work-item each.
struct Chunks {
  int64_t count = 0, size = 1;
};
// n elements in chunks of at least min_size, per_cu chunks per compute unit
// where n allows (CPU schedules).
Chunks cpu_chunks(Context& ctx, int64_t n, int64_t per_cu = 4, int64_t min_size = 4096);

bool mentions_double(const std::string& s);
bool is_scalar_type(const ElemType& t);  // int, uint, long, ulong, float, double
std::string replace_all(std::string s, const std::string& from, const std::string& to);
// The work-group helpers of kernels.h (kWgHelpers) for scan type S,
// operator OP, neutral NE, name suffix N.
std::string helpers(const std::string& S, const std::string& OP, const std::string& NE,
                    const std::string& N);
// The program of a primitive call (see primitives.cpp).
const ProgramSource& program(Context& ctx, const ElemType& t, const Operator* op, const Fused& in,
                             const std::string& defines, const std::string& what,
                             const std::function<std::string()>& body);
std::string cfg_defines(const Config& c, int wg, int vt, int group_order);
// "#define ARRC_STORE_HOOK 1\n" when the caller passes no output buffer.
std::string store_defines(cl_mem out);
// A new device buffer of `bytes`, zeroed (not from the pool: kept for the
// context's lifetime by the caller).
cl_mem create_zeroed(Context& ctx, size_t bytes);

// OpenCL C defining `inline void fname(as ty* p, ty v ARRC_OP_PARAMS)`, which
// combines v into *p atomically in address space `as` (__local or __global)
// for a scalar type `ty` of `size` bytes under `op`; "" if it cannot be done.
std::string atomic_update_fn(const std::string& fname, const std::string& as, const std::string& ty,
                             size_t size, const Operator& op);

// Sets arguments and launches.
struct Launch {
  Context& ctx;
  cl_kernel k;
  cl_uint i = 0;
  Launch(Context& c, cl_kernel kk) : ctx(c), k(kk) {}
  Launch& mem(cl_mem m) {
    detail::set_kernel_arg(k, i++, sizeof(cl_mem), &m);
    return *this;
  }
  template <class S>
  Launch& val(S v) {
    detail::set_kernel_arg(k, i++, sizeof(S), &v);
    return *this;
  }
  Launch& local(size_t bytes) {
    detail::set_kernel_arg(k, i++, bytes, nullptr);
    return *this;
  }
  Launch& extra(const Fused& f) {
    for (auto& a : f.args) {
      if (a.is_mem)
        detail::set_kernel_arg(k, i++, sizeof(cl_mem), &a.mem);
      else
        detail::set_kernel_arg(k, i++, a.size, a.bytes);
    }
    return *this;
  }
  Launch& opargs(const Operator* op) {
    if (op)
      for (auto& a : op->args) {
        if (a.is_mem)
          detail::set_kernel_arg(k, i++, sizeof(cl_mem), &a.mem);
        else
          detail::set_kernel_arg(k, i++, a.size, a.bytes);
      }
    return *this;
  }
  void run(size_t global, size_t local = 0) {
    if (global == 0) return;
    ctx.enqueue(k, NDRange(global), local ? NDRange(local) : NDRange());
  }
};


}  // namespace arrc::prim
