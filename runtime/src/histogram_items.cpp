// histogram_items: several histograms filled in one pass over n items (a
// map whose body adds to histograms; generated code's MultiHist). The
// kernels are written here for the call's histograms (their number, types
// and operators), since each gets its own update function and buffers.
//
// Schedules (docs/runtime.md, "Histograms of items"):
//  * CPU: each chunk of items folds into private copies of the histograms
//    (plain updates, no atomics), then the copies are folded bin by bin in
//    chunk order -- when the copies are no larger than the input, as
//    histogram() does; else the GPU's global form.
//  * GPU: each work-group sweeps the items (grid stride) into copies of the
//    histograms in local memory, updated atomically, then writes its copies
//    to its part of a buffer, which arrc_hitems_fold folds bin by bin in
//    group order (no two groups add to one address: atomics on the outputs
//    from every group were a compare-and-swap storm, and the result does
//    not depend on timing); a histogram that does not fit the local memory
//    budget is updated in global memory directly. The outputs start at the
//    neutral elements (one small launch first). With staged rows
//    (stage_bytes > 0: the items read rows of matrices, k-means' points), a
//    work-group takes tiles of consecutive items and copies their rows into
//    local memory first (arrc_stage), coalesced, as generated maps do.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "prim_common.h"

namespace arrc {

using prim::Chunks;
using prim::Config;
using prim::Launch;

namespace {

std::string num(size_t h) { return std::to_string(h); }

// work-items per bin of arrc_hitems_fold
constexpr size_t kFoldWg = 64;

// Where histogram h is updated in the items kernel.
enum class Space { Private, Local, Global };

struct Plan {
  std::vector<Space> space;
  std::string defs;    // update functions, ARRC_HISTS, ARRC_HIST_ADD (before the hooks)
  std::string kernels; // after the hooks
};

// The update function arrc_hadd<h>(h, nbins, b, v) of histogram h and the
// kernels of the schedule.
Plan plan(const std::vector<HistogramOut>& hs, bool cpu_private, size_t local_budget, bool staging) {
  Plan p;
  size_t used = 0;
  std::string params, args, d;
  std::set<std::string> preludes;  // each (type, prelude) once: histograms may share an operator
  for (size_t h = 0; h < hs.size(); ++h) {
    const HistogramOut& o = hs[h];
    const std::string T = o.t.name, H = num(h);
    Space s = Space::Global;
    if (cpu_private) {
      s = Space::Private;
    } else if (used + static_cast<size_t>(o.nbins) * o.t.size <= local_budget) {
      s = Space::Local;
      used += static_cast<size_t>(o.nbins) * o.t.size;
    }
    p.space.push_back(s);
    std::string as = s == Space::Local ? "__local" : "__global";
    // T is this histogram's type while its operator and neutral element are defined
    d += "#undef T\n#define T " + T + "\n";
    if (preludes.insert(T + "\x1f" + o.op.prelude).second) d += o.op.prelude + "\n";
    d += "inline T arrc_hop" + H + "(T a, T b) { return (" + o.op.expr + "); }\n";
    d += "inline T arrc_hne" + H + "(void) { return (T)(" + o.op.neutral + "); }\n";
    d += "#define ARRC_HNE" + H + " arrc_hne" + H + "()\n";
    std::string body;
    if (s == Space::Private) {
      body = "h[b] = arrc_hop" + H + "(h[b], v);";
    } else {
      Operator op = o.op;
      op.expr = "arrc_hop" + H + "(a, b)";
      d += prim::atomic_update_fn("arrc_hupd" + H, as, T, o.t.size, op);
      body = "arrc_hupd" + H + "(h + b, v);";
    }
    // v is an argument: evaluated whatever the bin (its errors too)
    d += "inline void arrc_hadd" + H + "(" + as + " " + T + "* h, long nb, long b, " + T + " v) {\n" +
         "  if (b >= 0 && b < nb) " + body + "\n}\n";
    params += ", " + as + " " + T + "* arrc_h" + H + ", long arrc_nb" + H;
    args += ", arrc_h" + H + ", arrc_nb" + H;
  }
  d += "#undef T\n#define T " + hs[0].t.name + "\n";
  d += "#define ARRC_HISTS " + params + "\n#define ARRC_HIST_ARGS " + args + "\n";
  d += "#define ARRC_HIST_ADD(h, b, v) arrc_hadd##h(arrc_h##h, arrc_nb##h, (b), (v))\n";
  // the staged rows of the item's work-group (GPUs, generated code's choice)
  if (staging)
    d += "#define ARRC_ITEM_STAGING 1\n"
         "#define ARRC_ITEM_STAGE , long arrc_stg_first, long arrc_stg_count, long arrc_stg_cap, __local uchar* arrc_stg\n";
  else
    d += "#define ARRC_ITEM_STAGE\n";
  p.defs = d;

  // every output at its neutral element (GPU and global forms)
  std::string k = "__kernel void arrc_hitems_init(long arrc_unused";
  for (size_t h = 0; h < hs.size(); ++h)
    k += ", __global " + hs[h].t.name + "* out" + num(h) + ", long off" + num(h) + ", long nb" + num(h);
  k += ") {\n  long b = get_global_id(0);\n";
  for (size_t h = 0; h < hs.size(); ++h)
    k += "  if (b < nb" + num(h) + ") out" + num(h) + "[off" + num(h) + " + b] = ARRC_HNE" + num(h) + ";\n";
  k += "}\n";
  if (cpu_private) {
    // chunk g of the items into copy g of each histogram (part_h[g * nb ..])
    k += "__kernel void arrc_hitems_chunks(long n, long chunk";
    for (size_t h = 0; h < hs.size(); ++h)
      k += ", __global " + hs[h].t.name + "* part" + num(h) + ", long nb" + num(h);
    k += " ARRC_PARAMS) {\n  long g = get_global_id(0);\n";
    for (size_t h = 0; h < hs.size(); ++h) {
      const std::string H = num(h);
      k += "  __global " + hs[h].t.name + "* arrc_h" + H + " = part" + H + " + g * nb" + H + ";\n";
      k += "  long arrc_nb" + H + " = nb" + H + ";\n";
      k += "  for (long b = 0; b < arrc_nb" + H + "; ++b) arrc_h" + H + "[b] = ARRC_HNE" + H + ";\n";
    }
    k += "  long hi = min(n, (g + 1) * chunk);\n";
    k += "  for (long i = g * chunk; i < hi; ++i) arrc_item(i ARRC_HIST_ARGS ARRC_ARGS);\n}\n";
    // bins b = id, id + G, ...: the chunks' copies folded in chunk order
    k += "__kernel void arrc_hitems_merge(long nchunks";
    for (size_t h = 0; h < hs.size(); ++h) {
      const std::string H = num(h), T = hs[h].t.name;
      k += ", __global const " + T + "* part" + H + ", long nb" + H + ", __global " + T + "* out" + H +
           ", long off" + H;
    }
    k += ") {\n  long G = get_global_size(0);\n";
    for (size_t h = 0; h < hs.size(); ++h) {
      const std::string H = num(h), T = hs[h].t.name;
      k += "  for (long b = get_global_id(0); b < nb" + H + "; b += G) {\n";
      k += "    " + T + " acc = ARRC_HNE" + H + ";\n";
      k += "    for (long c = 0; c < nchunks; ++c) acc = arrc_hop" + H + "(acc, part" + H + "[c * nb" + H + " + b]);\n";
      k += "    out" + H + "[off" + H + " + b] = acc;\n  }\n";
    }
    k += "}\n";
  } else {
    // grid-stride sweep into local copies (or the outputs), then each
    // group's copies into its part (part<h>[group * nb + b])
    k += "__kernel void arrc_hitems(long n";
    for (size_t h = 0; h < hs.size(); ++h) {
      const std::string H = num(h), T = hs[h].t.name;
      k += ", __global " + T + "* out" + H + ", long off" + H + ", long nb" + H;
      if (p.space[h] == Space::Local) k += ", __global " + T + "* part" + H + ", __local " + T + "* lh" + H;
    }
    if (staging) k += ", __local double* stg";  // double: 8-byte aligned on every device
    k += " ARRC_PARAMS) {\n  int lid = get_local_id(0), L = get_local_size(0);\n";
    for (size_t h = 0; h < hs.size(); ++h) {
      const std::string H = num(h);
      k += "  long arrc_nb" + H + " = nb" + H + ";\n";
      if (p.space[h] == Space::Local) {
        k += "  __local " + hs[h].t.name + "* arrc_h" + H + " = lh" + H + ";\n";
        k += "  for (long b = lid; b < arrc_nb" + H + "; b += L) arrc_h" + H + "[b] = ARRC_HNE" + H + ";\n";
      } else {
        k += "  __global " + hs[h].t.name + "* arrc_h" + H + " = out" + H + " + off" + H + ";\n";
      }
    }
    k += "  barrier(CLK_LOCAL_MEM_FENCE);\n";
    if (staging) {
      // tiles of L consecutive items: their rows staged, then one item each
      k += "  for (long first = (long)get_group_id(0) * L; first < n; first += (long)get_num_groups(0) * L) {\n"
           "    long count = min((long)L, n - first);\n"
           "    barrier(CLK_LOCAL_MEM_FENCE);\n"
           "    arrc_stage(first, count, L, (__local uchar*)stg ARRC_ARGS);\n"
           "    barrier(CLK_LOCAL_MEM_FENCE);\n"
           "    if (lid < count) arrc_item(first + lid, first, count, L, (__local uchar*)stg ARRC_HIST_ARGS ARRC_ARGS);\n"
           "  }\n";
    } else {
      k += "  for (long i = get_global_id(0); i < n; i += get_global_size(0)) arrc_item(i ARRC_HIST_ARGS ARRC_ARGS);\n";
    }
    k += "  barrier(CLK_LOCAL_MEM_FENCE);\n";
    for (size_t h = 0; h < hs.size(); ++h) {
      if (p.space[h] != Space::Local) continue;
      const std::string H = num(h);
      k += "  for (long b = lid; b < arrc_nb" + H + "; b += L) part" + H + "[get_group_id(0) * arrc_nb" + H +
           " + b] = arrc_h" + H + "[b];\n";
    }
    k += "}\n";
    // Work-group t folds bin t of the local histograms (numbered one after
    // the other): each work-item a run of groups in order, then a tree.
    k += "__kernel __attribute__((reqd_work_group_size(ARRC_FOLD_WG, 1, 1)))\n"
         "void arrc_hitems_fold(long groups";
    for (size_t h = 0; h < hs.size(); ++h) {
      if (p.space[h] != Space::Local) continue;
      const std::string H = num(h), T = hs[h].t.name;
      k += ", __global const " + T + "* part" + H + ", long nb" + H + ", __global " + T + "* out" + H + ", long off" + H;
    }
    k += ") {\n  __local ulong sh[ARRC_FOLD_WG];\n  int lid = get_local_id(0);\n  long t = get_group_id(0);\n"
         "  long per = (groups + ARRC_FOLD_WG - 1) / ARRC_FOLD_WG, g0 = lid * per, g1 = min(groups, g0 + per);\n";
    for (size_t h = 0; h < hs.size(); ++h) {
      if (p.space[h] != Space::Local) continue;
      const std::string H = num(h), T = hs[h].t.name;
      k += "  if (t < nb" + H + ") {\n"
           "    __local " + T + "* s = (__local " + T + "*)sh;\n"
           "    " + T + " acc = ARRC_HNE" + H + ";\n"
           "    for (long g = g0; g < g1; ++g) acc = arrc_hop" + H + "(acc, part" + H + "[g * nb" + H + " + t]);\n"
           "    s[lid] = acc;\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
           "    for (int w = ARRC_FOLD_WG / 2; w > 0; w >>= 1) {\n"
           "      if (lid < w) s[lid] = arrc_hop" + H + "(s[lid], s[lid + w]);\n"
           "      barrier(CLK_LOCAL_MEM_FENCE);\n    }\n"
           "    if (lid == 0) out" + H + "[off" + H + " + t] = s[0];\n    return;\n  }\n"
           "  t -= nb" + H + ";\n";
    }
    k += "}\n";
  }
  p.kernels = k;
  return p;
}

}  // namespace

void histogram_items(Context& ctx, const std::vector<HistogramOut>& hists, int64_t n, const Fused& in,
                     size_t stage_bytes) {
  const auto lock = ctx.lock();  // one call at a time per Context (docs/runtime.md)
  if (hists.empty()) return;
  int64_t total_bins = 0;
  for (auto& h : hists) {
    if (!prim::is_scalar_type(h.t) || (h.t.size != 4 && h.t.size != 8))
      throw Error("histogram_items: histogram of " + h.t.name + " (a 4- or 8-byte scalar type is needed)");
    if (!h.op.commutative || !h.op.args.empty())
      throw Error("histogram_items: the operators must be commutative and take no arguments");
    if (h.nbins < 0) throw Error("histogram_items: negative number of bins");
    total_bins += h.nbins;
  }
  Config c = prim::config(ctx);
  n = std::max<int64_t>(n, 0);
  Chunks ch = prim::cpu_chunks(ctx, std::max<int64_t>(n, 1));
  // CPU: private copies per chunk when they are no larger than the input
  bool cpu_private = c.cpu && ch.count * total_bins <= std::max<int64_t>(n, 1 << 16);
  const size_t budget = std::min<size_t>(32768, ctx.local_mem_bytes() / 2);
  // staged rows (GPU form): work-groups of the largest of 128, 64, 32 items
  // whose rows fit in 24 KiB, as generated maps stage theirs
  size_t L = static_cast<size_t>(c.wg);
  bool staging = false;
  if (!c.cpu && stage_bytes > 0)
    for (size_t wg : {128, 64, 32})
      if (wg <= ctx.max_work_group_size() && wg * stage_bytes <= 24576) {
        L = wg;
        staging = true;
        break;
      }
  Plan p = plan(hists, cpu_private, c.cpu ? 0 : budget, staging);
  // before the update functions, which test it
  static const int fatomic_env = prim::env_int("ARRC_NV_FATOMICS", 1);
  std::string defs = std::string(ctx.impl().nv_warp && fatomic_env ? "#define ARRC_NV_FATOMIC 1\n" : "") +
                     "#define ARRC_FOLD_WG " + std::to_string(kFoldWg) + "\n" + p.defs;
  std::string kernels = p.kernels;
  const ProgramSource& src =
      prim::program(ctx, hists[0].t, nullptr, in, defs, "histogram items\x1f" + kernels, [kernels] { return kernels; });
  if (cpu_private) {
    int64_t chunks = n > 0 ? ch.count : 0;
    std::vector<BufferPtr> parts;
    for (auto& h : hists)
      parts.push_back(ctx.alloc(static_cast<size_t>(std::max<int64_t>(chunks * h.nbins, 1)) * h.t.size));
    if (chunks > 0) {
      Launch l(ctx, ctx.kernel(src, "arrc_hitems_chunks"));
      l.val<cl_long>(n).val<cl_long>(ch.size);
      for (size_t h = 0; h < hists.size(); ++h) l.mem(parts[h]->mem()).val<cl_long>(hists[h].nbins);
      l.extra(in).run(static_cast<size_t>(chunks), 1);
    }
    Launch m(ctx, ctx.kernel(src, "arrc_hitems_merge"));
    m.val<cl_long>(chunks);
    for (size_t h = 0; h < hists.size(); ++h)
      m.mem(parts[h]->mem()).val<cl_long>(hists[h].nbins).mem(hists[h].out).val<cl_long>(hists[h].out_offset);
    m.run(static_cast<size_t>(std::max<int64_t>(1, ctx.compute_units())), 1);
    return;
  }
  int64_t max_bins = 0;
  for (auto& h : hists) max_bins = std::max(max_bins, h.nbins);
  Launch init(ctx, ctx.kernel(src, "arrc_hitems_init"));
  init.val<cl_long>(0);
  for (auto& h : hists) init.mem(h.out).val<cl_long>(h.out_offset).val<cl_long>(h.nbins);
  init.run(round_up(static_cast<size_t>(std::max<int64_t>(max_bins, 1)), L), L);
  if (n == 0) return;
  // as many groups as fit the device (staged: as many as its local memory holds)
  size_t groups = std::max<size_t>(1, std::min<size_t>(c.groups * (staging ? 2 : 1), (static_cast<size_t>(n) + L - 1) / L));
  Launch l(ctx, ctx.kernel(src, "arrc_hitems"));
  l.val<cl_long>(n);
  std::vector<BufferPtr> parts(hists.size());
  int64_t local_bins = 0;
  for (size_t h = 0; h < hists.size(); ++h) {
    l.mem(hists[h].out).val<cl_long>(hists[h].out_offset).val<cl_long>(hists[h].nbins);
    if (p.space[h] == Space::Local) {
      const size_t bytes = static_cast<size_t>(std::max<int64_t>(hists[h].nbins, 1)) * hists[h].t.size;
      parts[h] = ctx.alloc(groups * bytes);
      local_bins += hists[h].nbins;
      l.mem(parts[h]->mem()).local(bytes);
    }
  }
  if (staging) l.local(L * stage_bytes);
  l.extra(in).run(groups * L, L);
  if (local_bins == 0) return;
  Launch f(ctx, ctx.kernel(src, "arrc_hitems_fold"));
  f.val<cl_long>(static_cast<cl_long>(groups));
  for (size_t h = 0; h < hists.size(); ++h)
    if (p.space[h] == Space::Local)
      f.mem(parts[h]->mem()).val<cl_long>(hists[h].nbins).mem(hists[h].out).val<cl_long>(hists[h].out_offset);
  f.run(static_cast<size_t>(local_bins) * kFoldWg, kFoldWg);
}

}  // namespace arrc
