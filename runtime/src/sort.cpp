// arrc runtime: stable LSD radix sort with 8-bit digits (sort_pairs).
//
// GPU schedule: an upfront histogram of every digit pass, then one kernel
// per digit that ranks each tile, looks back across tiles for each digit's
// place and writes (the one-sweep design; sort_kernels.h). CPU schedule
// (PoCL): per pass, per-chunk digit counts, their scan, and a stable
// scatter of each chunk. Both skip passes in which every key has the same
// digit (known from the upfront histogram).
#include <arrc/primitives.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <functional>
#include <vector>

#include "prim_common.h"
#include "sort_kernels.h"

namespace arrc {

namespace {

using namespace prim;

// Order-preserving unsigned bits of a key type: signed integers flip the
// sign bit, floats flip the sign bit of positives and every bit of
// negatives (IEEE total order: -NaN < -inf < ... < -0.0 < +0.0 < ... <
// +inf < +NaN).
struct KeyBits {
  std::string ku, bits;
};
KeyBits key_bits(const std::string& k) {
  if (k == "int") return {"uint", "(as_uint(k) ^ 0x80000000u)"};
  if (k == "uint") return {"uint", "(k)"};
  if (k == "float")
    return {"uint", "(as_uint(k) ^ ((uint)-(int)(as_uint(k) >> 31) | 0x80000000u))"};
  if (k == "long") return {"ulong", "(as_ulong(k) ^ 0x8000000000000000ul)"};
  if (k == "ulong") return {"ulong", "(k)"};
  if (k == "double")
    return {"ulong", "(as_ulong(k) ^ ((ulong)-(long)(as_ulong(k) >> 63) | 0x8000000000000000ul))"};
  if (k == "uchar") return {"uint", "((uint)(k))"};
  if (k == "char") return {"uint", "((uint)(uchar)(k) ^ 0x80u)"};
  if (k == "ushort") return {"uint", "((uint)(k))"};
  if (k == "short") return {"uint", "((uint)(ushort)(k) ^ 0x8000u)"};
  throw Error("sort: unsupported key type " + k);
}

// Tuning knobs (environment, for benchmarking; docs/runtime.md):
//   ARRC_SORT_WG          GPU work-group size (384 for keys, 512 for pairs; 256..1024, x32)
//   ARRC_SORT_VT          GPU keys per work-item (16 for keys of <= 4 bytes alone, 12 else)
//   ARRC_SORT_TILE_BYTES  GPU local tile budget (32 KiB): VT shrinks to fit
//   ARRC_SORT_GROUP_ORDER NVIDIA: 1 = tile id is the work-group id, 0 = a ticket (1)
//   ARRC_SORT_MATCH       NVIDIA: peers of a digit found by 9 ballots (2), match.any (1)
//                         or through local memory (0)
//   ARRC_SORT_HIST_GROUPS GPU histogram work-groups per compute unit (4)
//   ARRC_SORT_LBW         GPU look-back: earlier tiles' counts loaded at once (8; 1..16)
//   ARRC_SORT_SKIP        0 = never skip passes; 1 = read the histogram back and
//                         skip the passes in which all keys share the digit (1)
//   ARRC_SORT_SKIP_MIN    GPU: smallest n for which the histogram is read back (2^20)
//   ARRC_SORT_CHUNKS      CPU: chunks per compute unit (4)
struct SortKnobs {
  int wg, vt, tile_bytes, group_order, match, hist_groups, skip, skip_min, chunks, lbw;
};
const SortKnobs& knobs() {
  static const SortKnobs k{env_int("ARRC_SORT_WG", 0),         env_int("ARRC_SORT_VT", 0),
                           env_int("ARRC_SORT_TILE_BYTES", 32768), env_int("ARRC_SORT_GROUP_ORDER", 1),
                           env_int("ARRC_SORT_MATCH", 2),        env_int("ARRC_SORT_HIST_GROUPS", 4),
                           env_int("ARRC_SORT_SKIP", 1),         env_int("ARRC_SORT_SKIP_MIN", 1 << 20),
                           env_int("ARRC_SORT_CHUNKS", 4),       env_int("ARRC_SORT_LBW", 8)};
  return k;
}

// The passes to run: those whose digit is not the same for all n keys.
// counts(p, d): how many keys have digit d in pass p.
template <class F>
std::vector<int> passes_to_run(int npass, int64_t n, bool skip, F counts) {
  std::vector<int> run;
  for (int p = 0; p < npass; ++p) {
    bool trivial = false;
    if (skip)
      for (int d = 0; d < 256 && !trivial; ++d) trivial = counts(p, d) == static_cast<uint64_t>(n);
    if (!trivial) run.push_back(p);
  }
  return run;
}

struct SortArgs {
  const ElemType& kt;
  int64_t n;
  cl_mem keys, values;
  size_t vsize;
  bool has_vals;
  int npass;
  std::string defs, vprelude;
};

// The program of a schedule (body: its text, made only the first time).
const ProgramSource& sort_program(Context& ctx, const SortArgs& a, const std::string& defs,
                                  const char* what, const std::function<std::string()>& body) {
  ElemType carrier = ElemType::scalar(a.kt.name, a.kt.size);
  carrier.prelude = a.vprelude;
  Fused none;
  return program(ctx, carrier, nullptr, none, a.defs + defs, what, body);
}

// The result is in `cur` after the passes; back to the caller's buffers.
void copy_back(Context& ctx, const SortArgs& a, cl_mem kcur, cl_mem vcur) {
  if (kcur != a.keys) ctx.copy(kcur, 0, a.keys, 0, static_cast<size_t>(a.n) * a.kt.size);
  if (a.has_vals && vcur != a.values)
    ctx.copy(vcur, 0, a.values, 0, static_cast<size_t>(a.n) * a.vsize);
}

void sort_cpu(Context& ctx, const SortArgs& a) {
  const SortKnobs& kn = knobs();
  int64_t want = static_cast<int64_t>(ctx.compute_units()) * std::max(kn.chunks, 1);
  int64_t chunk = std::max<int64_t>(4096, (a.n + want - 1) / want);
  int64_t nchunks = (a.n + chunk - 1) / chunk;
  const ProgramSource& src = sort_program(ctx, a, "", "sort cpu", [] {
    return std::string(detail::kSortCommon) + detail::kSortCpu;
  });
  const size_t R = 256;
  auto parts = ctx.alloc(static_cast<size_t>(nchunks) * a.npass * R * sizeof(uint32_t));
  auto offs = ctx.alloc(static_cast<size_t>(nchunks) * R * sizeof(uint32_t));
  Launch(ctx, ctx.kernel(src, "arrc_csort_hist"))
      .val<cl_long>(a.n).val<cl_long>(chunk).mem(a.keys).mem(parts->mem()).run(nchunks, 1);
  std::vector<uint32_t> h;
  if (kn.skip) {
    h.resize(static_cast<size_t>(nchunks) * a.npass * R);
    ctx.read(parts->mem(), 0, h.size() * sizeof(uint32_t), h.data());
  }
  std::vector<int> run = passes_to_run(a.npass, a.n, kn.skip != 0, [&](int p, int d) {
    uint64_t s = 0;
    for (int64_t c = 0; c < nchunks; ++c) s += h[(c * a.npass + p) * R + d];
    return s;
  });
  if (run.empty()) return;
  auto ktmp = ctx.alloc(static_cast<size_t>(a.n) * a.kt.size);
  BufferPtr vtmp = a.has_vals ? ctx.alloc(static_cast<size_t>(a.n) * a.vsize) : nullptr;
  BufferPtr counts = run.size() > 1 ? ctx.alloc(static_cast<size_t>(nchunks) * R * sizeof(uint32_t))
                                     : nullptr;
  cl_mem kin = a.keys, kout = ktmp->mem();
  cl_mem vin = a.values, vout = a.has_vals ? vtmp->mem() : nullptr;
  for (size_t e = 0; e < run.size(); ++e) {
    int p = run[e];
    cl_mem cnt = parts->mem();
    int64_t cstride = static_cast<int64_t>(a.npass) * R, coff = static_cast<int64_t>(p) * R;
    if (e > 0) {  // the keys have moved since the histogram
      cnt = counts->mem();
      cstride = R;
      coff = 0;
      Launch(ctx, ctx.kernel(src, "arrc_csort_count"))
          .val<cl_long>(a.n).val<cl_long>(chunk).val<cl_int>(8 * p).mem(kin).mem(cnt)
          .run(nchunks, 1);
    }
    Launch(ctx, ctx.kernel(src, "arrc_csort_offsets"))
        .val<cl_long>(nchunks).mem(cnt).val<cl_long>(cstride).val<cl_long>(coff).mem(offs->mem())
        .run(1, 1);
    Launch l(ctx, ctx.kernel(src, "arrc_csort_scatter"));
    l.val<cl_long>(a.n).val<cl_long>(chunk).val<cl_int>(8 * p).mem(kin).mem(kout).mem(offs->mem());
    if (a.has_vals) l.mem(vin).mem(vout);
    l.run(nchunks, 1);
    std::swap(kin, kout);
    std::swap(vin, vout);
  }
  copy_back(ctx, a, kin, vin);
}

// Work-group size, keys per work-item and local bytes of the GPU schedule.
struct GpuShape {
  int wg = 256, vt = 1;
  size_t lbytes = 0;
};
GpuShape gpu_shape(Context& ctx, const SortArgs& a, bool emulated_warps) {
  const SortKnobs& kn = knobs();
  GpuShape s;
  // one work-item per digit at least; no more than the device allows
  int max_wg = static_cast<int>(std::min<size_t>(ctx.max_work_group_size(), 1024)) / 32 * 32;
  // defaults measured on the H100 and the H200 (docs/performance.md): keys
  // alone 384 x 16 (12 for 8-byte keys), pairs 512 x 12 (384 for 8-byte
  // keys: H200, long keys with int values 9.66 Gkeys/s against 9.35)
  int wg = kn.wg > 0 ? kn.wg : (a.has_vals && a.kt.size <= 4 ? 512 : 384);
  s.wg = std::clamp(wg / 32 * 32, 256, std::max(256, max_wg));
  size_t lb = std::max<size_t>(a.kt.size, a.has_vals ? a.vsize : 0);
  s.vt = kn.vt > 0 ? std::min(kn.vt, 32) : (a.kt.size <= 4 && !a.has_vals ? 16 : 12);
  auto local = [&](int vt) {
    size_t tile = static_cast<size_t>(s.wg) * vt * lb;
    return (tile + 7) / 8 * 8 + static_cast<size_t>(s.wg / 32) * 256 * 4 + 2 * 256 * 4 +
           static_cast<size_t>(std::max(s.wg, 96)) * 4 + (emulated_warps ? s.wg * 4 : 4) + 64;
  };
  size_t budget = std::min<size_t>(static_cast<size_t>(std::max(kn.tile_bytes, 1024)),
                                   ctx.local_mem_bytes());
  while (s.vt > 1 && static_cast<size_t>(s.wg) * s.vt * lb > budget) --s.vt;
  while (s.vt > 1 && local(s.vt) + 1024 > ctx.local_mem_bytes()) --s.vt;
  s.lbytes = lb;
  return s;
}

void sort_gpu(Context& ctx, const SortArgs& a) {
  const SortKnobs& kn = knobs();
  bool nv = ctx.impl().nv_warp;
  bool emulated = !nv || !kn.match;
  GpuShape s = gpu_shape(ctx, a, emulated);
  int64_t tile = static_cast<int64_t>(s.wg) * s.vt;
  int64_t ntiles = (a.n + tile - 1) / tile;
  bool wide = a.n >= (int64_t{1} << 30);
  std::string defs = "#define ARRC_LB 32\n#define WG " + std::to_string(s.wg) + "\n#define VT " + std::to_string(s.vt) +
                     "\n#define LBYTES " + std::to_string(s.lbytes) + "\n#define STAT " +
                     (wide ? "ulong\n#define STAT_SHIFT 62\n" : "uint\n#define STAT_SHIFT 30\n") +
                     "#define ARRC_SORT_GROUP_ORDER " + std::to_string(kn.group_order ? 1 : 0) +
                     "\n#define LBW " + std::to_string(std::clamp(kn.lbw, 1, 16)) + "\n";
  if (nv && !kn.match) defs += "#define ARRC_SORT_NO_MATCH 1\n";
  if (nv && kn.match == 1) defs += "#define ARRC_SORT_MATCH_ANY 1\n";
  const ProgramSource& src = sort_program(ctx, a, defs, "sort gpu", [] {
    return "inline int arrc_iadd(int a, int b) { return a + b; }\n" +
           helpers("int", "arrc_iadd", "0", "i") + detail::kSortCommon + detail::kSortGpu;
  });
  const size_t R = 256, stat = wide ? 8 : 4;
  // meta: the histogram (npass * 256 counts), then the passes' tickets
  // (ctl, 256 words); both start at zero, as does the first status buffer
  auto meta = ctx.alloc((a.npass + 1) * R * sizeof(uint32_t));
  auto bases = ctx.alloc(a.npass * R * sizeof(uint32_t));
  auto st0 = ctx.alloc(static_cast<size_t>(ntiles) * R * stat);
  auto st1 = ctx.alloc(static_cast<size_t>(ntiles) * R * stat);
  ctx.fill_zero(meta->mem(), 0, (a.npass + 1) * R * sizeof(uint32_t));
  ctx.fill_zero(st0->mem(), 0, static_cast<size_t>(ntiles) * R * stat);
  size_t hgroups = std::max<size_t>(
      1, std::min<size_t>(ctx.compute_units() * std::max(kn.hist_groups, 1),
                          static_cast<size_t>((a.n + s.wg * 16 - 1) / (s.wg * 16))));
  Launch(ctx, ctx.kernel(src, "arrc_sort_hist"))
      .val<cl_long>(a.n).mem(a.keys).mem(meta->mem()).run(hgroups * s.wg, s.wg);
  Launch(ctx, ctx.kernel(src, "arrc_sort_bases"))
      .mem(meta->mem()).mem(bases->mem()).run(static_cast<size_t>(a.npass) * s.wg, s.wg);
  std::vector<uint32_t> h;
  bool skip = kn.skip && a.n >= kn.skip_min;
  if (skip) {
    h.resize(a.npass * R);
    ctx.read(meta->mem(), 0, h.size() * sizeof(uint32_t), h.data());
  }
  std::vector<int> run =
      passes_to_run(a.npass, a.n, skip, [&](int p, int d) { return uint64_t{h[p * R + d]}; });
  if (run.empty()) return;
  auto ktmp = ctx.alloc(static_cast<size_t>(a.n) * a.kt.size);
  BufferPtr vtmp = a.has_vals ? ctx.alloc(static_cast<size_t>(a.n) * a.vsize) : nullptr;
  cl_mem kin = a.keys, kout = ktmp->mem();
  cl_mem vin = a.values, vout = a.has_vals ? vtmp->mem() : nullptr;
  cl_kernel k = ctx.kernel(src, "arrc_sort_pass");
  for (size_t e = 0; e < run.size(); ++e) {
    cl_mem cur = e % 2 ? st1->mem() : st0->mem(), next = e % 2 ? st0->mem() : st1->mem();
    Launch l(ctx, k);
    l.val<cl_long>(a.n).val<cl_int>(run[e]).mem(kin).mem(kout).mem(bases->mem()).mem(meta->mem())
        .mem(cur).mem(next);
    if (a.has_vals) l.mem(vin).mem(vout);
    l.run(static_cast<size_t>(ntiles) * s.wg, s.wg);
    std::swap(kin, kout);
    std::swap(vin, vout);
  }
  copy_back(ctx, a, kin, vin);
}

}  // namespace

void sort_pairs(Context& ctx, const ElemType& kt, int64_t n, cl_mem keys, const ElemType* vt,
                cl_mem values) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  if (n <= 1) return;
  if (n >= INT_MAX) throw Error("sort: at most 2^31-1 elements");
  KeyBits kb = key_bits(kt.name);
  bool has_vals = vt != nullptr && values != nullptr;
  if (has_vals && (vt->size == 0 || vt->size > 16))
    throw Error("sort: values of " + std::to_string(vt->size) + " bytes (1 to 16 supported)");
  SortArgs a{kt, n, keys, values, has_vals ? vt->size : 0, has_vals, static_cast<int>(kt.size), "", ""};
  a.defs = "#define KT " + kt.name + "\n#define KU " + kb.ku + "\n#define NPASS " +
           std::to_string(a.npass) + "\ninline KU arrc_kbits(KT k) { return " + kb.bits + "; }\n";
  if (has_vals) {
    a.defs += "#define VALS " + vt->name + "\n";
    a.vprelude = vt->prelude;
    if (mentions_double(vt->name)) a.defs += "// double\n";
  }
  Config c = config(ctx);
  // the GPU schedule needs work-groups of 256 (one work-item per digit)
  if (c.cpu || ctx.max_work_group_size() < 256)
    sort_cpu(ctx, a);
  else
    sort_gpu(ctx, a);
}

}  // namespace arrc
