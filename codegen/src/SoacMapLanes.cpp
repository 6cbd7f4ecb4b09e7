// Map: the CPU schedule of map nests whose body runs a loop (SoacMap.cpp
// emits the kernel; this file the part compiled for CPU devices).
//
// On GPUs one work-item computes one element. On CPUs (PoCL) the work-items
// of a work-group run one after the other in a loop, which the device
// compiler vectorises only when the body has no loop of its own: a dot
// product per element (dgemm's A[i, :] . B[:, j], k-means' distances,
// N-body's sum of forces) stays one scalar chain per element. There each
// work-item computes a tile of R x L elements (L consecutive values of the
// innermost index, R of the one before it) and runs the body's loops once
// for the whole tile, with the tile's lanes as the innermost loop:
//
//   for k < n:  for r < R: for l < L:  acc[r][l] += A[i0 + r, k] * B[k, j0 + l]
//
// The lane loops have constant trip counts, so the device compiler unrolls
// and vectorises them (B[k, j0 + l] is a vector load, A[i0 + r, k] a
// broadcast), and each B row loaded serves R rows of the tile.
//
// Each value of the body gets a lane class: the lane indices it depends on
// (none, r, l, or both). A value of class none is computed once per tile, a
// value of class l once per l (an array of L), and so on. A loop whose trip
// count is the same for all lanes is interchanged with the lane loops; any
// other statement whose value varies (an if on a lane's value, a loop whose
// count varies) runs per lane, as on GPUs, inside the lane loops. Tiles
// that do not fit the index space (its edges) run element by element.
//
// GPUs take the same transformation for map nests of two or three axes
// (gpuLaneKernel): a tile of kGpuLaneR consecutive rows by kGpuLaneL columns
// kGpuLaneStride apart, so that each load of a tile column is coalesced over
// a warp's work-items, and each value loaded serves a row or a column of the
// tile from registers (dgemm at 4096 on an H200: 91 ms one element per
// work-item, 15 ms with 4 x 8 tiles; 2 x 16 consecutive columns: 141 ms).
#include "Generator.h"

#include "arrc/IRBuilder.h"

namespace arrc::cg {

namespace {
constexpr int kLaneR = 1; // depends on the tile's row lane r
constexpr int kLaneL = 2; // depends on the tile's column lane l
// the GPU tile: rows x columns, the columns a warp apart; work-groups of
// kGpuLaneStride x kGpuLaneRows work-items (measured on an H200 at 4096:
// 4 x 8 in groups of 32 x 4 15.0 ms, 16 x 16 15.5; 8 x 4 18.2; 4 x 4 19.5;
// 8 x 8 33.8, 166 registers)
constexpr int kGpuLaneR = 4, kGpuLaneL = 8, kGpuLaneStride = 32, kGpuLaneRows = 4;
constexpr int kGpuLaneCols = kGpuLaneStride * kGpuLaneL; // columns of a work-group's tiles
} // namespace

int Generator::laneClassOf(const ExpP &e) const {
  if (!e) return 0;
  int c = 0;
  if (e->kind == Exp::Var) {
    auto it = laneClass_.find(e->var);
    if (it != laneClass_.end()) c = it->second;
  }
  for (auto &a : e->args) c |= laneClassOf(a);
  return c;
}

int Generator::laneClassOf(const Stmt &s) const {
  std::set<int> uses;
  stmtUses(s, uses);
  int c = 0;
  for (int v : uses) {
    auto it = laneClass_.find(v);
    if (it != laneClass_.end()) c |= it->second;
  }
  return c;
}

// A loop the lane loops can move into: counted, scalar state, its trip
// count the same for every lane.
bool Generator::laneInterchangeable(const ir::Loop &x) const {
  if (x.form != ir::Loop::For || laneClassOf(x.count) != 0) return false;
  for (int p : x.params)
    if (typeOf(p).rank > 0) return false;
  return true;
}

// Lane classes of the block's values; true if it holds an interchangeable
// loop whose state varies over the lanes (the case the schedule is for).
bool Generator::laneAnalyze(const Block &b) {
  bool found = false;
  auto set = [this](int v, int c) {
    if (c) laneClass_[v] |= c;
  };
  for (auto &sp : b.stmts) {
    const Stmt &s = *sp;
    if (s.kind == StmtKind::Let) {
      auto &x = static_cast<const Let &>(s);
      if (typeOf(x.outs[0]).rank == 0) set(x.outs[0], laneClassOf(x.value));
      continue;
    }
    if (s.kind == StmtKind::Loop && laneInterchangeable(static_cast<const ir::Loop &>(s))) {
      auto &x = static_cast<const ir::Loop &>(s);
      int c = 0;
      for (auto &e : x.init) c |= laneClassOf(e);
      // the state's class: what its start and its updates depend on
      for (int round = 0; round < 4; ++round) {
        for (int p : x.params) set(p, c);
        found = laneAnalyze(x.body) || found;
        int c2 = c;
        for (auto &r : x.body.results) c2 |= laneClassOf(r);
        if (c2 == c) break;
        c = c2;
      }
      if (c) found = true;
      for (int p : x.params) set(p, c);
      for (int o : x.outs) set(o, c);
      continue;
    }
    int c = laneClassOf(s);
    for (int o : s.outs) set(o, c);
  }
  return found;
}

void Generator::laneOpen(Code &c, int cls) {
  // unrolled whole, so that each lane's values live in registers (and the
  // compiler packs neighbouring lanes into vectors)
  if (cls & kLaneR) c.line("#pragma unroll");
  if (cls & kLaneR) c.open("for (int arrc_lr = 0; arrc_lr < " + std::to_string(laneR_) + "; ++arrc_lr)");
  if (cls & kLaneL) c.line("#pragma unroll");
  if (cls & kLaneL) c.open("for (int arrc_ll = 0; arrc_ll < " + std::to_string(laneL_) + "; ++arrc_ll)");
}

void Generator::laneClose(Code &c, int cls) {
  if (cls & kLaneL) c.close();
  if (cls & kLaneR) c.close();
}

// Declares v's lanes (an array over its class's lane indices) and makes
// later references to v name the current lane's element.
void Generator::laneDecl(Code &c, int v, int cls) {
  std::string dims, sub;
  if (cls & kLaneR) {
    dims += "[" + std::to_string(laneR_) + "]";
    sub += "[arrc_lr]";
  }
  if (cls & kLaneL) {
    dims += "[" + std::to_string(laneL_) + "]";
    sub += "[arrc_ll]";
  }
  noteType(typeOf(v).elem);
  c.line(std::string(clScalar(typeOf(v).elem)) + " " + name(v) + "_lanes" + dims + ";");
  devAlias_[v] = name(v) + "_lanes" + sub;
}

void Generator::laneBlock(Code &c, const Block &b) {
  for (auto &s : b.stmts) laneStmt(c, *s);
}

void Generator::laneStmt(Code &c, const Stmt &s) {
  auto cls = [this](int v) {
    auto it = laneClass_.find(v);
    return it == laneClass_.end() ? 0 : it->second;
  };
  if (s.kind == StmtKind::Let && typeOf(s.outs[0]).rank > 0) {
    devStmt(c, s); // an array's other name
    return;
  }
  if (s.kind == StmtKind::Let) {
    int v = s.outs[0], k = cls(v);
    // an index converted between int and long: the lane's index itself
    // (indices are below 2^31 here), so that loads stay consecutive
    const ExpP &val = static_cast<const Let &>(s).value;
    const ExpP *src = val->kind == Exp::Convert ? &val->args[0] : val->kind == Exp::Var ? &val : nullptr;
    ScalarKind ek = typeOf(v).elem;
    if (src && (*src)->kind == Exp::Var && laneIndex_.count((*src)->var) &&
        (ek == ScalarKind::Int || ek == ScalarKind::Long)) {
      auto forms = laneIndex_.at((*src)->var);
      laneIndex_[v] = forms;
      devAlias_[v] = ek == ScalarKind::Int ? forms.second : forms.first;
      return;
    }
    if (!k) {
      devStmt(c, s);
      return;
    }
    std::string value = exp(static_cast<const Let &>(s).value, true);
    laneDecl(c, v, k);
    laneOpen(c, k);
    c.line(devName(v) + " = " + value + ";");
    laneClose(c, k);
    return;
  }
  if (s.kind == StmtKind::Loop && laneInterchangeable(static_cast<const ir::Loop &>(s)) && laneClassOf(s)) {
    // the lane loops inside the loop: each step of the loop for all lanes
    auto &x = static_cast<const ir::Loop &>(s);
    int k = x.params.empty() ? 0 : cls(x.params[0]);
    std::vector<std::string> init;
    for (auto &e : x.init) init.push_back(exp(e, true));
    for (size_t i = 0; i < x.params.size(); ++i) {
      if (k) {
        laneDecl(c, x.params[i], k);
      } else {
        c.line(decl(x.params[i], true) + ";");
      }
    }
    laneOpen(c, k);
    for (size_t i = 0; i < x.params.size(); ++i) c.line(devName(x.params[i]) + " = " + init[i] + ";");
    laneClose(c, k);
    std::string iv = devName(x.index);
    c.open("for (" + std::string(clScalar(typeOf(x.index).elem)) + " " + iv + " = 0; " + iv + " < " +
           exp(x.count, true) + "; ++" + iv + ")");
    laneBlock(c, x.body);
    laneOpen(c, k);
    loopAssign(c, x, true);
    laneClose(c, k);
    c.close();
    for (size_t i = 0; i < x.outs.size(); ++i) {
      devAlias_[x.outs[i]] = devName(x.params[i]);
    }
    return;
  }
  // anything else: as on GPUs, per lane (when it varies), into lane arrays
  int k = 0;
  for (int o : s.outs) k |= cls(o);
  k |= laneClassOf(s);
  if (!k) {
    devStmt(c, s);
    return;
  }
  for (int o : s.outs) {
    laneClass_[o] = k;
    std::string dims = std::string(k & kLaneR ? "[" + std::to_string(laneR_) + "]" : "") +
                       (k & kLaneL ? "[" + std::to_string(laneL_) + "]" : "");
    noteType(typeOf(o).elem);
    c.line(std::string(clScalar(typeOf(o).elem)) + " " + name(o) + "_lanes" + dims + ";");
  }
  laneOpen(c, k);
  c.open("");
  devStmt(c, s);
  for (int o : s.outs)
    c.line(name(o) + "_lanes" + std::string(k & kLaneR ? "[arrc_lr]" : "") + (k & kLaneL ? "[arrc_ll]" : "") +
           " = " + name(o) + ";");
  c.close();
  laneClose(c, k);
  for (int o : s.outs)
    devAlias_[o] = name(o) + "_lanes" + std::string(k & kLaneR ? "[arrc_lr]" : "") + (k & kLaneL ? "[arrc_ll]" : "");
}

// Whether a loop the lanes move into reads along a lane's row: an array
// indexed on an axis other than its last by the column lane (k-means'
// P[i, k] with i the point: per step of k one load per lane, a gather,
// where the element-per-work-item kernel read each row contiguously;
// measured 2x slower on PoCL). The last axis (dgemm's B[k, j]) is a
// contiguous vector load; the row lane (A[i, k]) a few broadcasts.
bool Generator::laneGathers(const Block &b, bool inLoop) const {
  bool g = false;
  std::function<void(const ExpP &)> exp = [&](const ExpP &e) {
    if (!e || g) return;
    if (e->kind == Exp::Read && inLoop)
      for (size_t k = 1; k + 1 < e->args.size(); ++k)
        if (laneClassOf(e->args[k]) & kLaneL) g = true;
    for (auto &a : e->args) exp(a);
  };
  for (auto &sp : b.stmts) {
    const Stmt &s = *sp;
    forEachExp(const_cast<Stmt &>(s), exp);
    bool in = inLoop || (s.kind == StmtKind::Loop && laneInterchangeable(static_cast<const ir::Loop &>(s)));
    forEachBlock(s, [&](const Block &inner) { g = g || laneGathers(inner, in); });
    if (g) return true;
  }
  for (auto &r : b.results) exp(r);
  return g;
}

bool Generator::lanePlan(const Map &x) {
  laneClass_.clear();
  laneR_ = laneL_ = 1;
  size_t D = x.dims.size();
  if (D > 3 || x.outs.empty() || distributed_ || blockWrites(x.body)) return false;
  for (int o : x.outs)
    if (typeOf(o).rank != static_cast<int>(D)) return false;
  // 32 lanes: as many accumulators as the CPU's vector registers hold
  // (dgemm on PoCL at 512: 2 x 16 and 4 x 8 about 4.6-6 ms, 2 x 32 17 ms,
  // spilled; 1-D N-body: 16 lanes 0.35 ms, 8 lanes 0.72, 32 lanes 0.37)
  laneL_ = 16;
  laneR_ = D >= 2 ? 2 : 1;
  // an innermost axis of a few columns known here (`a <- iota(3)`): the
  // tile is that many columns by 8 or 16 rows, not 16 columns of which most
  // would be computed for nothing (N-body over a matrix of bodies, the
  // force's 3 components per body: 16 x 3 lanes 23.6 -> 8 x 3 8.5 ms on PoCL,
  // 16 x 3 15 ms, 4 x 3 12 ms)
  int64_t inner = 0;
  if (D >= 2 && constValue(x.dims[D - 1], inner) && inner >= 1 && inner <= 4) {
    laneL_ = static_cast<int>(inner);
    laneR_ = inner <= 2 ? 16 : 8;
  }
  laneClass_[x.index[D - 1]] = kLaneL;
  if (laneR_ > 1) laneClass_[x.index[D - 2]] = kLaneR;
  if (laneAnalyze(x.body) && !laneGathers(x.body, false)) return true;
  laneClass_.clear();
  return false;
}

// One tile's lanes: the body with the lane loops inside its loops, then the
// stores. The tile starts at (arrc_ib, arrc_jb): the work-item's own tile,
// moved back to end at the index space's end where it would pass it (those
// lanes compute elements of the tile before it again and store nothing).
// clamp: an index space smaller than a tile, whose lanes outside it compute
// its last row/column again (the body has no effects besides its errors,
// which that element raises as well).
void Generator::laneTile(Code &k, const Map &x, const std::vector<std::string> &dims,
                         const std::function<void()> &store, bool clamp, bool gpu) {
  size_t D = x.dims.size();
  std::map<int, std::string> aliases = devAlias_;
  std::map<int, int> classes = laneClass_;
  // column lanes: consecutive (CPUs) or a warp apart (GPUs)
  const std::string col = gpu ? "arrc_ll * " + std::to_string(kGpuLaneStride) : "arrc_ll";
  auto lane = [&](const std::string &base, const std::string &l, const std::string &d) {
    return clamp ? "min(" + base + " + " + l + ", " + d + " - 1)" : "(" + base + " + " + l + ")";
  };
  laneIndex_.clear();
  laneIndex_[x.index[D - 1]] = {lane("arrc_jb", col, dims[D - 1]), lane("arrc_jbi", col, "(int)" + dims[D - 1])};
  if (laneR_ > 1)
    laneIndex_[x.index[D - 2]] = {lane("arrc_ib", "arrc_lr", dims[D - 2]), lane("arrc_ibi", "arrc_lr", "(int)" + dims[D - 2])};
  for (auto &[v, forms] : laneIndex_) devAlias_[v] = forms.first;
  laneBlock(k, x.body);
  laneOpen(k, kLaneR | kLaneL);
  // CPU tiles at the end move back (their first lanes are the tile before's)
  std::string mine = gpu ? "arrc_jb + " + col + " < " + dims[D - 1]
                         : "arrc_jb + arrc_ll >= arrc_j0 && arrc_jb + arrc_ll < " + dims[D - 1];
  if (laneR_ > 1)
    mine += (gpu ? "" : " && arrc_ib + arrc_lr >= arrc_i0") + std::string(" && arrc_ib + arrc_lr < ") + dims[D - 2];
  k.open("if (" + mine + ")");
  store();
  k.close();
  laneClose(k, kLaneR | kLaneL);
  devAlias_ = aliases;
  laneClass_ = classes;
  laneIndex_.clear();
}

void Generator::laneKernel(Code &k, const Map &x, const std::vector<std::string> &dims,
                           const std::function<void()> &store) {
  size_t D = x.dims.size();
  std::string dl = dims[D - 1], L = std::to_string(laneL_), R = std::to_string(laneR_);
  std::string jl = devName(x.index[D - 1]);
  std::string il = laneR_ > 1 ? devName(x.index[D - 2]) : "";
  std::map<int, std::string> aliases = devAlias_;
  std::set<int> staged = staged_;
  staged_.clear(); // no staging on CPUs
  // a branch on a kernel argument instead of the preprocessor measured 1.5-2x
  // slower (PoCL then compiles the other path's element loop around it)
  k.line("#if defined(ARRC_CPU) && !defined(ARRC_NO_MAP_LANES)");
  k.line("// CPU devices: a tile of " + (laneR_ > 1 ? R + " x " : std::string()) + L +
         " elements per work-item, the body's loops run once for all of them (SoacMapLanes.cpp)");
  k.open("");
  k.line("const long arrc_j0 = (long)get_global_id(0) * " + L + ";");
  std::string fits = dl + " >= " + L, small = dl + " <= INT_MAX";
  if (laneR_ > 1) {
    k.line("const long arrc_i0 = (long)get_global_id(1) * " + R + ";");
    fits += " && " + dims[D - 2] + " >= " + R;
    small += " && " + dims[D - 2] + " <= INT_MAX";
  }
  if (D == 3) k.line(decl(x.index[0], true) + " = (" + clScalar(typeOf(x.index[0]).elem) + ")get_global_id(2);");
  if (D >= 2 && laneR_ == 1)
    k.line(decl(x.index[D - 2], true) + " = (" + clScalar(typeOf(x.index[D - 2]).elem) + ")get_global_id(1);");
  // indices below 2^31: the lanes' indices as int sums the compiler sees
  // are consecutive (a wider index space goes element by element)
  k.open("if (" + small + ")");
  k.line("const long arrc_jb = " + dl + " >= " + L + " ? min(arrc_j0, " + dl + " - " + L + ") : arrc_j0;");
  k.line("const int arrc_jbi = (int)arrc_jb;");
  if (laneR_ > 1) {
    k.line("const long arrc_ib = " + dims[D - 2] + " >= " + R + " ? min(arrc_i0, " + dims[D - 2] + " - " + R + ") : arrc_i0;");
    k.line("const int arrc_ibi = (int)arrc_ib;");
  }
  k.open("if (" + fits + ")");
  laneTile(k, x, dims, store, false);
  k.close();
  k.open("else");
  laneTile(k, x, dims, store, true);
  k.close();
  k.line("return;");
  k.close();
  // element by element
  if (laneR_ > 1)
    k.open("for (" + decl(x.index[D - 2], true) + " = arrc_i0; " + il + " < min(arrc_i0 + " + R + ", " + dims[D - 2] +
           "); ++" + il + ")");
  k.open("for (" + decl(x.index[D - 1], true) + " = arrc_j0; " + jl + " < min(arrc_j0 + " + L + ", " + dl + "); ++" +
         jl + ")");
  devBlock(k, x.body);
  store();
  k.close();
  if (laneR_ > 1) k.close();
  devAlias_ = aliases;
  k.line("return;");
  k.close();
  k.line("#endif");
  staged_ = staged;
  laneClass_.clear();
}

// The GPU tile where the CPU plan found one over both of the last two axes
// (a constant inner axis of a few columns tiles rows only on CPUs).
bool Generator::gpuLanePlan(const Map &x) const {
  return x.dims.size() >= 2 && laneR_ == 2 && laneL_ == 16 && !laneClass_.empty();
}

// Work-groups of kGpuLaneStride x kGpuLaneRows work-items, each a tile;
// the counts rounded up to whole work-groups (their extra tiles store nothing).
std::array<std::string, 3> Generator::gpuLaneRange(const std::vector<std::string> &dims) const {
  size_t D = dims.size();
  const std::string cols = std::to_string(kGpuLaneCols), W = std::to_string(kGpuLaneStride);
  const std::string across = "(size_t(" + dims[D - 1] + ") + " + cols + " - 1) / " + cols + " * " + W;
  const std::string down = "(size_t(" + dims[D - 2] + ") + " + std::to_string(kGpuLaneR - 1) + ") / " + std::to_string(kGpuLaneR);
  std::string g = across + ", arrc::round_up(" + down + ", " + std::to_string(kGpuLaneRows) + ")";
  std::string l = W + ", " + std::to_string(kGpuLaneRows);
  std::string tiles = "int64_t((" + across + ") * (" + down + "))";
  if (D == 3) {
    g += ", size_t(" + dims[0] + ")";
    l += ", 1";
    tiles += " * " + dims[0];
  }
  return {"arrc::NDRange(" + g + ")", "arrc::NDRange(" + l + ")", tiles};
}

void Generator::gpuLaneKernel(Code &k, const Map &x, const std::vector<std::string> &dims,
                              const std::function<void()> &store) {
  size_t D = x.dims.size();
  const int cpuR = laneR_, cpuL = laneL_;
  laneR_ = kGpuLaneR;
  laneL_ = kGpuLaneL;
  const std::string R = std::to_string(laneR_), L = std::to_string(laneL_), W = std::to_string(kGpuLaneStride);
  const std::string dl = dims[D - 1], dr = dims[D - 2];
  std::map<int, std::string> aliases = devAlias_;
  std::map<int, int> classes = laneClass_;
  k.line("#if !defined(ARRC_CPU) || defined(ARRC_CPU_GPU_LANES)");
  k.line("// GPUs: a tile of " + R + " rows x " + L + " columns " + W +
         " apart per work-item (coalesced loads), the body's loops run once for all of them (SoacMapLanes.cpp)");
  k.open("if (arrc_gl)");
  k.line("const long arrc_i0 = (long)get_global_id(1) * " + R + ";");
  k.line("const long arrc_j0 = (long)get_group_id(0) * " + std::to_string(kGpuLaneCols) +
         " + (long)get_local_id(0);");
  if (D == 3) k.line(decl(x.index[0], true) + " = (" + clScalar(typeOf(x.index[0]).elem) + ")get_global_id(2);");
  k.open("if (" + dl + " <= INT_MAX && " + dr + " <= INT_MAX)");
  k.line("const long arrc_jb = arrc_j0, arrc_ib = arrc_i0;");
  k.line("const int arrc_jbi = (int)arrc_jb, arrc_ibi = (int)arrc_ib;");
  // the whole work-group's tiles inside the index space: no clamping
  k.open("if (arrc_j0 - (long)get_local_id(0) + " + std::to_string(kGpuLaneCols) + " <= " + dl +
         " && arrc_i0 + " + R + " <= " + dr + ")");
  laneTile(k, x, dims, store, false, true);
  k.close();
  k.open("else");
  laneTile(k, x, dims, store, true, true);
  k.close();
  k.line("return;");
  k.close();
  // indices past 2^31: element by element
  std::string il = devName(x.index[D - 2]), jl = devName(x.index[D - 1]);
  k.open("for (int arrc_lr = 0; arrc_lr < " + R + "; ++arrc_lr)");
  k.open("for (int arrc_ll = 0; arrc_ll < " + L + "; ++arrc_ll)");
  k.line(decl(x.index[D - 2], true) + " = arrc_i0 + arrc_lr;");
  k.line(decl(x.index[D - 1], true) + " = arrc_j0 + arrc_ll * " + W + ";");
  k.line("if (" + il + " >= " + dr + " || " + jl + " >= " + dl + ") continue;");
  k.open("");
  devBlock(k, x.body);
  store();
  k.close();
  k.close();
  k.close();
  k.line("return;");
  k.close();
  k.line("#endif");
  devAlias_ = aliases;
  laneClass_ = classes;
  laneR_ = cpuR;
  laneL_ = cpuL;
}

} // namespace arrc::cg
