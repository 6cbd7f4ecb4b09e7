// Map: the module's own kernel (a map nest is not a runtime primitive). One
// kernel per Map; 1-3 dims as an NDRange with the innermost index on
// dimension 0 (coalescing), more dims flattened; outputs row-major.
//
// Row staging (1-D maps on GPUs): when each work-item reads its own row of
// a matrix in a loop (k-means' points, P[i, :]), the rows of a work-group are
// one contiguous block, read row by row per work-item -- uncoalesced, and
// re-read from L2 on every pass of the loop. The kernel then first copies the
// block into local memory with coalesced loads (one row pitch per row, odd to
// spread banks) and serves those reads from there; a read outside the block
// still goes to global memory, so any index stays correct. The host decides
// per call (GPU, rows contiguous, block fits): the same kernel runs unstaged
// otherwise.
#include "Generator.h"

#include "arrc/IRBuilder.h"

namespace arrc::cg {

namespace {

// Variables whose value is computed only from the map's index and from
// values every work-item shares (free scalars, constants, guard reads).
struct RowAnalysis {
  std::set<int> derived;
  std::set<int> uniform;
  const std::function<bool(int)> &isGuard;

  bool expOk(const ExpP &e) const {
    if (!e) return true;
    switch (e->kind) {
    case Exp::Var: return derived.count(e->var) || uniform.count(e->var);
    case Exp::Read:
      if (e->args[0]->kind != Exp::Var || !isGuard(e->args[0]->var)) return false;
      for (size_t k = 1; k < e->args.size(); ++k)
        if (!expOk(e->args[k])) return false;
      return true;
    case Exp::Shape: case Exp::Weight: return true;
    default:
      for (auto &a : e->args)
        if (!expOk(a)) return false;
      return true;
    }
  }
};

} // namespace

// Rank-2 arrays of a body over `index` read as A[r, c] with r derived from
// the index, at least once inside a loop, and never written; read only so
// unless `otherReads` (a read at another row goes to global memory anyway;
// a map stages only matrices whose every read is a row of its own).
std::vector<int> Generator::stagedRows(const Block &body, int index, const std::set<int> &free,
                                       bool otherReads) const {
  auto isGuard = [this](int v) { return this->isGuard(v); };
  auto typeOf = [this](int v) -> const ir::Type & { return this->typeOf(v); };
  RowAnalysis ra{{index}, {}, isGuard};
  for (int v : free)
    if (typeOf(v).rank == 0) ra.uniform.insert(v);
  for (auto &s : body.stmts)
    if (s->kind == StmtKind::Let && typeOf(s->outs[0]).rank == 0 && ra.expOk(static_cast<const Let &>(*s).value))
      ra.derived.insert(s->outs[0]);
  std::map<int, int> good, bad, inLoop;
  std::set<int> written;
  std::function<void(const Block &, int)> walk;
  std::function<void(const ExpP &, int)> exp = [&](const ExpP &e, int depth) {
    if (!e) return;
    if (e->kind == Exp::Read && e->args[0]->kind == Exp::Var) {
      int a = e->args[0]->var;
      if (free.count(a) && typeOf(a).rank == 2 && !isGuard(a)) {
        if (ra.expOk(e->args[1])) {
          good[a]++;
          if (depth > 0) inLoop[a]++;
        } else {
          bad[a]++;
        }
      }
    }
    for (auto &a : e->args) exp(a, depth);
  };
  walk = [&](const Block &b, int depth) {
    for (auto &s : b.stmts) {
      forEachExp(const_cast<Stmt &>(*s), [&](ExpP &e) { exp(e, depth); });
      if (s->kind == StmtKind::Write) written.insert(static_cast<const Write &>(*s).array);
      int d = depth + (s->kind == StmtKind::Loop ? 1 : 0);
      forEachBlock(static_cast<const Stmt &>(*s), [&](const Block &in) { walk(in, d); });
    }
    for (auto &r : b.results) exp(r, depth);
  };
  walk(body, 0);
  std::vector<int> r;
  for (auto &[a, n] : good)
    if ((otherReads || !bad.count(a)) && inLoop.count(a) && !written.count(a) && n > 0) r.push_back(a);
  if (r.size() > 2) r.resize(2); // local memory is shared among them
  return r;
}

// The copy of a work-group's rows of staged matrix `n` (rows stg_rows_<n>
// from stg_base) into stg_<n> with pitch stg_pitch_<n>, coalesced: work-item
// `lid` of `L` copies elements lid, lid + L, ..., its (row, column) stepped
// on, not divided out per element. Rows are contiguous (weight(1) == 1).
// The block's elements t = lid, lid + L, ... (row r = t / n1, column c),
// kStageBatch loads in flight per work-item before their stores: the copy
// is bound by the loads' latency, and one load at a time made it the larger
// part of a staged kernel's time (H100, docs/performance.md).
static const int kStageBatch = 8;

void Generator::stageCopy(Code &k, const std::string &n, const std::string &type, const std::string &lid,
                          const std::string &L) {
  const std::string B = std::to_string(kStageBatch);
  const std::string next = "r += dr; c += dc; if (c >= n1) { c -= n1; ++r; }";
  k.open("");
  k.line("const int n1 = (int)" + n + "_n1, total = (int)(stg_rows_" + n + " * " + n + "_n1), L = " + L + ";");
  k.line("const int dr = n1 > 0 ? L / n1 : 0, dc = L - dr * n1;");
  k.line("int r = n1 > 0 ? " + lid + " / n1 : 0, c = " + lid + " - r * n1, t = " + lid + ";");
  k.open("for (; t + " + std::to_string(kStageBatch - 1) + " * L < total; t += " + B + " * L)");
  k.line("int at[" + B + "];");
  k.line(type + " v[" + B + "];");
  k.line("#pragma unroll");
  k.open("for (int u = 0; u < " + B + "; ++u)");
  k.line("at[u] = r * stg_pitch_" + n + " + c;");
  k.line("v[u] = " + n + "[(stg_base + r) * " + n + "_w0 + c + " + n + "_w2];");
  k.line(next);
  k.close();
  k.line("#pragma unroll");
  k.line("for (int u = 0; u < " + B + "; ++u) stg_" + n + "[at[u]] = v[u];");
  k.close();
  k.open("for (; t < total; t += L)");
  k.line("stg_" + n + "[r * stg_pitch_" + n + " + c] = " + n + "[(stg_base + r) * " + n + "_w0 + c + " + n + "_w2];");
  k.line(next);
  k.close();
  k.close();
}

// The CPU schedule of a map whose body runs no loop: each work-item computes
// a block of arrc_cr rows x arrc_cc columns of the innermost two axes, the
// columns as a loop the device compiler vectorises (its iterations are
// independent: assume_safety). One element per work-item with the usual
// guard `if (i >= d0) return;` made PoCL's loop over the work-items run
// 2-3x slower (saxpy over 10^7 floats on one thread: 5.9 -> 2.7 ms).
void Generator::chunkKernel(Code &k, const Map &x, const std::vector<std::string> &dims,
                            const std::function<void()> &store) {
  size_t D = x.dims.size();
  std::map<int, std::string> aliases = devAlias_;
  k.line("#if defined(ARRC_CPU) && !defined(ARRC_NO_MAP_CHUNKS)");
  k.line("// CPU devices: a block of elements per work-item, its columns one vectorised loop (SoacMap.cpp)");
  k.open("");
  k.line("const long arrc_j0 = (long)get_global_id(0) * arrc_cc, arrc_j1 = min(arrc_j0 + arrc_cc, " + dims[D - 1] + ");");
  if (D >= 2)
    k.line("const long arrc_i0 = (long)get_global_id(1) * arrc_cr, arrc_i1 = min(arrc_i0 + arrc_cr, " + dims[D - 2] +
           ");");
  if (D == 3) k.line(decl(x.index[0], true) + " = (" + clScalar(typeOf(x.index[0]).elem) + ")get_global_id(2);");
  if (D >= 2) {
    std::string i = devName(x.index[D - 2]);
    k.open("for (" + decl(x.index[D - 2], true) + " = arrc_i0; " + i + " < arrc_i1; ++" + i + ")");
  }
  std::string j = devName(x.index[D - 1]);
  k.line("#pragma clang loop vectorize(assume_safety)");
  k.open("for (" + decl(x.index[D - 1], true) + " = arrc_j0; " + j + " < arrc_j1; ++" + j + ")");
  devBlock(k, x.body);
  if (!x.outs.empty()) store();
  k.close();
  if (D >= 2) k.close();
  k.line("return;");
  k.close();
  k.line("#endif");
  devAlias_ = aliases;
}

void Generator::map(const Map &x) {
  std::string kn = newKernel("map", x);
  size_t D = x.dims.size();
  if (D == 0) fail("Map with no dimensions");
  std::set<int> fv = freeOf({&x.body}, {}, x.index);
  KernelArgs args = freeArgs(fv);
  std::vector<int> staged = D == 1 ? stagedRows(x.body, x.index[0], fv, false) : std::vector<int>{};
  // A distributed kernel's body starts with `let i = lo + i_local` (the
  // rank's rows, DistributedSoacs.cpp): its rows are read at i, so the
  // work-group's block starts lo rows further (without that form, nothing
  // is staged there: a window holds only the rows its indices read).
  std::string shift;
  if (!x.body.stmts.empty() && x.body.stmts[0]->kind == StmtKind::Let) {
    const ExpP &v = static_cast<const Let &>(*x.body.stmts[0]).value;
    if (v->kind == Exp::Binary && v->binop == BinOp::Add && v->args.size() == 2 && v->args[0]->kind == Exp::Var &&
        fv.count(v->args[0]->var) && typeOf(v->args[0]->var).rank == 0 && v->args[1]->kind == Exp::Var &&
        v->args[1]->var == x.index[0])
      shift = devName(v->args[0]->var) + " + ";
  }
  if (distributed_ && shift.empty()) staged.clear();
  std::vector<std::string> dimNames;
  for (size_t k = 0; k < D; ++k) dimNames.push_back("d" + std::to_string(k));
  const bool lanes = lanePlan(x); // fills laneClass_ for laneKernel below
  h("// " + std::string(x.outs.empty() ? "parallel for-each" : "map") + (where(x).empty() ? "" : " (" + where(x) + ")") +
    ": kernel " + kn + (staged.empty() ? "" : " (rows staged in local memory on GPUs)"));
  for (int o : x.outs) h(decl(o, false) + ";");
  host_->open("");
  for (size_t k = 0; k < D; ++k) h("const int64_t " + dimNames[k] + " = " + exp(x.dims[k], false) + ";");
  std::vector<std::string> ocl = args.cl, oh = args.host;
  for (int o : x.outs) {
    const ir::Type &t = typeOf(o);
    noteType(t.elem);
    h(name(o) + " = " + cppType(t) + "::alloc(ctx, {" + join(dimNames) + "});");
    ocl.push_back("__global " + std::string(clStore(t.elem)) + " *" + name(o));
    oh.push_back(name(o));
  }
  for (size_t k = 0; k < D; ++k) {
    ocl.push_back("long " + dimNames[k]);
    oh.push_back(dimNames[k]);
  }
  std::string cond = join(dimNames, " > 0 && ") + " > 0";
  // Work-groups of map_wg along global axis 0 (the innermost index, or the
  // flattened one past three axes), rounded up; 0 leaves the size to the
  // implementation (arrc::gen::map_group)
  const std::string axis0 = D <= 3 ? dimNames[D - 1] : "(" + join(dimNames, " * ") + ")";
  h("const size_t map_wg = arrc::gen::map_group(ctx, " + axis0 + ", " + (D == 1 ? "true" : "false") + ");");
  const bool rows = D == 2 || D == 3; // map_rows work-items along global axis 1
  if (rows) h("const size_t map_wg1 = arrc::gen::map_rows(ctx, map_wg, false);");
  std::string global, local = "map_wg ? arrc::NDRange(map_wg" + std::string(D == 2 ? ", map_wg1" : D == 3 ? ", map_wg1, 1" : "") +
                              ") : arrc::NDRange()";
  if (D <= 3) {
    std::vector<std::string> g, gr;
    for (size_t k = 0; k < D; ++k) {
      g.push_back("size_t(" + dimNames[D - 1 - k] + ")");
      gr.push_back(k == 0   ? "arrc::round_up(size_t(" + dimNames[D - 1] + "), map_wg)"
                   : k == 1 ? "arrc::round_up(" + g.back() + ", map_wg1)"
                            : g.back());
    }
    global = "map_wg ? arrc::NDRange(" + join(gr) + ") : arrc::NDRange(" + join(g) + ")";
  } else {
    global = "map_wg ? arrc::NDRange(arrc::round_up(size_t" + axis0 + ", map_wg)) : arrc::NDRange(size_t" + axis0 + ")";
  }
  const bool glanes = lanes && gpuLanePlan(x);
  if (glanes) {
    // GPUs: a work-item per tile (SoacMapLanes.cpp); arrc_gl selects it in the kernel
    auto [gg, gl, tiles] = gpuLaneRange(dimNames);
    h("const bool glanes = ctx.gpu_lanes(" + tiles + ");");
    ocl.push_back("int arrc_gl");
    oh.push_back("int32_t(glanes)");
    global = "glanes ? " + gg + " : " + global;
    local = "glanes ? " + gl + " : " + local;
  }
  if (lanes) {
    // CPU devices: one work-item per tile of laneR_ x laneL_ elements, in
    // work-groups of 8 tiles along the outer lane axis (the tiles of a
    // work-group share the columns they read; PoCL's own choice for
    // awkward counts, e.g. 11 x 168 tiles, took twice the time); the
    // counts rounded up to whole work-groups (their extra tiles store nothing)
    std::vector<std::string> g, l;
    for (size_t k = 0; k < D; ++k) {
      std::string d = dimNames[D - 1 - k];
      int t = k == 0 ? laneL_ : k == 1 ? laneR_ : 1;
      std::string tiles = t > 1 ? "size_t((" + d + " + " + std::to_string(t - 1) + ") / " + std::to_string(t) + ")"
                                : "size_t(" + d + ")";
      bool grouped = D == 1 ? k == 0 : k == 1;
      g.push_back(grouped ? "arrc::round_up(" + tiles + ", 8)" : tiles);
      l.push_back(grouped ? "8" : "1");
    }
    global = "lanes ? arrc::NDRange(" + join(g) + ") : " + global;
    local = "lanes ? arrc::NDRange(" + join(l) + ") : " + local;
  }
  if (!staged.empty()) {
    // the work-group size (0: no staging) and each array's row pitch
    std::vector<std::string> conds = {"arrc::gen::stage_rows(ctx)"}, rowBytes;
    for (int a : staged) {
      std::string n = name(a), st = cppStore(typeOf(a).elem);
      h("const int64_t " + n + "_pitch = " + n + ".shape(1) | 1;");
      conds.push_back(n + ".weight(1) == 1");
      rowBytes.push_back("size_t(" + n + "_pitch) * sizeof(" + st + ")");
    }
    h("const size_t stage_wg = " + join(conds, " && ") + " ? arrc::gen::staging_group(" + join(rowBytes, " + ") +
      ") : 0;");
    for (int a : staged) {
      std::string n = name(a), st = cppStore(typeOf(a).elem);
      ocl.push_back("__local " + std::string(clStore(typeOf(a).elem)) + " *stg_" + n);
      oh.push_back("arrc::LocalMem{std::max<size_t>(1, stage_wg * size_t(" + n + "_pitch)) * sizeof(" + st + ")}");
      ocl.push_back("long stg_pitch_" + n);
      oh.push_back(n + "_pitch");
    }
    ocl.push_back("int stg_on");
    oh.push_back("int32_t(stage_wg > 0)");
    global = "stage_wg ? arrc::NDRange(arrc::round_up(size_t(d0), stage_wg)) : " + global;
    local = "stage_wg ? arrc::NDRange(stage_wg) : " + local;
  }
  if (lanes) h(std::string("const bool lanes = ") + (staged.empty() ? "" : "!stage_wg && ") + "arrc::gen::map_lanes(ctx);");
  // GPUs: long rows shared by a work-group (SoacMapLongRows.cpp)
  const ir::Loop *longRows = staged.empty() ? longRowLoop(x) : nullptr;
  if (longRows) {
    h(std::string("const int64_t lr_min = ") + (lanes ? "lanes ? 0 : " : "") + "ctx.long_row_min();");
    ocl.push_back("long lr_min");
    oh.push_back("lr_min");
    const std::string G = std::to_string(kLongRowGroup);
    global = "lr_min ? arrc::NDRange(arrc::round_up(size_t(d0), " + G + ")) : " + global;
    local = "lr_min ? arrc::NDRange(" + G + ") : " + local;
  }
  // CPUs: a body without loops as blocks of elements (below)
  const bool chunks =
      !lanes && staged.empty() && !longRows && D <= 3 && !distributed_ && !blockHasKind(x.body, StmtKind::Loop);
  if (chunks) {
    h("const bool chunks = arrc::gen::map_chunks(ctx);");
    std::string rowsTotal = D == 1 ? "1" : dimNames[D - 2];
    h("const std::array<int64_t, 2> chunk = chunks ? arrc::gen::map_chunk(ctx, " + dimNames[D - 1] + ", " + rowsTotal +
      ") : std::array<int64_t, 2>{1, 1};");
    ocl.push_back("long arrc_cc");
    oh.push_back("chunk[0]");
    ocl.push_back("long arrc_cr");
    oh.push_back("chunk[1]");
    std::vector<std::string> g = {"size_t((" + dimNames[D - 1] + " + chunk[0] - 1) / chunk[0])"};
    if (D >= 2) g.push_back("size_t((" + dimNames[D - 2] + " + chunk[1] - 1) / chunk[1])");
    if (D == 3) g.push_back("size_t(" + dimNames[0] + ")");
    global = "chunks ? arrc::NDRange(" + join(g) + ") : " + global;
    local = std::string("chunks ? arrc::NDRange(1") + (D >= 2 ? ", 1" : "") + (D == 3 ? ", 1" : "") + ") : " + local;
  }
  h("if (" + cond + ")");
  h("  " + launch(kn, global, local, oh, unitStride(fv)));
  host_->close();

  Code k;
  k.ind = 0;
  beginKernel(k, kn, (x.outs.empty() ? "for-each" : "map") + std::string(where(x).empty() ? "" : " at " + where(x)), ocl);
  // the element's results to the outputs (index variables and results as
  // the body's code names them)
  auto store = [&] {
    std::string lin = devName(x.index[0]);
    for (size_t j = 1; j < D; ++j) lin = "(" + lin + ") * " + dimNames[j] + " + " + devName(x.index[j]);
    k.line("long out_index = " + lin + ";");
    for (size_t o = 0; o < x.outs.size(); ++o) {
      std::string v = exp(x.body.results.at(o), true);
      if (typeOf(x.outs[o]).elem == ScalarKind::Bool) v = "(uchar)(" + v + ")";
      k.line(name(x.outs[o]) + "[out_index] = " + v + ";");
    }
  };
  if (glanes) gpuLaneKernel(k, x, dimNames, store);
  if (lanes) laneKernel(k, x, dimNames, store);
  if (chunks) chunkKernel(k, x, dimNames, store);
  if (D <= 3) {
    for (size_t j = 0; j < D; ++j)
      k.line(decl(x.index[j], true) + " = (" + clScalar(typeOf(x.index[j]).elem) + ")get_global_id(" + std::to_string(D - 1 - j) + ");");
  } else {
    k.line("long lin = get_global_id(0);");
    if (staged.empty()) k.line("if (lin >= " + axis0 + ") return;  // past the rounded-up work-groups' end");
    for (size_t jj = D; jj-- > 0;) {
      k.line(decl(x.index[jj], true) + " = lin % " + dimNames[jj] + ";");
      if (jj) k.line("lin /= " + dimNames[jj] + ";");
    }
  }
  if (!staged.empty()) {
    // only rows of this work-group's own indices (a window holds no more)
    k.line("// this work-group's rows of the staged matrices, copied with coalesced loads");
    k.line("const long stg_first = (long)get_group_id(0) * (long)get_local_size(0);");
    k.line("const long stg_base = stg_on ? " + shift + "stg_first : 0;");
    for (int a : staged) {
      std::string n = name(a);
      k.line("const long stg_rows_" + n + " = stg_on ? clamp(min(" + n +
             "_n0 - stg_base, d0 - stg_first), 0L, (long)get_local_size(0)) : 0;");
      stageCopy(k, n, clStore(typeOf(a).elem), "(int)get_local_id(0)", "(int)get_local_size(0)");
      staged_.insert(a);
    }
    k.line("barrier(CLK_LOCAL_MEM_FENCE);");
    k.line("if (" + devName(x.index[0]) + " >= d0) return;");
  }
  if (longRows) longRowPart(k, x, *longRows, store);
  if (staged.empty() && D == 1)
    k.line("if (" + devName(x.index[D - 1]) + " >= " + dimNames[D - 1] + ") return;  // past the rounded-up work-groups' end");
  if (staged.empty() && (D == 2 || D == 3))
    k.line("if (" + devName(x.index[D - 1]) + " >= " + dimNames[D - 1] + " || " + devName(x.index[D - 2]) + " >= " +
           dimNames[D - 2] + ") return;  // past the rounded-up work-groups' end");
  devBlock(k, x.body);
  if (!x.outs.empty()) store();
  staged_.clear();
  k.close();
  kernels_ += rebaseArrays(k.s);
}

} // namespace arrc::cg
