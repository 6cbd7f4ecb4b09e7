// arrc runtime: primitive kernels, instantiated textually (see kernels.h).
#include <arrc/primitives.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "impl.h"
#include "kernels.h"
#include "prim_common.h"

namespace arrc {

std::string Operator::max_value(const ElemType& t) {
  const std::string& n = t.name;
  if (n == "int") return "INT_MAX";
  if (n == "uint") return "UINT_MAX";
  if (n == "long") return "LONG_MAX";
  if (n == "ulong") return "ULONG_MAX";
  if (n == "uchar") return "UCHAR_MAX";
  if (n == "float") return "INFINITY";
  if (n == "double") return "(double)INFINITY";
  throw Error("Operator::min: no largest value known for type " + n);
}
std::string Operator::min_value(const ElemType& t) {
  const std::string& n = t.name;
  if (n == "int") return "INT_MIN";
  if (n == "uint") return "0u";
  if (n == "long") return "LONG_MIN";
  if (n == "ulong") return "0ul";
  if (n == "uchar") return "(uchar)0";
  if (n == "float") return "-INFINITY";
  if (n == "double") return "-(double)INFINITY";
  throw Error("Operator::max: no smallest value known for type " + n);
}

ElemType ElemType::record(const std::vector<ElemType>& fields, const std::string& name) {
  if (fields.empty()) throw Error("ElemType::record: a record needs at least one field");
  ElemType r;
  r.name = name;
  size_t off = 0, align = 1;
  std::string decl = "typedef struct {";
  // Padding is spelled out as members: NVIDIA's compiler lost a member of
  // records with implicit padding moved through warp shuffles (seen on the
  // H100 in a segmented scan of (int, double); explicit padding fixed it).
  int pads = 0;
  auto pad_to = [&](size_t to) {
    while (off < to) {
      bool word = off % 4 == 0 && to - off >= 4;
      decl += std::string(word ? " uint" : " uchar") + " arrc_pad" + std::to_string(pads++) + ";";
      off += word ? 4 : 1;
    }
  };
  for (size_t k = 0; k < fields.size(); ++k) {
    const ElemType& f = fields[k];
    if (f.is_record()) throw Error("ElemType::record: fields must be scalars");
    size_t a = f.alignment();
    pad_to((off + a - 1) / a * a);
    off += f.size;
    align = std::max(align, a);
    decl += " " + f.name + " f" + std::to_string(k) + ";";
  }
  pad_to((off + align - 1) / align * align);
  r.size = off;
  r.align = align;
  r.fields = fields;
  r.prelude = "#ifndef ARRC_REC_" + name + "\n#define ARRC_REC_" + name + "\n" + decl + " } " +
              name + ";\n#endif\n";
  return r;
}

Fused buffer_function(const std::string& fname, const ElemType& t, cl_mem buf, int64_t offset,
                      int64_t stride, const std::string& arg_in) {
  std::string a = arg_in.empty() ? fname + "_buf" : arg_in;
  Fused f;
  // A unit stride is written out: contiguous loads let compilers vectorise
  // (a run-time stride makes CPU compilers gather).
  std::string index = stride == 1 ? a + "_off + i" : a + "_off + i * " + a + "_stride";
  f.source = t.name + " " + fname + "(long i ARRC_PARAMS) { return " + a + "[" + index + "]; }\n";
  f.args.push_back(KernelArg::buffer("__global const " + t.name + "*", a, buf));
  f.args.push_back(KernelArg::scalar("long", a + "_off", offset));
  f.args.push_back(KernelArg::scalar("long", a + "_stride", stride));
  return f;
}

namespace prim {

using detail::ContextImpl;

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  size_t p = 0;
  while ((p = s.find(from, p)) != std::string::npos) {
    s.replace(p, from.size(), to);
    p += to.size();
  }
  return s;
}

std::string helpers(const std::string& S, const std::string& OP, const std::string& NE,
                    const std::string& N) {
  std::string s = detail::kWgHelpers;
  s = replace_all(s, "$S", S);
  s = replace_all(s, "$OP", OP);
  s = replace_all(s, "$NE", NE);
  s = replace_all(s, "$N", N);
  return s;
}

int env_int(const char* name, int dflt) {
  const char* v = std::getenv(name);
  return (v && *v) ? std::atoi(v) : dflt;
}

// Tuning knobs (environment, for benchmarking; docs/performance.md):
//   ARRC_WG              scan/compaction work-group size (GPU 512, CPU 256)
//   ARRC_TILE_BYTES      local tile per scan/compaction work-group (GPU 32 KiB, CPU 16 KiB)
//   ARRC_GROUPS_PER_CU   reduce/histogram work-groups per compute unit (GPU 8, CPU 4)
//   ARRC_LOOKBACK_CHUNKS NVIDIA look-back window in chunks of 32 tiles (1)
//   ARRC_NV_GROUP_ORDER  NVIDIA tile order for all scans: 1 work-group id, 0 ticket
//   ARRC_COMPACT_WG, ARRC_COMPACT_VT, ARRC_COMPACT_SUB  NVIDIA compaction
//                        work-group size (128), items per work-item (16; 1..16)
//                        and sub-tiles per look-back (3; 1..8)
//   ARRC_HIST_GRID, ARRC_HIST_UNROLL  GPU histograms in local memory: grid-stride
//                        sweep (1) or a chunk per group (0); elements in flight (4;
//                        rows: 8)
//   ARRC_NV_WARP=0       no NVIDIA warp path (read in context.cpp)
//   ARRC_SCHEDULE        cpu | gpu: kernel shapes of reduce/scan/compaction
//                        (default: cpu on CPU devices; the tests run both on PoCL)
Config config(Context& ctx) {
  static const int wg_env = env_int("ARRC_WG", 0);
  static const int tile_env = env_int("ARRC_TILE_BYTES", 0);
  static const int gpc_env = env_int("ARRC_GROUPS_PER_CU", 0);
  static const int lbm_env = env_int("ARRC_LOOKBACK_CHUNKS", 0);
  static const int order_env = env_int("ARRC_NV_GROUP_ORDER", -1);
  static const int cwg_env = env_int("ARRC_COMPACT_WG", 0);
  static const int cvt_env = env_int("ARRC_COMPACT_VT", 0);
  static const int csub_env = env_int("ARRC_COMPACT_SUB", 0);
  static const char* schedule_env = std::getenv("ARRC_SCHEDULE");
  Config c;
  c.cpu = !ctx.is_gpu();
  if (schedule_env && std::strcmp(schedule_env, "cpu") == 0) c.cpu = true;
  if (schedule_env && std::strcmp(schedule_env, "gpu") == 0) c.cpu = false;
  if (lbm_env > 0) c.lookback_chunks = std::min(lbm_env, 16);
  if (order_env >= 0) c.scan_group_order = c.compact_group_order = order_env != 0;
  size_t m = ctx.max_work_group_size();
  while (static_cast<size_t>(c.wg) > m) c.wg /= 2;
  c.scan_wg = wg_env > 0 ? wg_env : (ctx.is_gpu() ? 512 : 256);
  while (static_cast<size_t>(c.scan_wg) > m) c.scan_wg /= 2;
  // the warp paths (ARRC_NV) need whole warps
  if (ctx.impl().nv_warp) c.scan_wg = std::clamp(c.scan_wg / 32 * 32, 32, 1024);
  if (cwg_env > 0) c.compact_wg = std::clamp(cwg_env / 32 * 32, 32, 1024);
  while (static_cast<size_t>(c.compact_wg) > m) c.compact_wg /= 2;
  if (cvt_env > 0) c.compact_vt = std::clamp(cvt_env, 1, 16);
  if (csub_env > 0) c.compact_sub = std::clamp(csub_env, 1, 8);
  c.tile_bytes = tile_env > 0 ? static_cast<size_t>(tile_env) : (ctx.is_gpu() ? 32768 : 16384);
  // keep the tile well inside local memory (other __local arrays need room)
  while (c.tile_bytes > 1024 && c.tile_bytes + 4096 > ctx.local_mem_bytes()) c.tile_bytes /= 2;
  c.groups = ctx.compute_units() * (gpc_env > 0 ? gpc_env : (ctx.is_gpu() ? 8 : 4));
  return c;
}

// Items per work-item of the scan/compaction tile (power of two, 1..16).
int items_per_thread(const Config& c, size_t elem_size) {
  size_t vt = c.tile_bytes / (static_cast<size_t>(c.scan_wg) * std::max<size_t>(elem_size, 1));
  vt = std::clamp<size_t>(vt, 1, 16);
  // power of two
  size_t p = 1;
  while (p * 2 <= vt) p *= 2;
  return static_cast<int>(p);
}

// CPU schedule: contiguous chunks, a few per compute unit (balance), none
// smaller than 4096 elements (launch cost); one work-item each.
Chunks cpu_chunks(Context& ctx, int64_t n, int64_t per_cu, int64_t min_size) {
  if (n <= 0) return {};
  int64_t want = static_cast<int64_t>(ctx.compute_units()) * per_cu;
  int64_t size = std::max<int64_t>(min_size, (n + want - 1) / want);
  return {(n + size - 1) / size, size};
}

bool is_scalar_type(const ElemType& t) {
  return t.name == "int" || t.name == "uint" || t.name == "long" || t.name == "ulong" || t.name == "float" ||
         t.name == "double";
}

bool mentions_double(const std::string& s) { return s.find("double") != std::string::npos; }

// Assembles a program: pragmas, prelude, type, operator, parameter macros,
// fused source, then `body`.
std::string assemble(Context& ctx, const ElemType& t, const Operator* op, const Fused& in,
                     const std::string& defines, const std::string& body) {
  bool fp64 = mentions_double(t.name) || mentions_double(t.prelude) ||
              mentions_double(in.source) || mentions_double(defines) ||
              (op && (mentions_double(op->expr) || mentions_double(op->prelude) ||
                      mentions_double(op->neutral)));
  for (auto& a : in.args) fp64 = fp64 || mentions_double(a.type);
  if (op)
    for (auto& a : op->args) fp64 = fp64 || mentions_double(a.type);
  std::string s;
  s.reserve(8192 + in.source.size());
  if (fp64) {
    if (!ctx.supports_fp64())
      throw Error("the OpenCL device " + ctx.device_name() +
                  " does not support double precision (cl_khr_fp64)");
    s += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  }
  s += "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n";
  s += "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n";
  s += kernel_prelude();
  if (ctx.impl().nv_warp) s += detail::kNvWarp;
  s += t.prelude;
  s += "\n#define T " + t.name + "\n";
  // A T read from global memory: a record field by field. PoCL read a whole
  // record through a copy, which made the CPU histogram's update 45% slower
  // (group-by's (int, float) bins: 0.74 -> 0.51 ms per 10^6 on one thread).
  if (t.is_record()) {
    s += "inline T arrc_gload_T(__global const T* p) { T r;";
    for (size_t k = 0; k < t.fields.size(); ++k) s += " r.f" + std::to_string(k) + " = p->f" + std::to_string(k) + ";";
    s += " return r; }\n#define ARRC_GLOAD(p) arrc_gload_T(p)\n";
  } else {
    s += "#define ARRC_GLOAD(p) (*(p))\n";
  }
  // Operator arguments reach every function that combines elements.
  std::string op_params, op_args;
  if (op)
    for (auto& a : op->args) {
      op_params += ", " + a.type + " " + a.name;
      op_args += ", " + a.name;
    }
  s += "#define ARRC_OP_PARAMS " + op_params + "\n#define ARRC_OP_ARGS " + op_args + "\n";
  if (op) {
    s += op->prelude;
    s += "\ninline T arrc_op_fn(T a, T b ARRC_OP_PARAMS) { return (" + op->expr + "); }\n";
    s += "#define arrc_op(a, b) arrc_op_fn((a), (b) ARRC_OP_ARGS)\n";
    s += "#define ARRC_NE (" + op->neutral + ")\n";
  }
  std::string params, args;
  for (auto& a : in.args) {
    params += ", " + a.type + " " + a.name;
    args += ", " + a.name;
  }
  s += "#define ARRC_PARAMS " + params + "\n#define ARRC_ARGS " + args + "\n";
  s += defines;
  // Element stores of the kernels: to `out` or through the store hook.
  s += "\n#ifdef ARRC_STORE_HOOK\n"
       "#define ARRC_OUT(p, v) arrc_store((p) - out_off, (v) ARRC_ARGS)\n"
       "#define ARRC_OUT_AT(buf, off, j, v) arrc_store((j), (v) ARRC_ARGS)\n"
       "#else\n"
       "#define ARRC_OUT(p, v) (out[(p)] = (v))\n"
       "#define ARRC_OUT_AT(buf, off, j, v) ((buf)[(off) + (j)] = (v))\n"
       "#endif\n";
  s += in.source;
  s += "\n";
  s += body;
  return s;
}

// The program of a primitive call, found by a short key once it exists:
// `what` names the kernel body (with everything it is made of that is not
// in `defines` or the operands), `body` makes it. Assembling and hashing
// the whole ~15 KB text on every call cost microseconds of host time per
// launch (docs/performance.md).
const ProgramSource& program(Context& ctx, const ElemType& t, const Operator* op, const Fused& in,
                             const std::string& defines, const std::string& what,
                             const std::function<std::string()>& body) {
  std::string key;
  key.reserve(256 + defines.size() + in.source.size());
  auto part = [&](const std::string& x) {
    key += x;
    key += '\x1f';
  };
  part(what);
  part(defines);
  part(t.name);
  part(t.prelude);
  if (op) {
    part(op->expr);
    part(op->neutral);
    part(op->prelude);
    for (auto& a : op->args) {
      part(a.type);
      part(a.name);
    }
  } else {
    part("\x02");
  }
  part(in.source);
  for (auto& a : in.args) {
    part(a.type);
    part(a.name);
  }
  auto& memo = ctx.impl().primitive_programs;
  auto it = memo.find(key);
  if (it != memo.end()) return *it->second;
  const ProgramSource& p = ctx.impl().intern(assemble(ctx, t, op, in, defines, body()), "");
  memo.emplace(std::move(key), &p);
  return p;
}

std::string cfg_defines(const Config& c, int wg, int vt, int group_order) {
  return "#define WG " + std::to_string(wg) + "\n#define VT " + std::to_string(vt) +
         "\n#define ARRC_LB 32\n#define ARRC_LBM " + std::to_string(c.lookback_chunks) +
         "\n#define ARRC_NV_GROUP_ORDER " + std::to_string(group_order) + "\n";
}

// The look-back state (kWgHelpers) is kept in the context and reused by
// every scan and compaction, so a launch costs no clearing: the tile counter
// is reset by each launch's last tile, and the status words carry the epoch
// of the launch that wrote them (a new one per launch; at wrap-around, and
// when the buffers grow, they are zeroed once).
struct ScanState {
  cl_mem ctl, aggs, incs;
  cl_uint epoch;
};
cl_mem create_zeroed(Context& ctx, size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(ctx.context(), CL_MEM_READ_WRITE, bytes, nullptr, &err);
  if (err != CL_SUCCESS)
    throw Error("out of device memory: allocating " + std::to_string(bytes) +
                " bytes of scan state on " + ctx.device_name() + " (OpenCL error " +
                std::to_string(err) + ")");
  ctx.fill_zero(m, 0, bytes);
  return m;
}
ScanState scan_state(Context& ctx, int64_t ntiles, size_t elem) {
  detail::ContextImpl& c = ctx.impl();
  size_t words = static_cast<size_t>(ntiles) * ((elem + 3) / 4);
  if (!c.scan_ctl) c.scan_ctl = create_zeroed(ctx, sizeof(cl_int));
  if (words > c.scan_words) {
    size_t cap = std::max<size_t>({words, 2 * c.scan_words, 4096});
    for (cl_mem* m : {&c.scan_aggs, &c.scan_incs}) {
      if (*m) clReleaseMemObject(*m);
      *m = nullptr;
    }
    c.scan_words = 0;
    c.scan_aggs = create_zeroed(ctx, cap * sizeof(cl_ulong));
    c.scan_incs = create_zeroed(ctx, cap * sizeof(cl_ulong));
    c.scan_words = cap;
  }
  if (c.scan_epoch == UINT32_MAX) {  // epoch 0 would match zeroed words
    ctx.fill_zero(c.scan_aggs, 0, c.scan_words * sizeof(cl_ulong));
    ctx.fill_zero(c.scan_incs, 0, c.scan_words * sizeof(cl_ulong));
    c.scan_epoch = 0;
  }
  return {c.scan_ctl, c.scan_aggs, c.scan_incs, ++c.scan_epoch};
}

// Scan over an adapter (ST, arrc_sop, ARRC_SNE, arrc_sload, arrc_sstore
// defined in `adapter`; sop/sne name the operator and neutral for the
// work-group helpers). `extra` is appended to the program, which is
// returned, so a caller can take further kernels from it.
const ProgramSource& run_scan(Context& ctx, const ElemType& t, const Operator* op,
                              const Fused& in, size_t st_size, const std::string& adapter,
                              const std::string& sop, const std::string& sne, int64_t n,
                              bool inclusive, const std::string& extra = "",
                              const std::string& defs = "") {
  Config c = config(ctx);
  std::string what = "scan\x1e" + adapter + "\x1e" + extra + "\x1e" + sop + "\x1e" + sne;
  if (c.cpu) {
    const ProgramSource& src = program(ctx, t, op, in, defs, what + "cpu", [&] {
      return adapter + detail::kScanCpu + extra;
    });
    if (n <= 0) return src;
    Chunks ch = cpu_chunks(ctx, n);
    auto partial = ctx.alloc(static_cast<size_t>(ch.count) * st_size);
    if (ch.count > 1) {  // one chunk: its prefix is the neutral element, one launch
      Launch(ctx, ctx.kernel(src, "arrc_cscan_reduce"))
          .val<cl_long>(n).val<cl_long>(ch.size).mem(partial->mem()).extra(in).opargs(op)
          .run(ch.count, 1);
      Launch(ctx, ctx.kernel(src, "arrc_cscan_partials"))
          .val<cl_long>(ch.count).mem(partial->mem()).opargs(op).run(1, 1);
    }
    Launch(ctx, ctx.kernel(src, "arrc_cscan_apply"))
        .val<cl_long>(n).val<cl_long>(ch.size).val<cl_int>(inclusive ? 1 : 0).mem(partial->mem())
        .extra(in).opargs(op).run(ch.count, 1);
    return src;
  }
  int vt = items_per_thread(c, st_size);
  const ProgramSource& src = program(
      ctx, t, op, in, cfg_defines(c, c.scan_wg, vt, c.scan_group_order) + defs, what, [&] {
        return adapter + helpers("ST", sop, sne, "s") + detail::kScan + extra;
      });
  if (n <= 0) return src;
  cl_kernel k = ctx.kernel(src, "arrc_scan");
  int64_t tile = static_cast<int64_t>(c.scan_wg) * vt;
  int64_t ntiles = (n + tile - 1) / tile;
  if (ntiles >= INT_MAX) throw Error("scan: input too large");
  ScanState st = scan_state(ctx, ntiles, st_size);
  Launch(ctx, k)
      .val<cl_long>(n)
      .val<cl_int>(inclusive ? 1 : 0)
      .mem(st.ctl)
      .mem(st.aggs)
      .mem(st.incs)
      .val<cl_uint>(st.epoch)
      .extra(in)
      .opargs(op)
      .run(static_cast<size_t>(ntiles) * c.scan_wg, c.scan_wg);
  return src;
}

Fused with_default_store(const ElemType& t, const Fused& in, cl_mem out, int64_t out_offset,
                         const std::string& fname = "arrc_store") {
  if (!out) return in;
  Fused f = in;
  f.args.push_back(KernelArg::buffer("__global " + t.name + "*", "arrc_out", out));
  f.args.push_back(KernelArg::scalar("long", "arrc_out_off", out_offset));
  f.source += "\ninline void " + fname + "(long i, T v ARRC_PARAMS) { arrc_out[arrc_out_off + i] = v; }\n";
  return f;
}

const char* kPlainAdapter = R"CLC(
#define ST T
#define arrc_sop arrc_op
#define ARRC_SNE ARRC_NE
#define arrc_sload(i) arrc_load(i ARRC_ARGS)
#define arrc_sstore(i, v) arrc_store(i, v ARRC_ARGS)
)CLC";

// "#define ARRC_STORE_HOOK" when the caller passes no output buffer.
std::string store_defines(cl_mem out) { return out ? "" : "#define ARRC_STORE_HOOK 1\n"; }

// The two-stage reduction's final pass (GPU: one work-group; CPU: one work-item).
void reduce_final(Context& ctx, const Config& c, const ProgramSource& src, const Operator& op,
                  int64_t parts, cl_mem partial, cl_mem out, int64_t out_index) {
  if (c.cpu)
    Launch(ctx, ctx.kernel(src, "arrc_reduce_chunks_final"))
        .val<cl_long>(parts).mem(partial).mem(out).val<cl_long>(out_index).opargs(&op).run(1, 1);
  else
    Launch(ctx, ctx.kernel(src, "arrc_reduce_final"))
        .val<cl_long>(parts).mem(partial).mem(out).val<cl_long>(out_index).opargs(&op)
        .run(c.wg, c.wg);
}

}  // namespace prim

using namespace prim;

// ---------------------------------------------------------------------------

namespace {
// CPU loops over elements of `widest` bytes: clang's hint for 512 bits of
// them per step (other compilers ignore it).
std::string vector_width_define(size_t widest) {
  return "#define ARRC_VECTOR_WIDTH " + std::to_string(std::max<size_t>(4, 64 / std::max<size_t>(widest, 1))) + "\n";
}
}  // namespace

void reduce(Context& ctx, const ElemType& t, const Operator& op, int64_t n, const Fused& in,
            cl_mem out, int64_t out_index) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  Config c = config(ctx);
  if (c.cpu) {
    // +, *, min, max of integers and floats: the plain loop, vectorised by
    // the device compiler as a reduction (clang's loop hint also lets it
    // reorder float operations, as every reduce schedule may: the operator
    // is associative); so are records whose members each have such an
    // operator (op.fields: a reduce of (min, max) is two reductions once
    // the device compiler splits the record); custom operators get four
    // independent accumulators.
    bool vectorised = is_scalar_type(t) && op.kind != Operator::Custom;
    size_t widest = t.size;
    if (!vectorised && !op.fields.empty()) {
      vectorised = true;
      widest = 1;
      for (auto& f : op.fields) vectorised = vectorised && f.kind != Operator::Custom;
      for (auto& m : t.fields) widest = std::max(widest, m.size);
    }
    std::string defs = op.commutative && !vectorised ? "#define ARRC_COMMUTATIVE 1\n" : "";
    if (vectorised) defs += vector_width_define(widest);
    if (is_scalar_type(t) && (op.kind == Operator::Max || op.kind == Operator::Min) &&
        (t.name == "float" || t.name == "double")) {
      // float min / max over integer keys (kReduceCpu)
      const bool d = t.name == "double";
      const std::string it = d ? "long" : "int", mask = d ? "0x7fffffffffffffffL" : "0x7fffffff";
      defs += "#define ARRC_FKEY_T " + it + "\n#define ARRC_FKEY_F " + t.name + "\n#define ARRC_FKEY_AS as_" + it +
              "\n#define ARRC_FKEY_BACK as_" + t.name + "\n#define ARRC_FKEY_MASK " + mask +
              "\n#define ARRC_FKEY_INF " + (d ? "0x7ff0000000000000L" : "0x7f800000") + "\n#define ARRC_FKEY_NAN " +
              (op.kind == Operator::Max ? "((" + it + ")(-" + mask + " - 1))" : "((" + it + ")" + mask + ")") +
              "\n#define ARRC_FKEY_PICK(a, b) ((a) " + (op.kind == Operator::Max ? ">" : "<") + " (b) ? (a) : (b))\n";
    }
    const ProgramSource& src = program(ctx, t, &op, in, defs, "reduce cpu", [] {
      return std::string(detail::kReduceCpu) + detail::kReduceCpuFinal;
    });
    Chunks ch = cpu_chunks(ctx, n);
    auto partial = ctx.alloc(static_cast<size_t>(std::max<int64_t>(ch.count, 1)) * t.size);
    if (ch.count > 0)
      Launch(ctx, ctx.kernel(src, "arrc_reduce_chunks"))
          .val<cl_long>(n).val<cl_long>(ch.size).mem(partial->mem()).extra(in).opargs(&op)
          .run(ch.count, 1);
    reduce_final(ctx, c, src, op, ch.count, partial->mem(), out, out_index);
    return;
  }
  int vt = items_per_thread(c, t.size);
  const ProgramSource& src = program(ctx, t, &op, in, cfg_defines(c, c.wg, vt, 0), "reduce", [] {
    return std::string(detail::kReduceFinal) + detail::kReduce;
  });
  int64_t tile = static_cast<int64_t>(c.wg) * vt;
  size_t groups = std::max<size_t>(
      1, std::min<size_t>(c.groups, static_cast<size_t>((std::max<int64_t>(n, 1) + tile - 1) / tile)));
  auto partial = ctx.alloc(groups * t.size);
  if (n > 0) {
    if (op.commutative) {
      cl_kernel k = ctx.kernel(src, "arrc_reduce_comm");
      Launch(ctx, k).val<cl_long>(n).mem(partial->mem()).extra(in).opargs(&op).run(
          groups * c.wg, c.wg);
    } else {
      int64_t chunk = (n + groups - 1) / groups;
      chunk = (chunk + tile - 1) / tile * tile;
      groups = static_cast<size_t>((n + chunk - 1) / chunk);
      cl_kernel k = ctx.kernel(src, "arrc_reduce_ordered");
      Launch(ctx, k).val<cl_long>(n).val<cl_long>(chunk).mem(partial->mem()).extra(in)
          .opargs(&op).run(groups * c.wg, c.wg);
    }
  } else {
    groups = 0;
  }
  reduce_final(ctx, c, src, op, static_cast<int64_t>(groups), partial->mem(), out, out_index);
}

void scan(Context& ctx, const ElemType& t, const Operator& op, int64_t n, const Fused& in,
          cl_mem out, int64_t out_offset, bool inclusive) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  Fused f = with_default_store(t, in, out, out_offset);
  // CPUs: the chunk totals of +, *, min, max of a scalar vectorised (kScanCpu)
  std::string defs = config(ctx).cpu && is_scalar_type(t) && op.kind != Operator::Custom ? vector_width_define(t.size) : "";
  run_scan(ctx, t, &op, f, t.size, kPlainAdapter, "arrc_sop", "ARRC_SNE", n, inclusive, "", defs);
}

namespace {
// compact() on GPUs: single pass over tiles with look-back (kCompact).
void compact_tiles(Context& ctx, const Config& c, const ElemType& t, int64_t n, const Fused& in,
                   cl_mem out, int64_t out_offset, cl_mem count_out) {
  int wg = c.scan_wg, vt = items_per_thread(c, t.size), sub = 1;
  if (ctx.impl().nv_warp) {
    // the warp path keeps VT items per work-item in registers: small
    // work-groups, more of them per SM, and SUB such sub-tiles per
    // look-back (measured best on the H100: docs/performance.md)
    wg = c.compact_wg;
    vt = c.compact_vt;
    sub = c.compact_sub;
    auto fits = [&] {
      return static_cast<size_t>(wg) * vt * sub * t.size + 4096 <= ctx.local_mem_bytes();
    };
    while (sub > 1 && !fits()) --sub;
    while (vt > 1 && !fits()) vt /= 2;
  }
  bool big = n >= INT_MAX;
  std::string ct = big ? "long" : "int";
  std::string defs = cfg_defines(c, wg, vt, c.compact_group_order) + "#define CT " + ct +
                     "\n#define SUB " + std::to_string(sub) + "\n" + store_defines(out);
  const ProgramSource& src = program(ctx, t, nullptr, in, defs, "compact", [] {
    return "inline CT arrc_cadd(CT a, CT b) { return a + b; }\n" +
           helpers("CT", "arrc_cadd", "(CT)0", "c") + detail::kCompact;
  });
  cl_kernel k = ctx.kernel(src, "arrc_compact");
  int64_t tile = static_cast<int64_t>(wg) * vt * sub;
  int64_t ntiles = (n + tile - 1) / tile;
  ScanState st = scan_state(ctx, ntiles, big ? 8 : 4);
  Launch(ctx, k)
      .val<cl_long>(n)
      .mem(st.ctl)
      .mem(st.aggs)
      .mem(st.incs)
      .val<cl_uint>(st.epoch)
      .mem(out)
      .val<cl_long>(out_offset)
      .mem(count_out)
      .extra(in)
      .run(static_cast<size_t>(ntiles) * wg, wg);
}
}  // namespace

int64_t compact(Context& ctx, const ElemType& t, int64_t n, const Fused& in, cl_mem out,
                int64_t out_offset, cl_mem count_out) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  BufferPtr cnt_buf;
  if (!count_out) {
    cnt_buf = ctx.alloc(sizeof(int64_t));
    count_out = cnt_buf->mem();
  }
  if (n <= 0) {
    int64_t z = 0;
    ctx.write(count_out, 0, sizeof z, &z);
    return 0;
  }
  Config c = config(ctx);
  if (c.cpu) {
    const ProgramSource& src =
        program(ctx, t, nullptr, in, store_defines(out), "compact cpu",
                [] { return std::string(detail::kChunkOffsets) + detail::kCompactCpu; });
    Chunks ch = cpu_chunks(ctx, n);
    auto offs = ctx.alloc(static_cast<size_t>(ch.count) * sizeof(int64_t));
    Launch(ctx, ctx.kernel(src, "arrc_ccompact_count"))
        .val<cl_long>(n).val<cl_long>(ch.size).mem(offs->mem()).extra(in).run(ch.count, 1);
    Launch(ctx, ctx.kernel(src, "arrc_chunk_offsets"))
        .val<cl_long>(ch.count).mem(offs->mem()).mem(count_out).run(1, 1);
    Launch(ctx, ctx.kernel(src, "arrc_ccompact_write"))
        .val<cl_long>(n).val<cl_long>(ch.size).mem(offs->mem()).mem(count_out).mem(out)
        .val<cl_long>(out_offset).extra(in).run(ch.count, 1);
  } else {
    compact_tiles(ctx, c, t, n, in, out, out_offset, count_out);
  }
  int64_t count = 0;
  ctx.read(count_out, 0, sizeof count, &count);
  return count;
}


void fill(Context& ctx, const ElemType& t, int64_t n, const std::string& value, cl_mem out,
          int64_t out_offset) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  if (n <= 0) return;
  Fused none;
  const ProgramSource& src =
      program(ctx, t, nullptr, none, "#define ARRC_FILL_VALUE (" + value + ")\n", "misc",
              [] { return detail::kMisc; });
  cl_kernel k = ctx.kernel(src, "arrc_fill");
  Launch(ctx, k).val<cl_long>(n).mem(out).val<cl_long>(out_offset).run(
      round_up(static_cast<size_t>(n), 256), 256);
}

void scatter(Context& ctx, const ElemType& t, int64_t n, const Fused& in, cl_mem dest,
             int64_t dest_offset, int64_t dest_n) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  if (n <= 0) return;
  const ProgramSource& src =
      program(ctx, t, nullptr, in, store_defines(dest), "scatter", [] { return detail::kScatter; });
  cl_kernel k = ctx.kernel(src, "arrc_scatter");
  Launch(ctx, k)
      .val<cl_long>(n)
      .mem(dest)
      .val<cl_long>(dest_offset)
      .val<cl_long>(dest_n)
      .extra(in)
      .run(round_up(static_cast<size_t>(n), 256), 256);
}

void gather(Context& ctx, const ElemType& t, int64_t n, const Fused& in, cl_mem src_mem,
            int64_t src_offset, int64_t src_stride, int64_t src_n, cl_mem out, int64_t out_offset,
            int32_t pos_id) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  if (n <= 0) return;
  const ProgramSource& src =
      program(ctx, t, nullptr, in, "", "gather", [] { return detail::kGather; });
  cl_kernel k = ctx.kernel(src, "arrc_gather");
  Launch(ctx, k)
      .val<cl_long>(n)
      .mem(src_mem)
      .val<cl_long>(src_offset)
      .val<cl_long>(src_stride)
      .val<cl_long>(src_n)
      .mem(out)
      .val<cl_long>(out_offset)
      .mem(ctx.error_buffer())
      .val<cl_int>(pos_id)
      .extra(in)
      .run(round_up(static_cast<size_t>(n), 256), 256);
}

// Radix sort: sort.cpp.

// ---------------------------------------------------------------------------
// Segmented

namespace {

std::string seg_type_prelude() {
  return "typedef struct { T v; int f; int c; } arrc_seg;\n";
}

// The CPU schedule of the segmented scans: the scan adapter over (v, flag,
// count). mode: 0 = inclusive scan, 1 = exclusive scan.
std::string seg_adapter(int mode) {
  std::string s = seg_type_prelude();
  s += R"CLC(
#define ST arrc_seg
inline arrc_seg arrc_segop_fn(arrc_seg a, arrc_seg b ARRC_OP_PARAMS) {
  arrc_seg r;
  if (b.f) r.v = b.v;
  else r.v = arrc_op(a.v, b.v);
  r.f = a.f | b.f;
  r.c = a.c + b.c;
  return r;
}
#define arrc_segop(a, b) arrc_segop_fn((a), (b) ARRC_OP_ARGS)
#define arrc_sop arrc_segop
inline arrc_seg arrc_seg_ne_fn(int unused ARRC_OP_PARAMS) {
  arrc_seg r; r.v = ARRC_NE; r.f = 0; r.c = 0; return r;
}
#define ARRC_SNE arrc_seg_ne_fn(0 ARRC_OP_ARGS)
inline arrc_seg arrc_seg_load(long i ARRC_PARAMS) {
  arrc_seg r;
  r.v = arrc_load(i ARRC_ARGS);
  r.f = (arrc_flag(i ARRC_ARGS) != 0) | (i == 0);  // evaluated at 0 too (its reads' checks)
  r.c = r.f;
  return r;
}
#define arrc_sload(i) arrc_seg_load(i ARRC_ARGS)
)CLC";
  if (mode == 0) {
    s += "#define arrc_sstore(i, s) arrc_store(i, (s).v ARRC_ARGS)\n";
  } else {
    s += "inline void arrc_seg_store(long i, arrc_seg s ARRC_PARAMS ARRC_OP_PARAMS) {\n"
         "  arrc_store(i, (i == 0 || arrc_flag(i ARRC_ARGS)) ? ARRC_NE : s.v ARRC_ARGS);\n}\n"
         "#define arrc_sstore(i, s) arrc_seg_store(i, s ARRC_ARGS ARRC_OP_ARGS)\n";
  }
  return s;
}

// sizeof(struct { T v; int f; int c; }) on the device.
size_t seg_size(const ElemType& t) {
  size_t align = std::max<size_t>(t.alignment(), 4);
  size_t sz = (t.size + 3) / 4 * 4 + 8;
  return (sz + align - 1) / align * align;
}

// The pair of the GPU segmented scan (kSegScan): { T v; int c; } with its
// padding spelled out (see ElemType::record), and its operator.
std::string seg_pair_prelude(const ElemType& t) {
  size_t align = std::max<size_t>(t.alignment(), 4);
  size_t c_off = (t.size + 3) / 4 * 4, end = c_off + 4;
  size_t total = (end + align - 1) / align * align;
  std::string s = "typedef struct { T v;";
  if (c_off > t.size) s += " uchar arrc_pad0[" + std::to_string(c_off - t.size) + "];";
  s += " int c;";
  if (total > end) s += " uint arrc_pad1[" + std::to_string((total - end) / 4) + "];";
  s += " } arrc_segp;\n";
  s += R"CLC(
inline arrc_segp arrc_segop_fn(arrc_segp a, arrc_segp b ARRC_OP_PARAMS) {
  arrc_segp r = b;
  if (!b.c) r.v = arrc_op(a.v, b.v);
  r.c = a.c + b.c;
  return r;
}
#define arrc_segop(a, b) arrc_segop_fn((a), (b) ARRC_OP_ARGS)
inline arrc_segp arrc_segne_fn(int unused ARRC_OP_PARAMS) {
  arrc_segp r;
  r.v = ARRC_NE;
  r.c = 0;
  return r;
}
#define ARRC_SEGNE arrc_segne_fn(0 ARRC_OP_ARGS)
)CLC";
  return s;
}

// Segmented scan (mode 0 inclusive, 1 exclusive) or reduce (mode 2, the
// count of segments to seg_count) with flags on GPUs: kSegScan. Items per
// work-item: as many as fit ARRC_TILE_BYTES with their flag bytes
// (ARRC_SEG_VT overrides, 1..32). On NVIDIA, from 2^22 items, work-groups
// of 256 with tiles of 35 KiB (28 ints per work-item): the tile scan and
// look-back then come once per 7168 items, 10^8 ints on the H100: reduce
// 0.57 -> 0.68 of copy, scan 0.85 -> 0.88; smaller inputs keep the scan's
// shape, as such tiles leave SMs idle (10^6: reduce 0.029 -> 0.035 ms).
// ARRC_SEG_WG overrides the work-group size.
void run_segscan(Context& ctx, const Config& c, const ElemType& t, const Operator& op,
                 const Fused& f, int64_t n, int mode, cl_mem seg_count) {
  static const int vt_env = env_int("ARRC_SEG_VT", 0);
  static const int wg_env = env_int("ARRC_SEG_WG", 0);
  const bool big = ctx.impl().nv_warp && n >= (int64_t(1) << 22);
  int wg = big ? std::min(c.scan_wg, 256) : c.scan_wg;
  if (wg_env > 0) wg = std::clamp(wg_env / 32 * 32, 32, c.scan_wg);
  size_t per = static_cast<size_t>(wg) * (t.size + 1);
  const size_t big_tile = 256 * 28 * (4 + 1);  // 28 ints and their flags per work-item
  size_t budget = big ? big_tile : c.tile_bytes;
  int vt = vt_env > 0 ? std::min(vt_env, 32)
                      : static_cast<int>(std::clamp<size_t>(budget / per, 1, big ? 28 : 16));
  while (vt > 1 && static_cast<size_t>(wg) * vt * (t.size * 33 / 32 + 1) + 8192 >
                       ctx.local_mem_bytes())
    --vt;
  std::string defs = cfg_defines(c, wg, vt, c.scan_group_order) +
                     "#define ARRC_SEG_MODE " + std::to_string(mode) + "\n";
  const ProgramSource& src = program(ctx, t, &op, f, defs, "segscan gpu", [&] {
    return seg_pair_prelude(t) + helpers("arrc_segp", "arrc_segop", "ARRC_SEGNE", "s") +
           detail::kSegScan;
  });
  if (n <= 0) return;
  int64_t tile = static_cast<int64_t>(wg) * vt;
  int64_t ntiles = (n + tile - 1) / tile;
  size_t pair = t.size + 4 + 8;  // an upper bound of sizeof(arrc_segp)
  ScanState st = scan_state(ctx, ntiles, pair);
  Launch(ctx, ctx.kernel(src, "arrc_segscan"))
      .val<cl_long>(n).mem(st.ctl).mem(st.aggs).mem(st.incs).val<cl_uint>(st.epoch).mem(seg_count)
      .extra(f).opargs(&op).run(static_cast<size_t>(ntiles) * wg, wg);
}

}  // namespace

void segmented_scan(Context& ctx, const ElemType& t, const Operator& op, int64_t n,
                    const Fused& in, cl_mem out, int64_t out_offset, bool inclusive) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  Fused f = with_default_store(t, in, out, out_offset);
  Config c = config(ctx);
  if (!c.cpu) return run_segscan(ctx, c, t, op, f, n, inclusive ? 0 : 1, nullptr);
  run_scan(ctx, t, &op, f, seg_size(t), seg_adapter(inclusive ? 0 : 1), "arrc_segop",
           "ARRC_SNE", n, inclusive);
}

int64_t segmented_reduce(Context& ctx, const ElemType& t, const Operator& op, int64_t n,
                         const Fused& in, cl_mem out, int64_t out_offset) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  if (n <= 0) return 0;
  if (config(ctx).cpu) {
    const ProgramSource& src =
        program(ctx, t, &op, in, store_defines(out), "segreduce cpu",
                [] { return std::string(detail::kChunkOffsets) + detail::kSegReduceCpu; });
    Chunks ch = cpu_chunks(ctx, n);
    auto starts = ctx.alloc(static_cast<size_t>(ch.count) * sizeof(int64_t));
    auto heads = ctx.alloc(static_cast<size_t>(ch.count) * t.size);
    auto tails = ctx.alloc(static_cast<size_t>(ch.count) * t.size);
    auto total = ctx.alloc(sizeof(int64_t));
    Launch(ctx, ctx.kernel(src, "arrc_csegred_count"))
        .val<cl_long>(n).val<cl_long>(ch.size).mem(starts->mem()).extra(in).run(ch.count, 1);
    Launch(ctx, ctx.kernel(src, "arrc_chunk_offsets"))
        .val<cl_long>(ch.count).mem(starts->mem()).mem(total->mem()).run(1, 1);
    Launch(ctx, ctx.kernel(src, "arrc_csegred_fold"))
        .val<cl_long>(n).val<cl_long>(ch.size).mem(starts->mem()).mem(heads->mem())
        .mem(tails->mem()).mem(out).val<cl_long>(out_offset).extra(in).opargs(&op)
        .run(ch.count, 1);
    Launch(ctx, ctx.kernel(src, "arrc_csegred_join"))
        .val<cl_long>(ch.count).mem(starts->mem()).mem(total->mem()).mem(heads->mem())
        .mem(tails->mem()).mem(out).val<cl_long>(out_offset).extra(in).opargs(&op).run(1, 1);
    int64_t count = 0;
    ctx.read(total->mem(), 0, sizeof count, &count);
    return count;
  }
  auto cnt = ctx.alloc(sizeof(int32_t));
  Fused f = with_default_store(t, in, out, out_offset);
  run_segscan(ctx, config(ctx), t, op, f, n, 2, cnt->mem());
  int32_t c = 0;
  ctx.read(cnt->mem(), 0, sizeof c, &c);
  return c;
}

void segmented_reduce_offsets(Context& ctx, const ElemType& t, const Operator& op, int64_t nseg,
                              cl_mem offsets, const Fused& in, cl_mem out, int64_t out_offset) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  if (nseg <= 0) return;
  Config c = config(ctx);
  if (c.cpu) {
    const ProgramSource& src = program(ctx, t, &op, in, store_defines(out), "segreduce offsets cpu",
                                       [] { return detail::kSegReduceOffsetsCpu; });
    int64_t chunks = std::min<int64_t>(nseg, static_cast<int64_t>(ctx.compute_units()) * 4);
    Launch(ctx, ctx.kernel(src, "arrc_csegred_offs"))
        .val<cl_long>(nseg).val<cl_long>(chunks).mem(offsets).mem(out).val<cl_long>(out_offset)
        .extra(in).opargs(&op).run(chunks, 1);
    return;
  }
  if (ctx.impl().nv_warp) {
    // lanes per segment from the mean length (ARRC_SEGOFF_VT elements per lane
    // and window, 16: 4 / 8 / 12 / 16 measured 0.57 / 0.73 / 0.75 / 0.80 of copy
    // bandwidth at 10^8 int in segments of 1-64)
    static const int svt_env = env_int("ARRC_SEGOFF_VT", 0);
    int svt = svt_env > 0 ? std::min(svt_env, 32) : 16;
    std::string defs = cfg_defines(c, 256, 1, 0) + "#define SVT " + std::to_string(svt) + "\n" +
                       store_defines(out);
    const ProgramSource& src = program(ctx, t, &op, in, defs, "segreduce offsets warp", [] {
      return helpers("T", "arrc_op", "ARRC_NE", "t") + detail::kSegReduceOffsetsWarp;
    });
    size_t groups = std::min<size_t>(static_cast<size_t>((nseg + 7) / 8), c.groups * 4);
    Launch(ctx, ctx.kernel(src, "arrc_segreduce_off_warp"))
        .val<cl_long>(nseg).mem(offsets).mem(out).val<cl_long>(out_offset).extra(in).opargs(&op)
        .run(groups * 256, 256);
    return;
  }
  const ProgramSource& src =
      program(ctx, t, &op, in, store_defines(out), "segreduce offsets",
              [] { return detail::kSegReduceOffsets; });
  cl_kernel k = ctx.kernel(src, "arrc_segreduce_off");
  size_t L = 64;
  size_t groups = std::min<size_t>(static_cast<size_t>(nseg), c.groups * 8);
  Launch(ctx, k)
      .val<cl_long>(nseg)
      .mem(offsets)
      .mem(out)
      .val<cl_long>(out_offset)
      .local(L * t.size)
      .extra(in)
      .opargs(&op)
      .run(groups * L, L);
}

void segmented_scan_offsets(Context& ctx, const ElemType& t, const Operator& op, int64_t n,
                            int64_t nseg, cl_mem offsets, const Fused& in, cl_mem out,
                            int64_t out_offset, bool inclusive) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  if (n <= 0) return;
  auto flags = ctx.alloc(static_cast<size_t>(n));
  ctx.fill_zero(flags->mem(), 0, static_cast<size_t>(n));
  static ProgramSource flags_prog(std::string(kernel_prelude()) +
                                  "#define T int\ninline T arrc_op(T a, T b) { return a + b; }\n"
                                  "#define ARRC_NE 0\n#define ARRC_PARAMS\n#define ARRC_ARGS\n"
                                  "#define ARRC_OP_PARAMS\n#define ARRC_OP_ARGS\n"
                                  "#define ARRC_OUT(p, v) (out[(p)] = (v))\n"
                                  "inline int arrc_load(long i) { return 0; }\n" +
                                  detail::kSegReduceOffsets);
  cl_kernel fk = ctx.kernel(flags_prog, "arrc_offsets_to_flags");
  Launch(ctx, fk).val<cl_long>(nseg).val<cl_long>(n).mem(offsets).mem(flags->mem()).run(
      round_up(static_cast<size_t>(nseg), 64), 64);
  Fused f = in;
  f.args.push_back(KernelArg::buffer("__global const uchar*", "arrc_segflags", flags->mem()));
  f.source += "\ninline int arrc_flag(long i ARRC_PARAMS) { return arrc_segflags[i]; }\n";
  segmented_scan(ctx, t, op, n, f, out, out_offset, inclusive);
}

// ---------------------------------------------------------------------------
// Histogram

namespace prim {

// OpenCL C that combines v into *p atomically in address space `as`
// (__local or __global) for a scalar type `ty` of `size` bytes under the
// operator `op` (expression over a and b); empty if it cannot be done.
// Defines the function `fname(as ty* p, ty v ARRC_OP_PARAMS)`.
std::string atomic_update_fn(const std::string& fname, const std::string& as,
                             const std::string& ty, size_t size, const Operator& op) {
  bool is32 = ty == "int" || ty == "uint", is64 = ty == "long" || ty == "ulong";
  const char* fn = op.kind == Operator::Add ? "add"
                   : op.kind == Operator::Min ? "min"
                   : op.kind == Operator::Max ? "max" : nullptr;
  std::string head = "inline void " + fname + "(" + as + " " + ty + "* p, " + ty + " v ARRC_OP_PARAMS) {\n";
  if (fn && is32)
    return head + "  atomic_" + fn + "((volatile " + as + " " + ty + "*)p, v);\n}\n";
  if (fn && is64)
    return head + "  atom_" + fn + "((volatile " + as + " " + ty + "*)p, v);\n}\n";
  if (size != 4 && size != 8) return "";
  // NVIDIA (ARRC_NV_FATOMIC): floating-point adds as the hardware's own
  // reductions (red.*.add.f32/f64, sm_60 on) instead of compare-and-swap loops
  std::string native;
  if (op.kind == Operator::Add && (ty == "float" || ty == "double")) {
    bool shared = as == "__local";
    std::string addr = shared ? "\"r\"((uint)(ulong)p)" : "\"l\"((ulong)p)";
    native = std::string("#ifdef ARRC_NV_FATOMIC\n  asm volatile(\"red.") + (shared ? "shared" : "global") +
             ".add." + (ty == "float" ? "f32" : "f64") + " [%0], %1;\" :: " + addr + ", \"" +
             (ty == "float" ? "f" : "d") + "\"(v) : \"memory\");\n  return;\n#endif\n";
  }
  std::string U = size == 8 ? "ulong" : "uint";
  std::string cas = size == 8 ? "atom_cmpxchg" : "atomic_cmpxchg";
  std::string un = "union { " + U + " u; " + ty + " t; }";
  return head + native + "  volatile " + as + " " + U + "* q = (volatile " + as + " " + U + "*)p;\n" +
         "  " + un + " o, nw;\n" +
         "  o.u = *q;\n"
         "  for (;;) {\n"
         "    " + ty + " a = o.t, b = v;\n"
         "    nw.t = (" + op.expr + ");\n"
         "    " + U + " prev = " + cas + "(q, o.u, nw.u);\n"
         "    if (prev == o.u) break;\n"
         "    o.u = prev;\n"
         "  }\n}\n";
}

}  // namespace prim

namespace {

// ARRC_HIST_<SPACE>_UPDATE(p, v) for T and op, or "" when T cannot be
// updated atomically (records whose operator does not work member by
// member, or members of 1 or 2 bytes). space: "LOCAL" or "GLOBAL".
std::string hist_update(const ElemType& t, const Operator& op, const std::string& space) {
  std::string as = space == "LOCAL" ? "__local" : "__global";
  std::string macro = "ARRC_HIST_" + space + "_UPDATE";
  std::string fname = "arrc_hist_" + std::string(space == "LOCAL" ? "l" : "g") + "upd";
  if (!t.is_record()) {
    std::string f = prim::atomic_update_fn(fname, as, t.name, t.size, op);
    if (f.empty()) return "";
    return f + "#define " + macro + "(p, v) " + fname + "((p), (v) ARRC_OP_ARGS)\n";
  }
  if (op.fields.size() != t.fields.size()) return "";
  std::string out, calls;
  for (size_t k = 0; k < t.fields.size(); ++k) {
    std::string fk = fname + "_f" + std::to_string(k);
    std::string f = prim::atomic_update_fn(fk, as, t.fields[k].name, t.fields[k].size, op.fields[k]);
    if (f.empty()) return "";
    out += op.fields[k].prelude + f;
    calls += " " + fk + "(&(p)->f" + std::to_string(k) + ", (v).f" + std::to_string(k) +
             " ARRC_OP_ARGS);";
  }
  return out + "#define " + macro + "(p, v) do {" + calls + " } while (0)\n";
}

// The exact ordered path (any operator): sort (bin, index) pairs, find the
// bins' ranges, fold each range in index order.
void histogram_sorted(Context& ctx, const ElemType& t, const Operator& op, int64_t nbins,
                      int64_t n, const Fused& in, cl_mem out, int64_t out_offset) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  if (n >= INT_MAX) throw Error("histogram: at most 2^31-1 elements on this path");
  bool wide = nbins >= static_cast<int64_t>(UINT32_MAX);
  ElemType kt = wide ? ElemType::of<uint64_t>() : ElemType::of<uint32_t>();
  auto keys = ctx.alloc(static_cast<size_t>(n) * kt.size);
  auto perm = ctx.alloc(static_cast<size_t>(n) * sizeof(int32_t));
  auto offs = ctx.alloc(static_cast<size_t>(nbins + 1) * sizeof(int64_t));
  std::string defs = "#define KEYT " + kt.name + "\n";
  const ProgramSource& ksrc = program(ctx, t, nullptr, in, defs, "histogram sorted keys",
                                      [] { return detail::kHistSorted; });
  Launch(ctx, ctx.kernel(ksrc, "arrc_hist_keys"))
      .val<cl_long>(n).val<cl_long>(nbins).mem(keys->mem()).mem(perm->mem()).extra(in)
      .run(round_up(static_cast<size_t>(n), 256), 256);
  ElemType pt = ElemType::of<int32_t>();
  sort_pairs(ctx, kt, n, keys->mem(), &pt, perm->mem());
  if (config(ctx).cpu) {
    Chunks ch = cpu_chunks(ctx, std::max<int64_t>(n, 1));
    Launch(ctx, ctx.kernel(ksrc, "arrc_chist_bounds"))
        .val<cl_long>(n).val<cl_long>(nbins).val<cl_long>(ch.size).mem(keys->mem())
        .mem(offs->mem()).run(ch.count, 1);
  } else {
    Launch(ctx, ctx.kernel(ksrc, "arrc_hist_bounds"))
        .val<cl_long>(n).val<cl_long>(nbins).mem(keys->mem()).mem(offs->mem())
        .run(round_up(static_cast<size_t>(nbins + 1), 256), 256);
  }
  // each bin's elements in index order: arrc_load read through the permutation
  Fused f = in;
  f.args.push_back(KernelArg::buffer("__global const int*", "arrc_hist_perm", perm->mem()));
  f.source = "#define arrc_load arrc_hist_user_load\n" + f.source +
             "\n#undef arrc_load\n"
             "inline T arrc_load(long j ARRC_PARAMS) {\n"
             "  return arrc_hist_user_load(arrc_hist_perm[j] ARRC_ARGS);\n}\n";
  segmented_reduce_offsets(ctx, t, op, nbins, offs->mem(), f, out, out_offset);
}

}  // namespace

void histogram(Context& ctx, const ElemType& t, const Operator& op, int64_t nbins, int64_t n,
               const Fused& in, cl_mem out, int64_t out_offset, int64_t row_width,
               bool column_bins) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  if (nbins <= 0) return;
  Config c = config(ctx);
  std::string store = store_defines(out);
  // Sort-based grouping from ARRC_HIST_SORT_BINS bins on (0: only where
  // atomics cannot be used). Measured (docs/performance.md, "Histogram over
  // the number of bins"): on PoCL the chunk histograms, then global atomics,
  // beat sorting from 16 to 10^6 bins (atomics 2x faster at 2.6e5-1e6 bins).
  static const int64_t sort_bins = env_int("ARRC_HIST_SORT_BINS", 0);
  if (sort_bins > 0 && nbins >= sort_bins && n > 0 && n < INT_MAX)
    return histogram_sorted(ctx, t, op, nbins, n, in, out, out_offset);
  if (c.cpu) {
    // private histograms per chunk, merged in chunk order (exact for any
    // operator), when they are no larger than the chunks themselves
    Chunks ch = cpu_chunks(ctx, std::max<int64_t>(n, 1));
    // one chunk per compute unit where the private histograms would be a
    // sizeable part of the work (init and merge: chunks x bins; group-by's
    // 10^4 bins of 10^6 elements: 8 chunks 0.57 ms, 2 chunks 0.53)
    if (n > 0 && ch.count * nbins * 16 > n) ch = cpu_chunks(ctx, n, 1);
    if (nbins <= ch.size || n <= 0) {
      const ProgramSource& src =
          program(ctx, t, &op, in, store, "histogram cpu", [] { return detail::kHistCpu; });
      auto part = ctx.alloc(static_cast<size_t>(std::max<int64_t>(ch.count * nbins, 1)) * t.size);
      int64_t chunks = n > 0 ? ch.count : 0;
      if (chunks > 0)
        Launch(ctx, ctx.kernel(src, "arrc_hist_chunks"))
            .val<cl_long>(n).val<cl_long>(ch.size).val<cl_long>(nbins)
            .val<cl_long>(std::max<int64_t>(row_width, 0)).mem(part->mem())
            .extra(in).opargs(&op).run(chunks, 1);
      // the bins in one range per compute unit (at least 1024 each)
      Chunks bins = cpu_chunks(ctx, nbins, 1, 1024);
      Launch(ctx, ctx.kernel(src, "arrc_hist_merge"))
          .val<cl_long>(chunks).val<cl_long>(nbins).val<cl_long>(bins.size).mem(part->mem())
          .mem(out).val<cl_long>(out_offset).extra(in).opargs(&op).run(bins.count, 1);
      return;
    }
  }
  std::string gupd = op.commutative ? hist_update(t, op, "GLOBAL") : "";
  static const int fatomic_env = env_int("ARRC_NV_FATOMICS", 1);
  if (ctx.impl().nv_warp && fatomic_env) store += "#define ARRC_NV_FATOMIC 1\n";
  if (c.cpu) {
    if (gupd.empty()) return histogram_sorted(ctx, t, op, nbins, n, in, out, out_offset);
  } else if (!op.commutative) {
    return histogram_sorted(ctx, t, op, nbins, n, in, out, out_offset);
  }
  // Local-memory schedules (GPU): private per work-item when WG copies fit
  // (largest WG of 256/128/64), else shared copies updated atomically.
  const size_t budget = std::min<size_t>(32768, ctx.local_mem_bytes() / 2);
  size_t bytes = static_cast<size_t>(nbins) * t.size;
  int wg = 0;
  if (!c.cpu)
    for (int w : {256, 128, 64})
      if (static_cast<size_t>(w) <= ctx.max_work_group_size() && bytes * w <= budget) {
        wg = w;
        break;
      }
  // private copies only at full width, else shared copies updated
  // atomically where the type allows (H100, 10^8 int: 64 bins privately
  // with 128 work-items 0.65 of copy bandwidth; docs/performance.md)
  std::string lupd = (!c.cpu && wg < 256 && bytes <= budget) ? hist_update(t, op, "LOCAL") : "";
  if (!lupd.empty()) wg = 0;
  // the groups' histograms in `part` folded bin by bin into the output
  auto merge_parts = [&](const ProgramSource& src, int64_t groups, const Buffer& part, int wgs) {
    Launch(ctx, ctx.kernel(src, "arrc_hist_merge_parts"))
        .val<cl_long>(groups).val<cl_long>(nbins).mem(part.mem()).mem(out)
        .val<cl_long>(out_offset).extra(in).opargs(&op).run(static_cast<size_t>(nbins) * wgs, wgs);
  };
  // Rows (arrc_hist_rows): a copy per lane of row_width work-items, plain
  // updates where the bin's column is the work-item's. Where at least half
  // the group's work-items get a column (H100, k-means' sums, 200 double
  // bins in rows of 20: docs/performance.md).
  static const int rows_env = env_int("ARRC_HIST_ROWS", 1);
  if (!lupd.empty() && rows_env && column_bins && row_width >= 2 && row_width <= c.wg && n > 0) {
    const int R = static_cast<int>(row_width);
    const int64_t fit = static_cast<int64_t>(budget / bytes) - 1;
    const int L = static_cast<int>(std::min<int64_t>(c.wg / R, fit));
    if (L >= 1 && L * R >= c.wg / 2) {
      // 8 rows' loads in flight per work-item (H200, k-means' sums: 52 us
      // against 57 with 4, 80 with 16)
      std::string defs = "#define WG " + std::to_string(c.wg) + "\n#define HU " +
                         std::to_string(std::clamp(env_int("ARRC_HIST_UNROLL", 8), 1, 16)) + "\n" +
                         lupd + store;
      const ProgramSource& src = program(ctx, t, &op, in, defs, "histogram gpu", [] {
        return std::string(detail::kReduceFinal) + detail::kHistGpu;
      });
      // half the reduce's groups per compute unit: fewer copies to merge
      // (H100, k-means' sums: 4 per CU 66 us + merge 4.7, 8 per CU 69 + 5.3,
      // 2 per CU 98)
      const int64_t rows = (n + R - 1) / R;
      int64_t groups = std::min<int64_t>(std::max<int64_t>(1, static_cast<int64_t>(c.groups) / 2),
                                         (rows + L * 16 - 1) / (L * 16));
      groups = std::max<int64_t>(1, std::min<int64_t>(groups, std::max<int64_t>(1, (1 << 22) / nbins)));
      auto part = ctx.alloc(static_cast<size_t>(groups * nbins) * t.size);
      Launch(ctx, ctx.kernel(src, "arrc_hist_rows"))
          .val<cl_long>(n).val<cl_long>(nbins).val<cl_int>(R).val<cl_int>(L)
          .val<cl_uint>(static_cast<cl_uint>(0xffffffffu / static_cast<uint32_t>(R)))
          .mem(part->mem()).local(bytes * static_cast<size_t>(L + 1)).extra(in).opargs(&op)
          .run(static_cast<size_t>(groups) * c.wg, c.wg);
      merge_parts(src, groups, *part, c.wg);
      return;
    }
  }
  if (wg > 0 || !lupd.empty()) {
    bool priv = wg > 0;
    if (!priv) wg = c.wg;
    int reps = priv ? 1 : static_cast<int>(std::clamp<size_t>(budget / bytes, 1, wg / 32));
    // knobs: the grid-stride sweep (1) or a chunk per group (0); elements
    // in flight per work-item
    static const int grid_env = env_int("ARRC_HIST_GRID", 1);
    static const int unroll_env = env_int("ARRC_HIST_UNROLL", 4);
    std::string defs = "#define WG " + std::to_string(wg) + "\n#define ARRC_HIST_GRID " +
                       std::to_string(grid_env != 0) + "\n#define HU " +
                       std::to_string(std::clamp(unroll_env, 1, 16)) + "\n" + lupd + store;
    const ProgramSource& src = program(ctx, t, &op, in, defs, "histogram gpu", [] {
      return std::string(detail::kReduceFinal) + detail::kHistGpu;
    });
    // groups: enough to fill the device, few enough that their histograms
    // (groups * nbins elements) stay small next to the input
    int64_t per = std::max<int64_t>(static_cast<int64_t>(wg) * 16, 1);
    int64_t groups = std::min<int64_t>(static_cast<int64_t>(c.groups), (n + per - 1) / per);
    groups = std::min<int64_t>(groups, std::max<int64_t>(1, (1 << 22) / nbins));
    groups = std::max<int64_t>(groups, 1);
    int64_t chunk = (n + groups - 1) / groups;
    auto part = ctx.alloc(static_cast<size_t>(groups * nbins) * t.size);
    size_t lbytes = priv ? bytes * wg : bytes * reps;
    if (priv)
      Launch(ctx, ctx.kernel(src, "arrc_hist_private"))
          .val<cl_long>(n).val<cl_long>(nbins).val<cl_long>(chunk).mem(part->mem()).local(lbytes)
          .extra(in).opargs(&op).run(static_cast<size_t>(groups) * wg, wg);
    else
      Launch(ctx, ctx.kernel(src, "arrc_hist_shared"))
          .val<cl_long>(n).val<cl_long>(nbins).val<cl_long>(chunk).val<cl_int>(reps)
          .mem(part->mem()).local(lbytes).extra(in).opargs(&op)
          .run(static_cast<size_t>(groups) * wg, wg);
    merge_parts(src, groups, *part, wg);
    return;
  }
  if (gupd.empty()) return histogram_sorted(ctx, t, op, nbins, n, in, out, out_offset);
  // Global atomics: accumulate in `out` itself when there is one, else in a
  // temporary that is then stored through the hook.
  std::string defs = "#define WG " + std::to_string(c.wg) + "\n" + gupd + store;
  const ProgramSource& src = program(ctx, t, &op, in, defs, "histogram gpu", [] {
    return std::string(detail::kReduceFinal) + detail::kHistGpu;
  });
  // GPUs: where the bins are few for global memory (at most 2^18), each
  // group of work-groups adds to its own copy (up to ARRC_HIST_COPIES = 32
  // copies, at most 2^22 elements in all), folded at the end: the updates
  // of one bin otherwise queue at one address (H100, 10^8 (int, float)
  // pairs into 10^5 bins: 9.96 -> 4.46 ms; into 10^6 bins 4 copies took
  // 5.3 ms against 4.3 for one: docs/performance.md).
  size_t L = static_cast<size_t>(c.wg);
  size_t groups = std::max<size_t>(
      1, std::min<size_t>(c.groups, (static_cast<size_t>(std::max<int64_t>(n, 1)) + L * 4 - 1) / (L * 4)));
  static const int copies_env = env_int("ARRC_HIST_COPIES", 32);
  int64_t copies = c.cpu || nbins > (int64_t(1) << 18)
                      ? 1
                      : std::clamp<int64_t>(std::min<int64_t>((int64_t(1) << 22) / nbins, copies_env), 1,
                                            static_cast<int64_t>(groups));
  BufferPtr tmp;
  cl_mem acc = out;
  int64_t acc_off = out_offset;
  if (!out || copies > 1) {
    tmp = ctx.alloc(static_cast<size_t>(copies * nbins) * t.size);
    acc = tmp->mem();
    acc_off = 0;
  }
  Launch(ctx, ctx.kernel(src, "arrc_hist_init"))
      .val<cl_long>(copies * nbins).mem(acc).val<cl_long>(acc_off).opargs(&op)
      .run(round_up(static_cast<size_t>(copies * nbins), L), L);
  if (n > 0)
    Launch(ctx, ctx.kernel(src, "arrc_hist_global"))
        .val<cl_long>(n).val<cl_long>(nbins).val<cl_long>(copies).mem(acc).val<cl_long>(acc_off).extra(in)
        .opargs(&op).run(groups * L, L);
  if (copies > 1) {
    Launch(ctx, ctx.kernel(src, "arrc_hist_merge_copies"))
        .val<cl_long>(copies).val<cl_long>(nbins).mem(acc).mem(out).val<cl_long>(out_offset).extra(in)
        .opargs(&op).run(round_up(static_cast<size_t>(nbins), L), L);
    return;
  }
  if (!out)
    Launch(ctx, ctx.kernel(src, "arrc_hist_emit"))
        .val<cl_long>(nbins).mem(acc).mem(out).val<cl_long>(0).extra(in)
        .run(round_up(static_cast<size_t>(nbins), L), L);
}

// ---------------------------------------------------------------------------
// Expand

namespace {

// The sizes' inclusive scan as longs, then (below) where the ends go.
const char* kExpandSizesLong = R"CLC(
#define ST long
inline long arrc_ladd(long a, long b) { return a + b; }
#define arrc_sop arrc_ladd
#define ARRC_SNE 0L
#define arrc_sload(i) max(arrc_size(i ARRC_ARGS), 0L)
)CLC";
const std::string kExpandSizesAdapter =
    std::string(kExpandSizesLong) + "#define arrc_sstore(i, v) (arrc_ends[i] = (v))\n";
// The ends as uint (their low 32 bits, exact where the total is below 2^32),
// so that the walk reads 4 bytes per source instead of 8. GPUs scan uints
// modulo 2^32 (the scan's tiles hold twice the items of longs) and count
// where a sum wrapped, and sizes of 2^32 or more, into arrc_side[0], and
// store the last end into arrc_side[1] too (one read back for both): the
// total is wraps * 2^32 + the last end. CPUs scan longs and store the last
// end whole into arrc_side (a long). (H200, 10^8 int sources: expand of sizes
// 0..7 1.48 -> 1.28 ms; docs/performance.md.)
const char* kExpandSizesAdapterWraps = R"CLC(
#define ST uint
inline uint arrc_uadd(uint a, uint b) { return a + b; }
#define arrc_sop arrc_uadd
#define ARRC_SNE 0u
inline uint arrc_narrow_size(long s, __global uint* wraps) {
  if (s > 0xffffffffL) atomic_inc(wraps);
  return (uint)max(s, 0L);
}
#define arrc_sload(i) arrc_narrow_size(arrc_size(i ARRC_ARGS), arrc_side)
inline void arrc_end_store32(long i, uint v, __global uint* ends, __global uint* side, long last) {
  ends[i] = v;
  if (i == last) side[1] = v;
}
#define arrc_sstore(i, v) arrc_end_store32((i), (v), arrc_ends, arrc_side, arrc_last)
#define ARRC_SCAN_WRAPS arrc_side
)CLC";
const std::string kExpandSizesAdapterNarrow = std::string(kExpandSizesLong) + R"CLC(
#define arrc_sstore(i, v) arrc_end_store((i), (v), arrc_ends, arrc_side, arrc_last)
inline void arrc_end_store(long i, long v, __global uint* ends, __global long* total, long last) {
  ends[i] = (uint)v;
  if (i == last) total[0] = v;
}
)CLC";

// Config of the GPU walks: work-group size, items per work-item (values
// held in local memory or registers: at most 16 KiB a tile), groups.
struct WalkShape {
  int wg, vt;
  size_t groups;
};
WalkShape walk_shape(Context& ctx, const Config& c, const ElemType& t, int vt_max) {
  WalkShape w{c.wg, vt_max, c.groups};
  while (w.vt > 1 && static_cast<size_t>(w.wg) * w.vt * t.size > 16384) w.vt /= 2;
  (void)ctx;
  return w;
}

// The program of the walk kernels for `mode` (REDUCE, WRITE or COMPACT).
const ProgramSource& walk_program(Context& ctx, const Config& c, const ElemType& t,
                                  const Operator* op, const Fused& in, const std::string& mode,
                                  const WalkShape& w, const std::string& extra_defs,
                                  const ExpandOffsets& e) {
  std::string defs = "#define ARRC_EXP_" + mode + " 1\n" + extra_defs +
                     (e.end_bytes == 4 ? "#define ENDT uint\n" : "");
  if (c.cpu)
    return program(ctx, t, op, in, defs, "expand walk cpu", [op] {
      return std::string(detail::kExpandWalk) + (op ? detail::kReduceCpuFinal : "") +
             detail::kExpandCpu;
    });
  defs += "#define WG " + std::to_string(w.wg) + "\n#define VT " + std::to_string(w.vt) +
          "\n#define CT long\n#define ARRC_LB 32\n";
  return program(ctx, t, op, in, defs, "expand walk", [op] {
    return std::string(detail::kExpandWalk) + (op ? detail::kReduceFinal : "") +
           "inline CT arrc_cadd(CT a, CT b) { return a + b; }\n" +
           helpers("CT", "arrc_cadd", "(CT)0", "c") + detail::kExpandGpu;
  });
}

int64_t cpu_walk_chunks(Context& ctx) { return static_cast<int64_t>(ctx.compute_units()) * 4; }

}  // namespace

ExpandOffsets expand_offsets(Context& ctx, const ElemType& t, int64_t n, const Fused& in,
                             bool read_total) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  ExpandOffsets r;
  r.n = std::max<int64_t>(n, 0);
  r.ends = ctx.alloc(static_cast<size_t>(std::max<int64_t>(n, 1)) * sizeof(int64_t));
  if (n <= 0) {
    r.total = 0;
    return r;
  }
  // from 2^20 sources (ARRC_EXPAND_NARROW_MIN, read per call; -1: never):
  // below, the extra fill and scan variant cost more than the 4 bytes per
  // source save (H200, Pythagorean n=1000, 10^3 sources: 0.302 ms with uint
  // ends against 0.282 without)
  const int narrow_min = env_int("ARRC_EXPAND_NARROW_MIN", 1 << 20);
  const bool narrow = read_total && narrow_min >= 0 && n >= narrow_min;
  if (narrow) {
    // ends as uint where the total turns out below 2^32 (else scanned again,
    // whole); the side buffer: GPUs {wraps, the last end's low word}, CPUs
    // the last end
    const bool gpu = !config(ctx).cpu;
    Fused f = in;
    auto side = ctx.alloc(sizeof(int64_t));
    if (gpu) ctx.fill_zero(side->mem(), 0, sizeof(uint32_t));
    f.args.push_back(KernelArg::buffer("__global uint*", "arrc_ends", r.ends->mem()));
    f.args.push_back(KernelArg::buffer(gpu ? "__global uint*" : "__global long*", "arrc_side", side->mem()));
    f.args.push_back(KernelArg::scalar<int64_t>("long", "arrc_last", n - 1));
    run_scan(ctx, t, nullptr, f, gpu ? 4 : 8, gpu ? kExpandSizesAdapterWraps : kExpandSizesAdapterNarrow,
             "arrc_sop", "ARRC_SNE", n, true);
    uint32_t w[2] = {0, 0};
    ctx.read(side->mem(), 0, sizeof w, w);
    int64_t last = 0;
    std::memcpy(&last, w, sizeof last);
    r.total = gpu ? (static_cast<int64_t>(w[0]) << 32) + w[1] : last;
    if (gpu ? w[0] == 0 : r.total < (int64_t(1) << 32)) {
      r.end_bytes = 4;
      return r;
    }
  }
  Fused f = in;
  f.args.push_back(KernelArg::buffer("__global long*", "arrc_ends", r.ends->mem()));
  run_scan(ctx, t, nullptr, f, 8, kExpandSizesAdapter, "arrc_sop", "ARRC_SNE", n, true);
  if (read_total) ctx.read(r.ends->mem(), (n - 1) * sizeof(int64_t), sizeof r.total, &r.total);
  return r;
}

void expand_write(Context& ctx, const ElemType& t, const ExpandOffsets& e, const Fused& in,
                  cl_mem out, int64_t out_offset) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  if (e.total < 0) throw Error("expand_write: the total was not read back (expand_offsets)");
  if (e.n <= 0 || e.total == 0) return;
  Config c = config(ctx);
  // items (elements and source ends) per work-item of the GPU walk
  static const int vt_env = env_int("ARRC_EXPAND_VT", 0);
  // 12 from 2^24 items (H200, 10^8 int sources: 12 items 1.47 / 1.14 / 1.51 /
  // 1.25 ms for sizes 0..7 / one huge / 95% empty / power law, against 8:
  // 1.58 / 1.26 / 1.61 / 1.33), else 8 (Pythagorean n=2000's 2 * 10^6 pairs:
  // the step 1.438 ms with 8 against 1.473 with 12)
  const int vt_big = e.total + e.n >= (int64_t(1) << 24) ? 12 : 8;
  WalkShape w = walk_shape(ctx, c, t, vt_env > 0 ? std::min(vt_env, 32) : vt_big);
  const ProgramSource& src = walk_program(ctx, c, t, nullptr, in, "WRITE", w, store_defines(out), e);
  if (c.cpu) {
    int64_t chunks = std::min<int64_t>(cpu_walk_chunks(ctx), std::max<int64_t>(1, e.total / 1024));
    Launch(ctx, ctx.kernel(src, "arrc_cexpand_write"))
        .val<cl_long>(e.n).val<cl_long>(chunks).mem(e.ends->mem()).mem(out)
        .val<cl_long>(out_offset).extra(in).run(chunks, 1);
    return;
  }
  // tiles of the merge of elements and source ends (kExpandGpu)
  int64_t tile = static_cast<int64_t>(w.wg) * w.vt;
  int64_t ntiles = (e.total + e.n + tile - 1) / tile;
  auto part = ctx.alloc(static_cast<size_t>(ntiles + 1) * sizeof(int64_t));
  Launch(ctx, ctx.kernel(src, "arrc_expand_partition"))
      .val<cl_long>(e.n).val<cl_long>(e.total).val<cl_long>(ntiles).mem(e.ends->mem())
      .mem(part->mem()).run(round_up(static_cast<size_t>(ntiles + 1), 256), 256);
  Launch(ctx, ctx.kernel(src, "arrc_expand_write"))
      .val<cl_long>(e.n).val<cl_long>(e.total).mem(e.ends->mem()).mem(part->mem()).mem(out)
      .val<cl_long>(out_offset).extra(in).run(static_cast<size_t>(ntiles) * w.wg, w.wg);
}

void expand_reduce(Context& ctx, const ElemType& t, const Operator& op, const ExpandOffsets& e,
                   const Fused& in, cl_mem out, int64_t out_index) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  Config c = config(ctx);
  WalkShape w = walk_shape(ctx, c, t, 16);
  std::string defs = op.commutative ? "#define ARRC_COMMUTATIVE 1\n" : "";
  if (c.cpu && is_scalar_type(t) && op.kind != Operator::Custom)
    // each source's run folded 512 bits at a time, as the CPU reduce (PoCL
    // picked 8 ints, and the Pythagorean triples' walk, runs of about 100,
    // took 3.9 ms instead of 2.8 on one core), predicated: no scalar remainder
    defs += "#define ARRC_CEXP_LOOP_HINT _Pragma(\"clang loop vectorize_width(" +
            std::to_string(std::max<size_t>(4, 64 / std::max<size_t>(t.size, 1))) + ") vectorize_predicate(enable)\")\n";
  const ProgramSource& src = walk_program(ctx, c, t, &op, in, "REDUCE", w, defs, e);
  // the number of partials is fixed (the total stays on the device)
  int64_t parts = c.cpu ? cpu_walk_chunks(ctx) : static_cast<int64_t>(w.groups);
  if (e.n <= 0) parts = 0;
  auto partial = ctx.alloc(static_cast<size_t>(std::max<int64_t>(parts, 1)) * t.size);
  if (parts > 0) {
    if (c.cpu)
      Launch(ctx, ctx.kernel(src, "arrc_cexpand_reduce"))
          .val<cl_long>(e.n).val<cl_long>(parts).mem(e.ends->mem()).mem(partial->mem())
          .extra(in).opargs(&op).run(parts, 1);
    else
      Launch(ctx, ctx.kernel(src, "arrc_expand_reduce"))
          .val<cl_long>(e.n).mem(e.ends->mem()).mem(partial->mem()).extra(in).opargs(&op)
          .run(static_cast<size_t>(parts) * w.wg, w.wg);
  }
  reduce_final(ctx, c, src, op, parts, partial->mem(), out, out_index);
}

ExpandCompaction expand_compact_count(Context& ctx, const ElemType& t, const ExpandOffsets& e,
                                      const Fused& in) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  ExpandCompaction r;
  if (e.n <= 0) return r;
  Config c = config(ctx);
  WalkShape w = walk_shape(ctx, c, t, 8);
  const ProgramSource& src = walk_program(ctx, c, t, nullptr, in, "COMPACT", w, "", e);
  r.chunks = c.cpu ? cpu_walk_chunks(ctx) : static_cast<int64_t>(w.groups);
  r.offsets = ctx.alloc(static_cast<size_t>(r.chunks) * sizeof(int64_t));
  if (c.cpu) {
    const ProgramSource& offs_src =
        program(ctx, t, nullptr, Fused{}, "", "chunk offsets", [] { return detail::kChunkOffsets; });
    auto total = ctx.alloc(sizeof(int64_t));
    Launch(ctx, ctx.kernel(src, "arrc_cexpand_count"))
        .val<cl_long>(e.n).val<cl_long>(r.chunks).mem(e.ends->mem()).mem(r.offsets->mem())
        .extra(in).run(r.chunks, 1);
    Launch(ctx, ctx.kernel(offs_src, "arrc_chunk_offsets"))
        .val<cl_long>(r.chunks).mem(r.offsets->mem()).mem(total->mem()).run(1, 1);
    ctx.read(total->mem(), 0, sizeof r.count, &r.count);
    return r;
  }
  auto counts = ctx.alloc(static_cast<size_t>(r.chunks) * sizeof(int64_t));
  Launch(ctx, ctx.kernel(src, "arrc_expand_count"))
      .val<cl_long>(e.n).mem(e.ends->mem()).mem(counts->mem()).extra(in)
      .run(static_cast<size_t>(r.chunks) * w.wg, w.wg);
  // inclusive scan of the group counts: group g writes from offsets[g-1]
  ElemType lt = ElemType::of<int64_t>();
  scan(ctx, lt, Operator::add(), r.chunks, load_from(lt, counts->mem()), r.offsets->mem(), 0, true);
  ctx.read(r.offsets->mem(), (r.chunks - 1) * sizeof(int64_t), sizeof r.count, &r.count);
  return r;
}

void expand_compact_write(Context& ctx, const ElemType& t, const ExpandOffsets& e,
                          const ExpandCompaction& cp, const Fused& in, cl_mem out,
                          int64_t out_offset) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  if (e.n <= 0 || cp.count == 0) return;
  Config c = config(ctx);
  WalkShape w = walk_shape(ctx, c, t, 8);
  const ProgramSource& src =
      walk_program(ctx, c, t, nullptr, in, "COMPACT", w, store_defines(out), e);
  if (c.cpu)
    Launch(ctx, ctx.kernel(src, "arrc_cexpand_compact"))
        .val<cl_long>(e.n).val<cl_long>(cp.chunks).mem(e.ends->mem()).mem(cp.offsets->mem())
        .mem(out).val<cl_long>(out_offset).extra(in).run(cp.chunks, 1);
  else
    Launch(ctx, ctx.kernel(src, "arrc_expand_compact"))
        .val<cl_long>(e.n).mem(e.ends->mem()).mem(cp.offsets->mem()).mem(out)
        .val<cl_long>(out_offset).extra(in).run(static_cast<size_t>(cp.chunks) * w.wg, w.wg);
}

Expanded expand(Context& ctx, const ElemType& t, int64_t n, const Fused& in) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  Expanded r;
  ExpandOffsets e = expand_offsets(ctx, t, n, in, true);
  r.ends = e.ends;
  r.end_bytes = e.end_bytes;
  r.count = e.total;
  r.data = ctx.alloc(static_cast<size_t>(std::max<int64_t>(e.total, 1)) * t.size);
  expand_write(ctx, t, e, in, r.data->mem(), 0);
  return r;
}

}  // namespace arrc
