// Nested parallelism: irregular arrays computed inside a SOAC body
// (docs/lowering.md, "Nested parallelism").
//
// Inside a body nothing is stored; an irregular array (a filter, a
// comprehension with filters or irregular generators, a sort, ...) is either
//  * flattened: computed for every element of the body's index space at once
//    by host SOACs placed before the body's SOAC, as segments of flat host
//    arrays (offsets + lengths + data, the Size/Fetch scheme of Elsman &
//    Larsen applied one level up); the body reads its own segment, and
//    indexing it is checked against the segment's length; or
//  * sequentialised: an index function or a fold over the arguments, run by
//    each element on its own (no storage).
// The cost rule (chooseScheme) picks one; flattening also needs the value to
// depend only on the body's index, host values and statements of the body
// that can be replayed (not on a sequential loop's state).
//
// Replay: a flattened value is computed by new SOACs whose bodies re-evaluate
// the part of the body that the value needs (a backward slice of its
// statements, including the conditions of the If branches it sits in), with
// the body's index replaced by the new SOAC's segment index.
#include "Lower.h"

#include <algorithm>
#include <memory>

namespace arrc::lower {

namespace {
// The cost rule's constants (docs/lowering.md).
constexpr int64_t kSmallInner = 32;           // inner sizes up to this: sequentialise
constexpr int64_t kDeviceParallelism = 16384; // outer widths from this: sequentialise

using OpFn = std::function<std::vector<ExpP>(const std::vector<ExpP> &, const std::vector<ExpP> &)>;
Type L1() { return scalarT(ScalarKind::Long); }
ExpP lv(int v) { return varExp(v, L1()); }

// The current position in a body: the SOAC body (Top frame) and the If
// branches between it and here.
struct NestCtx {
  std::vector<Frame> chain; // chain[0]: the Top frame; then Cond frames
  std::set<int> used;       // positions of chain[0].index the value depends on
  ExpP width;               // product of the used extents (host), set by HostScope
  // Context values computed once per segment (host columns) for replays per
  // element: a loop of the body is not re-run for every element of its segment.
  mutable std::map<int, ExpP> cols;
};

using Gen = std::function<std::vector<ExpP>(const ExpP &seg, const ExpP &j)>;

bool captureCtx(Lowerer &L, NestCtx &c, std::string &why) {
  if (!L.device) {
    why = "not inside a parallel body";
    return false;
  }
  int t = -1;
  for (int k = int(L.frames.size()) - 1; k >= 0; --k) {
    if (L.frames[k].kind == Frame::Host) break;
    if (L.frames[k].kind == Frame::Top) {
      t = k;
      break;
    }
  }
  if (t < 0 || L.frames[t].dims.empty()) {
    why = "the enclosing body has no index space to flatten over (an operator, an expand or a sequential loop)";
    return false;
  }
  c.chain = {L.frames[t]};
  c.cols = L.frames[t].cols;
  for (size_t k = size_t(t) + 1; k < L.frames.size() && L.frames[k].kind == Frame::Cond; ++k)
    c.chain.push_back(L.frames[k]);
  return true;
}

bool isOpenIndex(const Lowerer &L, const NestCtx &c, int v) {
  for (auto &f : L.frames)
    if (f.kind == Frame::Top && std::find(f.index.begin(), f.index.end(), v) != f.index.end()) return true;
  auto &ix = c.chain[0].index;
  return std::find(ix.begin(), ix.end(), v) != ix.end();
}

// A variable a new host SOAC may use: defined at host level (not in device
// code, not the index of a SOAC whose body is being built).
bool hostValid(const Lowerer &L, const NestCtx &c, int v) { return !L.deviceVars.count(v) && !isOpenIndex(L, c, v); }

std::set<int> freeVarsOf(const Block &b) {
  std::set<int> uses, defs, out;
  blockUses(b, uses);
  blockDefs(b, defs);
  for (int u : uses)
    if (!defs.count(u)) out.insert(u);
  return out;
}

// The statements of the context that define `need` (transitively), per chain
// frame; the index positions used; false (with why) when something needed is
// neither replayable nor a host value.
bool sliceFor(Lowerer &L, const NestCtx &c, std::set<int> need, const std::set<int> &allowed,
              std::vector<std::vector<StmtP>> &kept, std::set<int> &usedIdx, std::string &why,
              const std::map<int, ExpP> *provided = nullptr, bool withConds = true) {
  kept.assign(c.chain.size(), {});
  std::set<int> defs;
  for (int f = int(c.chain.size()) - 1; f >= 0; --f) {
    auto &stmts = c.chain[f].block->stmts;
    for (int k = int(stmts.size()) - 1; k >= 0; --k) {
      const Stmt &s = *stmts[k];
      bool needed = false;
      for (int o : s.outs) needed = needed || (need.count(o) && !(provided && provided->count(o)));
      if (!needed) continue;
      kept[f].insert(kept[f].begin(), stmts[k]);
      std::set<int> u, d;
      stmtUses(s, u);
      stmtDefs(s, d);
      defs.insert(d.begin(), d.end());
      for (int x : u)
        if (!d.count(x)) need.insert(x);
    }
    if (f > 0 && withConds) expVars(c.chain[f].cond, need);
  }
  auto &ix = c.chain[0].index;
  for (int v : need) {
    if (provided && provided->count(v)) {
      // a column of the enclosing lifted loop's body: read at the element,
      // so the whole index space is used
      for (size_t q = 0; q < ix.size(); ++q) usedIdx.insert(int(q));
      continue;
    }
    if (defs.count(v) || allowed.count(v)) continue;
    auto it = std::find(ix.begin(), ix.end(), v);
    if (it != ix.end()) {
      usedIdx.insert(int(it - ix.begin()));
      continue;
    }
    if (!hostValid(L, c, v)) {
      why = "it depends on '" + L.mod.vars[v].name + "', a value computed in a sequential loop or an inner function";
      return false;
    }
  }
  return true;
}

// Which part of the body the generators need (into c.used); false when some
// of it cannot be replayed in a new SOAC.
bool analyse(Lowerer &L, NestCtx &c, const std::vector<Gen> &gens, std::string &why) {
  Lowerer::NoHoist nh(L);
  int seg = L.newVar("seg", L1()), j = L.newVar("j", L1());
  std::set<int> need;
  for (auto &g : gens) {
    Block t;
    try {
      t = L.subBlock(true, [&] { return g(lv(seg), lv(j)); });
    } catch (const LowerError &e) {
      why = e.message;
      return false;
    }
    auto fv = freeVarsOf(t);
    need.insert(fv.begin(), fv.end());
  }
  std::vector<std::vector<StmtP>> kept;
  std::set<int> used;
  if (!sliceFor(L, c, need, {seg, j}, kept, used, why, &c.cols)) return false;
  c.used.insert(used.begin(), used.end());
  return true;
}

struct NotReplayable {
  std::string why;
};

// In a new SOAC body (cur): binds the element `seg` of the used index space,
// re-emits the context statements gen's code needs (under the conditions of
// the context's If branches; elsewhere the results are zeros), then gen's code.
// perElement: the SOAC runs only for elements of existing segments (their
// conditions hold), so no Ifs, and context columns replace the loops.
std::vector<ExpP> replayAt(Lowerer &L, const NestCtx &c, const ExpP &segExp, const std::set<int> &allowed,
                           const std::function<std::vector<ExpP>()> &gen, bool perElement = false) {
  std::map<int, ExpP> sub;
  const std::map<int, ExpP> *provided = c.cols.empty() ? nullptr : &c.cols;
  if (provided)
    for (auto &kv : c.cols) sub[kv.first] = L.bindScalar(L.mod.vars[kv.first].name, readExp(kv.second, {segExp}));
  std::vector<int> used(c.used.begin(), c.used.end());
  ExpP k = segExp;
  for (int m = int(used.size()) - 1; m >= 0; --m) {
    int iv = c.chain[0].index[used[m]];
    if (m == 0) {
      sub[iv] = k;
    } else {
      ExpP d = c.chain[0].dims[used[m]];
      sub[iv] = L.bindScalar("i", binaryExp(BinOp::Mod, k, d));
      k = L.bindScalar("q", binaryExp(BinOp::Div, k, d));
    }
  }
  Block t = L.subBlock(true, gen);
  std::set<int> need = freeVarsOf(t); // (results included)
  std::vector<std::vector<StmtP>> kept;
  std::set<int> usedIdx;
  std::string why;
  if (!sliceFor(L, c, need, allowed, kept, usedIdx, why, provided, !perElement)) throw NotReplayable{why};
  for (int u : usedIdx)
    if (!c.used.count(u)) throw NotReplayable{"internal: a flattened value uses more of the index space than analysed"};
  std::function<std::vector<ExpP>(size_t)> rec = [&](size_t f) -> std::vector<ExpP> {
    Block kb;
    kb.stmts = kept[f];
    Block cl = cloneFresh(L.mod, kb, sub);
    std::set<int> nd;
    blockDefs(cl, nd);
    L.deviceVars.insert(nd.begin(), nd.end());
    for (auto &s : cl.stmts) L.cur->stmts.push_back(s);
    if (f + 1 < c.chain.size() && perElement) return rec(f + 1);
    if (f + 1 < c.chain.size()) {
      auto s = std::make_shared<If>();
      s->cond = substitute(c.chain[f + 1].cond, sub);
      s->thenB = L.subBlock(true, [&] { return rec(f + 1); });
      std::vector<ExpP> rs;
      for (auto &r : s->thenB.results) {
        s->elseB.results.push_back(constZero(r->type.elem));
        int o = L.newVar("r", r->type);
        s->outs.push_back(o);
        rs.push_back(varExp(o, r->type));
      }
      L.emit(s);
      return rs;
    }
    substituteBlock(t, sub);
    for (auto &s : t.stmts) L.cur->stmts.push_back(s);
    std::vector<ExpP> rs;
    for (auto &r : t.results) rs.push_back(substitute(r, sub));
    return rs;
  };
  return rec(0);
}

// Emits host statements for the body's SOAC: into a scratch block that
// commit() moves before that SOAC (dropped when flattening fails half-way,
// and while probing a body).
struct HostScope {
  Lowerer &L;
  NestCtx &c;
  Block scratch;
  std::string note;
  Block *savedCur;
  bool savedDev;
  size_t depth;
  HostScope(Lowerer &l, NestCtx &ctx, const std::string &n) : L(l), c(ctx), note(n), savedCur(l.cur), savedDev(l.device) {
    Frame f;
    f.kind = Frame::Host;
    f.block = &scratch;
    f.id = ++L.frameCounter;
    L.frames.push_back(f);
    depth = L.frames.size();
    L.cur = &scratch;
    L.device = false;
    ExpP w = constLong(1);
    for (int u : c.used) w = mulL(w, c.chain[0].dims[u]);
    c.width = L.bindScalar("segs", w);
  }
  void commit() {
    if (L.noHoist) {
      // probing: kept aside (a lifted loop's probe reads what they use)
      for (auto &s : scratch.stmts) L.probeDiscard.stmts.push_back(s);
      scratch.stmts.clear();
      return;
    }
    if (!scratch.stmts.empty()) {
      auto &first = scratch.stmts.front();
      first->note = first->note.empty() ? note : note + "; " + first->note;
    }
    for (auto &s : scratch.stmts) c.chain[0].host->stmts.push_back(s);
    scratch.stmts.clear();
  }
  ~HostScope() {
    L.frames.resize(depth - 1);
    L.cur = savedCur;
    L.device = savedDev;
  }
};

bool containsLoop(const Stmt &s) {
  if (s.kind == StmtKind::Loop) return true;
  bool r = false;
  forEachBlock(s, [&](const Block &b) {
    for (auto &t : b.stmts) r = r || containsLoop(*t);
  });
  return r;
}

// Before SOACs that replay the context once per element: the context's loops
// they need run once per segment, into host columns (c.cols).
void provideContext(Lowerer &L, const NestCtx &c, const std::vector<Gen> &elemGens) {
  std::set<int> need;
  {
    Lowerer::NoHoist nh(L);
    int seg = L.newVar("seg", L1()), j = L.newVar("j", L1());
    for (auto &g : elemGens) {
      Block t = L.subBlock(true, [&] { return g(lv(seg), lv(j)); });
      auto fv = freeVarsOf(t);
      need.insert(fv.begin(), fv.end());
    }
  }
  std::vector<std::vector<StmtP>> kept;
  std::set<int> used;
  std::string why;
  if (!sliceFor(L, c, need, {}, kept, used, why, &c.cols, false)) return; // the replay will say why
  std::vector<int> vars;
  for (auto &fr : kept)
    for (auto &s : fr)
      if (containsLoop(*s))
        for (int o : s->outs)
          if (!c.cols.count(o) && L.mod.vars[o].type.rank == 0) vars.push_back(o);
  if (vars.empty()) return;
  auto m = std::make_shared<Map>();
  m->dims = {c.width};
  m->index = {L.newVar("s", L1())};
  m->body = L.bodyBlock(m->dims, m->index, [&] {
    return replayAt(L, c, lv(m->index[0]), {m->index[0]}, [&] {
      std::vector<ExpP> r;
      for (int v : vars) r.push_back(varExp(L.mod, v));
      return r;
    });
  });
  m->note = "context values computed once per segment";
  std::vector<ExpP> cols;
  for (int v : vars) {
    int o = L.newVar(L.mod.vars[v].name, arrayT(L.mod.vars[v].type.elem, 1));
    m->outs.push_back(o);
    cols.push_back(varExp(L.mod, o));
  }
  L.emit(m);
  for (size_t k = 0; k < vars.size(); ++k) c.cols[vars[k]] = cols[k];
}

// The flat index of the current element over the used part of the index space.
ExpP flatHere(Lowerer &L, const NestCtx &c) {
  ExpP k = constLong(0);
  for (int u : c.used) k = addL(mulL(k, c.chain[0].dims[u]), lv(c.chain[0].index[u]));
  return L.bindScalar("seg", k);
}

// An irregular array per element of the body: segment s is data[offs[s] ..
// offs[s] + lens[s]); segIds (when made) holds each element's segment, as
// an int (a 32-bit radix sort orders by it: fewer than 2^31 segments).
struct Segs {
  TypeP type;              // rank-1 array type
  std::vector<ExpP> data;  // SoA leaves
  ExpP offs, lens, segIds; // host arrays
  ExpP total;              // number of elements (host)
};

Lambda addLong(Lowerer &L) {
  Lambda op;
  int a = L.newVar("a", L1()), b = L.newVar("b", L1());
  op.params = {a, b};
  op.body.results = {binaryExp(BinOp::Add, lv(a), lv(b))};
  return op;
}

// Host: a long array over the segments whose element is gen's single result.
ExpP perSegment(Lowerer &L, const NestCtx &c, const std::string &name, const Gen &gen) {
  auto m = std::make_shared<Map>();
  m->dims = {c.width};
  m->index = {L.newVar("s", L1())};
  ExpP s = lv(m->index[0]);
  m->body = L.bodyBlock(m->dims, m->index, [&] {
    auto r = replayAt(L, c, s, {m->index[0]}, [&] { return gen(s, nullptr); });
    return std::vector<ExpP>{toLong(r.at(0))};
  });
  int o = L.newVar(name, arrayT(ScalarKind::Long, 1));
  m->outs = {o};
  L.emit(m);
  return varExp(L.mod, o);
}

ExpP exclusiveScan(Lowerer &L, const ExpP &arr, const ExpP &n) {
  auto sc = std::make_shared<Scan>();
  sc->n = n;
  sc->index = L.newVar("i", L1());
  sc->body.results = {readExp(arr, {lv(sc->index)})};
  sc->op = addLong(L);
  sc->ne = {constLong(0)};
  sc->exclusive = true;
  int o = L.newVar("offs", arrayT(ScalarKind::Long, 1));
  sc->outs = {o};
  L.emit(sc);
  return varExp(L.mod, o);
}

ExpP totalOf(Lowerer &L, const ExpP &arr, const ExpP &n) {
  auto r = std::make_shared<Reduce>();
  r->n = n;
  r->index = L.newVar("i", L1());
  r->body.results = {readExp(arr, {lv(r->index)})};
  r->op = addLong(L);
  r->ne = {constLong(0)};
  int o = L.newVar("total", L1());
  r->outs = {o};
  L.emit(r);
  return lv(o);
}

// Host: the lengths of a compacted array's segments from its segment ids.
ExpP countsBySegment(Lowerer &L, const NestCtx &c, const ExpP &segIds) {
  auto h = std::make_shared<Hist>();
  h->bins = c.width;
  h->n = shapeExp(segIds, 0);
  h->index = L.newVar("i", L1());
  h->body.results = {toLong(readExp(segIds, {lv(h->index)})), constLong(1)};
  h->op = addLong(L);
  h->ne = {constLong(0)};
  int o = L.newVar("lens", arrayT(ScalarKind::Long, 1));
  h->outs = {o};
  L.emit(h);
  return varExp(L.mod, o);
}

std::vector<ExpP> newCols(Lowerer &L, const std::vector<ScalarKind> &ks, const std::string &name, std::vector<int> &outs) {
  std::vector<ExpP> cols;
  for (auto k : ks) {
    int o = L.newVar(name, arrayT(k, 1));
    outs.push_back(o);
    cols.push_back(varExp(L.mod, o));
  }
  return cols;
}

std::vector<ScalarKind> kindsOf(const TypeP &arrayType) {
  std::vector<ScalarKind> ks;
  typeLeaves(elemTypeOf(arrayType), ks);
  return ks;
}

// The body's view of its segment: an index function over the flat data.
Val segValue(Lowerer &L, const NestCtx &c, const Segs &s) {
  ExpP k = flatHere(L, c);
  ExpP off = L.bindScalar("off", readExp(s.offs, {k}));
  ExpP len = L.bindScalar("len", readExp(s.lens, {k}));
  Val arr = L.arrayFromVars(s.type, s.data);
  Val d;
  d.kind = Val::Delayed;
  d.type = s.type;
  d.dims = {len};
  Lowerer *Lp = &L;
  d.fetch = [Lp, arr, off](const std::vector<ExpP> &i) { return Lp->elementAt(arr, {addL(off, i[0])}); };
  return d;
}

// A fold of a Seq that touches every element's leaves (for analysis).
std::vector<ExpP> probeFold(Lowerer &L, const Val &v, const Span &at) {
  std::vector<ScalarKind> ks = kindsOf(v.type);
  std::vector<ExpP> init{constLong(0)};
  for (auto k : ks) init.push_back(constZero(k));
  return L.foldSeq(v, init, [&](const std::vector<ExpP> &acc, const Val &item) {
    std::vector<ExpP> r{addL(acc[0], constLong(1))};
    auto ls = L.leaves(item, at);
    r.insert(r.end(), ls.begin(), ls.end());
    return r;
  }, at);
}

// Generators covering what building segments of xs evaluates.
std::vector<Gen> segGens(Lowerer &L, const Val &xs, const Span &at) {
  if (xs.kind == Val::Seq) return {[&L, xs, at](const ExpP &, const ExpP &) { return probeFold(L, xs, at); }};
  return {[&L, xs, at](const ExpP &, const ExpP &j) {
    std::vector<ExpP> r{L.extent(xs, 0, at)};
    auto ls = L.leaves(L.elementAt(xs, {j}), at);
    r.insert(r.end(), ls.begin(), ls.end());
    return r;
  }};
}

// ---- building segments (host statements; c analysed, inside a HostScope)

// An indexable array per element: an expand over the segments.
Segs buildIndexableSegs(Lowerer &L, const NestCtx &c, const Val &xs, const Span &at) {
  auto ks = kindsOf(xs.type);
  provideContext(L, c, {[&](const ExpP &, const ExpP &j) { return L.leaves(L.elementAt(xs, {j}), at); }});
  auto lens = perSegment(L, c, "lens", [&](const ExpP &, const ExpP &) { return std::vector<ExpP>{L.extent(xs, 0, at)}; });
  auto x = std::make_shared<Expand>();
  x->n = c.width;
  x->index = L.newVar("s", L1());
  x->inner = L.newVar("j", L1());
  ExpP s = lv(x->index), j = lv(x->inner);
  x->size = L.subBlock(true, [&] { return std::vector<ExpP>{readExp(lens, {s})}; });
  x->body = L.subBlock(true, [&] {
    auto r = replayAt(L, c, s, {x->index, x->inner}, [&] { return L.leaves(L.elementAt(xs, {j}), at); }, true);
    r.push_back(convertExp(s, ScalarKind::Int));
    return r;
  });
  Segs g;
  g.type = arrc::Type::array(elemTypeOf(xs.type), 1);
  std::vector<ScalarKind> all = ks;
  all.push_back(ScalarKind::Int);
  auto cols = newCols(L, all, "flat", x->outs);
  g.segIds = cols.back();
  cols.pop_back();
  g.data = cols;
  L.emit(x);
  g.lens = lens;
  g.offs = exclusiveScan(L, lens, c.width);
  g.total = L.bindScalar("total", shapeExp(g.segIds, 0));
  return g;
}

// A filter of an indexable array per element: an expand whose elements carry
// the keep flag, a filter, and the kept counts per segment.
Segs buildFilterSegs(Lowerer &L, const NestCtx &c, const Val &p, const Val &src, const TypeP &t, const Span &at) {
  auto ks = kindsOf(t);
  auto elem = [&](const ExpP &j) {
    Val item = L.elementAt(src, {j});
    std::vector<ExpP> out{L.apply(p, {item}, at).e};
    auto ls = L.leaves(item, at);
    out.insert(out.end(), ls.begin(), ls.end());
    return out;
  };
  provideContext(L, c, {[&](const ExpP &, const ExpP &j) { return elem(j); }});
  auto x = std::make_shared<Expand>();
  x->n = c.width;
  x->index = L.newVar("s", L1());
  x->inner = L.newVar("j", L1());
  ExpP s = lv(x->index), j = lv(x->inner);
  x->size = L.subBlock(true, [&] {
    return replayAt(L, c, s, {x->index}, [&] { return std::vector<ExpP>{L.extent(src, 0, at)}; });
  });
  x->body = L.subBlock(true, [&] {
    auto r = replayAt(L, c, s, {x->index, x->inner}, [&] { return elem(j); }, true);
    r.push_back(convertExp(s, ScalarKind::Int));
    return r;
  });
  std::vector<ScalarKind> all{ScalarKind::Bool};
  all.insert(all.end(), ks.begin(), ks.end());
  all.push_back(ScalarKind::Int);
  auto cols = newCols(L, all, "cand", x->outs);
  L.emit(x);
  auto f = std::make_shared<Filter>();
  f->n = shapeExp(cols[0], 0);
  f->index = L.newVar("i", L1());
  ExpP iv = lv(f->index);
  for (auto &col : cols) f->body.results.push_back(readExp(col, {iv}));
  std::vector<ScalarKind> kept(all.begin() + 1, all.end());
  auto outs = newCols(L, kept, "kept", f->outs);
  L.emit(f);
  Segs g;
  g.type = t;
  g.segIds = outs.back();
  outs.pop_back();
  g.data = outs;
  g.lens = countsBySegment(L, c, g.segIds);
  g.offs = exclusiveScan(L, g.lens, c.width);
  g.total = L.bindScalar("total", shapeExp(g.segIds, 0));
  return g;
}

// Any Seq per element: count, exclusive scan, fill (each element folds its
// own segment sequentially, into storage sized by the count pass).
Segs buildSeqSegs(Lowerer &L, const NestCtx &c, const Val &v, const Span &at) {
  if (v.seq && v.seq->filterPred && v.seq->filterSrc)
    return buildFilterSegs(L, c, *v.seq->filterPred, *v.seq->filterSrc, v.type, at);
  auto ks = kindsOf(v.type);
  Segs g;
  g.type = v.type;
  g.lens = perSegment(L, c, "lens", [&](const ExpP &, const ExpP &) { return std::vector<ExpP>{L.length(v, at)}; });
  g.offs = exclusiveScan(L, g.lens, c.width);
  g.total = totalOf(L, g.lens, c.width);
  std::vector<ScalarKind> all = ks;
  all.push_back(ScalarKind::Int);
  std::vector<ExpP> cols;
  for (auto k : all) {
    auto al = std::make_shared<Alloc>();
    al->dims = {g.total};
    int o = L.newVar("flat", arrayT(k, 1));
    al->outs = {o};
    L.emit(al);
    cols.push_back(varExp(L.mod, o));
  }
  auto fill = std::make_shared<Map>();
  fill->dims = {c.width};
  fill->index = {L.newVar("s", L1())};
  ExpP s = lv(fill->index[0]);
  fill->body = L.bodyBlock(fill->dims, fill->index, [&] {
    replayAt(L, c, s, {fill->index[0]}, [&] {
      L.foldSeq(v, {readExp(g.offs, {s})}, [&](const std::vector<ExpP> &acc, const Val &item) {
        auto ls = L.leaves(item, at);
        ls.push_back(convertExp(s, ScalarKind::Int));
        for (size_t k = 0; k < cols.size(); ++k) {
          auto w = std::make_shared<Write>();
          w->array = cols[k]->var;
          w->indices = {acc[0]};
          w->value = ls.at(k);
          L.emit(w);
        }
        return std::vector<ExpP>{addL(acc[0], constLong(1))};
      }, at);
      return std::vector<ExpP>{};
    });
    return std::vector<ExpP>{};
  });
  L.emit(fill);
  g.segIds = cols.back();
  cols.pop_back();
  g.data = cols;
  return g;
}

Segs buildSegs(Lowerer &L, const NestCtx &c, const Val &xs, const Span &at) {
  if (xs.kind == Val::Seq) return buildSeqSegs(L, c, xs, at);
  return buildIndexableSegs(L, c, xs, at);
}

// The cost rule: sequentialise small known inner sizes and outer widths that
// fill the device on their own; flatten otherwise.
bool chooseFlatten(Lowerer &L, const NestCtx &c, const ExpP &innerSize, std::string &why) {
  if (L.options.nested == LowerOptions::Nested::Flatten) {
    why = "forced by --nested=flatten or ARRC_NESTED";
    return true;
  }
  if (L.options.nested == LowerOptions::Nested::Sequential) {
    why = "forced by --nested=sequential or ARRC_NESTED";
    return false;
  }
  int64_t n;
  if (innerSize && constValue(innerSize, n) && n <= kSmallInner) {
    why = "inner size " + std::to_string(n) + " <= " + std::to_string(kSmallInner);
    return false;
  }
  ExpP w = constLong(1);
  for (int u : c.used) w = mulL(w, c.chain[0].dims[u]);
  if (constValue(w, n) && n >= kDeviceParallelism) {
    why = "outer width " + std::to_string(n) + " >= device parallelism " + std::to_string(kDeviceParallelism);
    return false;
  }
  why = std::string(constValue(w, n) ? "outer width " + std::to_string(n) : std::string("outer width unknown")) + " < " +
        std::to_string(kDeviceParallelism) + ", inner size " +
        (innerSize && constValue(innerSize, n) ? std::to_string(n) : std::string("unknown")) + " > " +
        std::to_string(kSmallInner);
  return true;
}

// A scalar function (an operator) as a host Lambda, when it uses only host values.
bool hostLambda(Lowerer &L, NestCtx &c, const Val &f, const TypeP &t, const Span &at, Lambda &out) {
  Lowerer::NoHoist nh(L);
  Block *savedCur = L.cur;
  bool savedDev = L.device;
  Block scratch;
  Frame fr;
  fr.kind = Frame::Host;
  fr.block = &scratch;
  fr.id = ++L.frameCounter;
  L.frames.push_back(fr);
  L.cur = &scratch;
  L.device = false;
  bool ok = true;
  try {
    out = L.opLambda(f, t, at);
  } catch (const LowerError &) {
    ok = false;
  }
  L.frames.pop_back();
  L.cur = savedCur;
  L.device = savedDev;
  if (!ok || !scratch.stmts.empty()) return false;
  std::set<int> fv = freeVarsOf(out.body);
  for (int p : out.params) fv.erase(p);
  for (int v : fv)
    if (!hostValid(L, c, v)) return false;
  return true;
}

bool hostExps(Lowerer &L, NestCtx &c, const std::vector<ExpP> &es) {
  std::set<int> vs;
  for (auto &e : es) expVars(e, vs);
  for (int v : vs)
    if (!hostValid(L, c, v)) return false;
  return true;
}

std::string whatAt(Lowerer &L, const std::string &what, const Span &at) { return what + " " + locString(L.sources, at); }

void noteSequential(Lowerer &L, const std::string &what, const Span &at, const std::string &why) {
  auto s = std::make_shared<Let>();
  int v = L.newVar("nested", scalarT(ScalarKind::Bool));
  s->outs = {v};
  s->value = constBool(true);
  s->note = "nested " + whatAt(L, what, at) + ": sequentialised (" + why + ")";
  s->span = at;
  L.emit(s);
}

std::string flatNote(Lowerer &L, const NestCtx &c, const std::string &what, const Span &at, const std::string &why) {
  std::string where = c.chain[0].where.empty() ? std::string("a parallel body") : c.chain[0].where;
  return "nested " + whatAt(L, what, at) + " in " + where + ": flattened into segments (" + why + ")";
}

bool frameOpen(const Lowerer &L, int id) {
  for (auto &f : L.frames)
    if (f.id == id) return true;
  return false;
}

// The k-th element of a Seq (a sequential index function: a fold that keeps
// the element whose position is k), and its length (a counting fold).
Val kthSelect(Lowerer &L, const Val &v, const Span &at) {
  Val d;
  d.kind = Val::Delayed;
  d.type = v.type;
  d.dims = {L.bindScalar("n", L.length(v, at))};
  Lowerer *Lp = &L;
  TypeP et = elemTypeOf(v.type);
  // without its memo (v.seq->flat keeps the result: a cycle of shared_ptrs)
  Val src = v;
  src.seq.reset();
  d.fetch = [Lp, v = std::move(src), at, et](const std::vector<ExpP> &k) {
    Lowerer &L = *Lp;
    std::vector<ExpP> init{constLong(0)};
    auto dl = L.leaves(L.defaultOf(et), at);
    init.insert(init.end(), dl.begin(), dl.end());
    auto r = L.foldSeq(v, init, [&](const std::vector<ExpP> &acc, const Val &item) {
      ExpP hit = L.bindScalar("hit", binaryExp(BinOp::Eq, acc[0], k[0]));
      std::vector<ExpP> out{addL(acc[0], constLong(1))};
      auto ls = L.leaves(item, at);
      for (size_t q = 0; q < ls.size(); ++q) out.push_back(selectExp(hit, L.bindScalar("x", ls[q]), acc[q + 1]));
      return out;
    }, at);
    r.erase(r.begin());
    size_t pos = 0;
    return L.rebuild(et, r, pos);
  };
  return d;
}
} // namespace

void Lowerer::tagSeq(Val &v, const std::string &what, const Span &at, ExpP bound) {
  if (v.kind != Val::Seq) return;
  auto info = std::make_shared<SeqInfo>();
  info->what = what;
  info->at = at;
  info->bound = bound;
  info->frame = frames.empty() ? 0 : frames.back().id;
  v.seq = info;
}

namespace {
// Lowering at an enclosing frame of the same body (the frame a Seq was made
// in): statements go to the end of its block, which is before the statement
// being built in the frames above it.
struct AtFrame {
  Lowerer &L;
  std::vector<Frame> saved;
  Block *savedCur;
  AtFrame(Lowerer &l, size_t k) : L(l), saved(l.frames), savedCur(l.cur) {
    L.frames.resize(k + 1);
    L.cur = L.frames[k].block;
  }
  ~AtFrame() {
    L.frames = saved;
    L.cur = savedCur;
  }
};

// The open frame of id `id` if only branches and loops of the same body lie
// between it and here; -1 otherwise.
int homeFrame(const Lowerer &L, int id) {
  for (int k = int(L.frames.size()) - 1; k >= 0; --k) {
    if (L.frames[k].id == id) return L.frames[k].kind == Frame::Host ? -1 : k;
    if (L.frames[k].kind == Frame::Host || L.frames[k].kind == Frame::Top) return -1;
  }
  return -1;
}
} // namespace

Val Lowerer::indexable(const Val &v, const Span &at) {
  if (v.kind != Val::Seq) return v;
  if (!device) error(at, "internal: an irregular sequence outside a parallel body");
  if (v.seq)
    for (auto &f : v.seq->flat)
      if (frameOpen(*this, f.first)) return *f.second;
  // Made where the Seq was made (when that frame is open in the same body):
  // once for all its uses, in any branch. Not from inside a probe into a
  // frame outside it: the probe's statements would stay in the real body
  // (a `length(drop(...))` probed in a comprehension's head had left Lets
  // reading arrays the probe never kept).
  int home = v.seq ? homeFrame(*this, v.seq->frame) : -1;
  if (noHoist && home >= 0 && size_t(home) < probeFloor) home = -1;
  std::unique_ptr<AtFrame> at0;
  if (home >= 0 && home + 1 < int(frames.size())) at0 = std::make_unique<AtFrame>(*this, size_t(home));
  std::string what = v.seq ? v.seq->what : std::string("irregular array");
  Span wat = v.seq && v.seq->at.valid() ? v.seq->at : at;
  NestCtx c;
  std::string why;
  Val r;
  if (v.seq && v.seq->scanSrc) {
    // A scan: a segmented scan when flattened, else element k is a fold.
    if (!flattenScan(*v.seq->scanOp, *v.seq->scanNe, *v.seq->scanSrc, wat, r)) r = kthSelect(*this, v, at);
    if (!liftProbe && !noHoist) v.seq->flat.push_back({frames.back().id, std::make_shared<Val>(r)});
    return r;
  }
  bool flat = options.nested != LowerOptions::Nested::Sequential && captureCtx(*this, c, why) &&
              analyse(*this, c, segGens(*this, v, at), why) && chooseFlatten(*this, c, v.seq ? v.seq->bound : nullptr, why);
  if (options.nested == LowerOptions::Nested::Sequential) why = "forced by --nested=sequential or ARRC_NESTED";
  if (flat) {
    try {
      Segs g;
      {
        HostScope hs(*this, c, flatNote(*this, c, what, wat, why));
        g = buildSeqSegs(*this, c, v, at);
        hs.commit();
      }
      r = segValue(*this, c, g);
    } catch (const NotReplayable &e) {
      flat = false;
      why = e.why;
    }
  }
  if (!flat) {
    noteSequential(*this, what, wat, why + "; element k found by a fold");
    r = kthSelect(*this, v, at);
  }
  if (v.seq && !liftProbe && !noHoist) v.seq->flat.push_back({frames.back().id, std::make_shared<Val>(r)});
  return r;
}

namespace {
// Zip of two indexable arrays in a body, for flattening: its extent carries
// the guard of equal sizes as an expression (evaluated where the extent is:
// in the flattened SOACs; the sequential forms guard on their own).
Val zipPair(Lowerer &L, const Val &a, const Val &b, const Span &at) {
  ExpP na = L.extent(a, 0, at), nb = L.extent(b, 0, at);
  ExpP g;
  {
    Lowerer::NoHoist nh(L);
    g = L.deviceGuard(binaryExp(BinOp::Eq, na, nb), L.position(at), Check::ZipSize, {na, nb});
  }
  ExpP n = addL(na, g);
  TypeP ta = elemTypeOf(a.type), tb = elemTypeOf(b.type);
  TypeP et = arrc::Type::tuple({ta, tb});
  Val d;
  d.kind = Val::Delayed;
  d.type = arrc::Type::array(et, 1);
  d.dims = {n};
  Lowerer *Lp = &L;
  d.fetch = [Lp, a, b, et](const std::vector<ExpP> &j) {
    return Val::tuple({Lp->elementAt(a, j), Lp->elementAt(b, j)}, et);
  };
  return d;
}

// Sorts flat columns stably by `keys`: returns the permuted `values` (and the
// sorted keys in *sortedKeys).
std::vector<ExpP> sortColumns(Lowerer &L, const ExpP &keys, const std::vector<ExpP> &values, ExpP *sortedKeys = nullptr) {
  auto s = std::make_shared<Sort>();
  s->keys = keys;
  s->values = values;
  int ko = L.newVar("skey", keys->type);
  s->outs.push_back(ko);
  std::vector<ExpP> out;
  for (auto &v : values) {
    int o = L.newVar("sorted", v->type);
    s->outs.push_back(o);
    out.push_back(varExp(L.mod, o));
  }
  L.emit(s);
  if (sortedKeys) *sortedKeys = varExp(L.mod, ko);
  return out;
}

// True at the first element of each segment (flat index i).
ExpP segStart(const ExpP &segIds, const ExpP &i) {
  ExpP prev = selectExp(binaryExp(BinOp::Gt, i, constLong(0)), subL(i, constLong(1)), constLong(0));
  return binaryExp(BinOp::Or, binaryExp(BinOp::Eq, i, constLong(0)),
                   binaryExp(BinOp::Ne, readExp(segIds, {i}), readExp(segIds, {prev})));
}

// Decides and prepares flattening: ctx captured, generators analysed, the
// cost rule applied. False (with why) for the sequential form.
bool planFlatten(Lowerer &L, NestCtx &c, const std::vector<Gen> &gens, const ExpP &inner, std::string &why) {
  if (L.options.nested == LowerOptions::Nested::Sequential) {
    why = "forced by --nested=sequential or ARRC_NESTED";
    return false;
  }
  return captureCtx(L, c, why) && analyse(L, c, gens, why) && chooseFlatten(L, c, inner, why);
}

ExpP innerSizeOf(Lowerer &L, const Val &xs, const Span &at) {
  if (xs.kind == Val::Seq) return xs.seq ? xs.seq->bound : nullptr;
  return L.extent(xs, 0, at);
}
} // namespace

bool Lowerer::flattenSort(const Val *keyFn, const Val &xs, const Span &at, Val &out) {
  std::string what = keyFn ? "sort_by" : "sort";
  NestCtx c;
  std::string why;
  auto gens = segGens(*this, xs, at);
  TypeP et = elemTypeOf(xs.type);
  if (keyFn) {
    Val f = *keyFn;
    gens.push_back([this, f, et, at](const ExpP &, const ExpP &) { return leaves(apply(f, {defaultOf(et)}, at), at); });
  }
  if (planFlatten(*this, c, gens, innerSizeOf(*this, xs, at), why)) {
    try {
      Segs g;
      {
        HostScope hs(*this, c, flatNote(*this, c, what, at, why + "; a stable sort by key, then by segment"));
        g = buildSegs(*this, c, xs, at);
        ExpP keys;
        if (keyFn) {
          Val f = *keyFn;
          provideContext(*this, c, {[this, f, et, at](const ExpP &, const ExpP &) {
            return leaves(apply(f, {defaultOf(et)}, at), at);
          }});
          auto m = std::make_shared<Map>();
          m->dims = {g.total};
          m->index = {newVar("k", L1())};
          ExpP k = lv(m->index[0]);
          Val flatArr = arrayFromVars(g.type, g.data);
          m->body = bodyBlock(m->dims, m->index, [&] {
            ExpP s = bindScalar("s", toLong(readExp(g.segIds, {k})));
            return replayAt(*this, c, s, {m->index[0]}, [&] {
              return std::vector<ExpP>{leaves(apply(*keyFn, {elementAt(flatArr, {k})}, at), at).at(0)};
            }, true);
          });
          int o = newVar("keys", arrayT(m->body.results.at(0)->type.elem, 1));
          m->outs = {o};
          emit(m);
          keys = varExp(mod, o);
        } else {
          if (g.data.size() != 1) error(at, "sort needs an array of scalars (use sort_by)");
          keys = g.data[0];
        }
        std::vector<ExpP> vals{g.segIds};
        vals.insert(vals.end(), g.data.begin(), g.data.end());
        auto byKey = sortColumns(*this, keys, vals);
        auto bySeg = sortColumns(*this, byKey[0], std::vector<ExpP>(byKey.begin() + 1, byKey.end()));
        g.data = bySeg;
        hs.commit();
      }
      out = segValue(*this, c, g);
      return true;
    } catch (const NotReplayable &e) {
      why = e.why;
    }
  }
  noteSequential(*this, what, at, why + "; element k is the one of stable rank k");
  return false;
}

bool Lowerer::flattenScan(const Val &op, const Val &ne, const Val &xs, const Span &at, Val &out) {
  NestCtx c;
  std::string why;
  TypeP et = elemTypeOf(xs.type);
  if (planFlatten(*this, c, segGens(*this, xs, at), innerSizeOf(*this, xs, at), why)) {
    Lambda l;
    std::vector<ExpP> nel = leaves(ne, at);
    if (!hostLambda(*this, c, op, et, at, l) || !hostExps(*this, c, nel)) {
      why = "its operator or neutral element depends on the element";
    } else {
      try {
        Segs g;
        {
          HostScope hs(*this, c, flatNote(*this, c, "scan", at, why + "; a segmented scan"));
          g = buildSegs(*this, c, xs, at);
          auto sc = std::make_shared<SegScan>();
          sc->n = g.total;
          sc->index = newVar("i", L1());
          ExpP i = lv(sc->index);
          sc->body.results = {segStart(g.segIds, i)};
          for (auto &d : g.data) sc->body.results.push_back(readExp(d, {i}));
          sc->op = l;
          sc->ne = nel;
          g.data = newCols(*this, kindsOf(xs.type), "scan", sc->outs);
          emit(sc);
          hs.commit();
        }
        out = segValue(*this, c, g);
        return true;
      } catch (const NotReplayable &e) {
        why = e.why;
      }
    }
  }
  noteSequential(*this, "scan", at, why + "; element k is a fold carrying the running prefix");
  return false;
}

// The runs of a flattened reduce_by_key (its keys, segment ids and values):
// the histogram plan (LowerGroupByHist.cpp) over every segment's bins side
// by side, as the top-level one, else sortPlan. k-means' sums per column
// written with reduce_by_key, 20 columns of 10^6 points into 10 centres
// (docs/lowering.md). build() makes the flat (key, values..., segment id)
// columns: each use makes its own, which fusion then puts into its one
// consumer (the range's reduce, the histograms: read where they are used,
// P's column walked along its rows by HistOrder), where one materialised
// copy shared by both plans was walked column by column (PoCL 400 ms of
// the 404). invariantKeys: the keys when every segment has the same ones (an
// array outside the nest, as k-means' `ids` against each column of P):
// their range is taken over that array alone, not over every segment's copy
// (PoCL, 20 columns of 10^6: 28 ms a call to 1.5).
static std::vector<ExpP> histPlan(Lowerer &L, const std::function<Segs()> &build, const Lambda &op,
                                  const std::vector<ExpP> &ne, const std::vector<ScalarKind> &vks,
                                  const NestCtx &c, const Span &at,
                                  const std::function<std::vector<ExpP>()> &sortPlan, const Val *invariantKeys) {
  Segs g = build();
  const ScalarKind kk = g.data[0]->type.elem;
  if (!L.groupsByHist(kk, op, vks)) return sortPlan();
  auto cols = [&] {
    Segs s = build();
    Lowerer::GroupCols gc;
    gc.n = s.total;
    gc.key = [s](const ExpP &i) { return readExp(s.data[0], {i}); };
    gc.seg = [s](const ExpP &i) { return readExp(s.segIds, {i}); };
    gc.values = [s](const ExpP &i) {
      std::vector<ExpP> v;
      for (size_t k = 1; k < s.data.size(); ++k) v.push_back(readExp(s.data[k], {i}));
      return v;
    };
    return gc;
  };
  auto range = [&] {
    if (!invariantKeys) return cols();
    Lowerer::GroupCols gc;
    gc.n = toLong(L.extent(*invariantKeys, 0, at));
    gc.key = [&L, invariantKeys, at](const ExpP &i) { return L.leaves(L.elementAt(*invariantKeys, {i}), at).at(0); };
    return gc;
  };
  return L.groupByHist(range, cols, g.total, c.width, kk, op, ne, vks, sortPlan, at);
}

bool Lowerer::flattenReduceByKey(const Val &op, const Val &ne, const Val &keys0, const Val &vs0, const Span &at,
                                 const TypeP &rt, Val &out) {
  NestCtx c;
  std::string why;
  Val keys = indexable(keys0, at), vs = indexable(vs0, at);
  Val kv = zipPair(*this, keys, vs, at);
  TypeP et = elemTypeOf(vs.type);
  if (planFlatten(*this, c, segGens(*this, kv, at), innerSizeOf(*this, keys, at), why)) {
    Lambda l;
    std::vector<ExpP> nel = leaves(ne, at);
    if (!hostLambda(*this, c, op, et, at, l) || !hostExps(*this, c, nel)) {
      why = "its operator or neutral element depends on the element";
    } else {
      try {
        Segs gk, gv;
        {
          HostScope hs(*this, c, flatNote(*this, c, "reduce_by_key", at, why +
                                          "; a stable sort by (segment, key), then a segmented reduction of each run"));
          auto build = [&] { return buildIndexableSegs(*this, c, kv, at); };
          // (keys, segment ids, values...) of every segment's runs
          auto sortPlan = [&]() -> std::vector<ExpP> {
            Segs g = build();
            std::vector<ExpP> vals{g.segIds};
            vals.insert(vals.end(), g.data.begin() + 1, g.data.end());
            ExpP sortedKeys, seg2;
            auto byKey = sortColumns(*this, g.data[0], vals, &sortedKeys); // (seg, v...) in key order
            std::vector<ExpP> rest{sortedKeys};
            rest.insert(rest.end(), byKey.begin() + 1, byKey.end());
            auto bySeg = sortColumns(*this, byKey[0], rest, &seg2);         // (key, v...) by (segment, key)
            ExpP key2 = bySeg[0];
            std::vector<ExpP> v2(bySeg.begin() + 1, bySeg.end());
            auto runStart = [&](const ExpP &i) {
              ExpP prev = selectExp(binaryExp(BinOp::Gt, i, constLong(0)), subL(i, constLong(1)), constLong(0));
              return binaryExp(BinOp::Or, segStart(seg2, i), binaryExp(BinOp::Ne, readExp(key2, {i}), readExp(key2, {prev})));
            };
            auto sr = std::make_shared<SegReduce>();
            sr->n = g.total;
            sr->index = newVar("i", L1());
            ExpP i = lv(sr->index);
            sr->body.results = {runStart(i)};
            for (auto &d : v2) sr->body.results.push_back(readExp(d, {i}));
            sr->op = l;
            sr->ne = nel;
            auto rv = newCols(*this, kindsOf(vs.type), "vals", sr->outs);
            emit(sr);
            auto f = std::make_shared<Filter>();
            f->n = g.total;
            f->index = newVar("i", L1());
            ExpP fi = lv(f->index);
            f->body.results = {runStart(fi), readExp(key2, {fi}), readExp(seg2, {fi})};
            auto rk = newCols(*this, {key2->type.elem, ScalarKind::Int}, "rkey", f->outs);
            emit(f);
            std::vector<ExpP> r{rk[0], rk[1]};
            r.insert(r.end(), rv.begin(), rv.end());
            return r;
          };
          // keys the same in every segment (an array from outside the nest)
          bool same = keys.kind == Val::Array && keys.rank() == 1 && hostExps(*this, c, keys.arrs);
          std::vector<ExpP> r = histPlan(*this, build, l, nel, kindsOf(vs.type), c, at, sortPlan, same ? &keys : nullptr);
          std::vector<ExpP> rv(r.begin() + 2, r.end());
          gk.type = keys.type;
          gk.data = {r[0]};
          gk.segIds = r[1];
          gk.lens = countsBySegment(*this, c, gk.segIds);
          gk.offs = exclusiveScan(*this, gk.lens, c.width);
          gk.total = bindScalar("total", shapeExp(gk.segIds, 0));
          gv = gk;
          gv.type = vs.type;
          gv.data = rv;
          hs.commit();
        }
        TypeP t = rt ? rt : arrc::Type::tuple({keys.type, vs.type});
        out = Val::tuple({segValue(*this, c, gk), segValue(*this, c, gv)}, t);
        return true;
      } catch (const NotReplayable &e) {
        why = e.why;
      }
    }
  }
  noteSequential(*this, "reduce_by_key", at, why + "; key k is the k-th smallest distinct key, its value a fold");
  return false;
}

bool Lowerer::flattenHist(const Val &op, const Val &ne, const Val &bins, const Val &is0, const Val &vs0, const Span &at,
                          const TypeP &rt, Val &out) {
  NestCtx c;
  std::string why;
  if (bins.kind != Val::Scalar) error(at, "hist: the number of bins must be a scalar");
  Val is = indexable(is0, at), vs = indexable(vs0, at);
  Val iv = zipPair(*this, is, vs, at);
  TypeP et = elemTypeOf(vs.type);
  ExpP nb = bins.e;
  auto gens = segGens(*this, iv, at);
  gens.push_back([nb](const ExpP &, const ExpP &) { return std::vector<ExpP>{nb}; });
  if (planFlatten(*this, c, gens, innerSizeOf(*this, is, at), why)) {
    Lambda l;
    std::vector<ExpP> nel = leaves(ne, at);
    if (!hostLambda(*this, c, op, et, at, l) || !hostExps(*this, c, nel)) {
      why = "its operator or neutral element depends on the element";
    } else {
      try {
        Segs g;
        {
          HostScope hs(*this, c, flatNote(*this, c, "hist", at, why + "; one histogram over every segment's bins"));
          g.lens = perSegment(*this, c, "bins", [&](const ExpP &, const ExpP &) {
            return std::vector<ExpP>{maxL(toLong(nb), constLong(0))};
          });
          g.offs = exclusiveScan(*this, g.lens, c.width);
          g.total = totalOf(*this, g.lens, c.width);
          Segs e = buildIndexableSegs(*this, c, iv, at);
          auto h = std::make_shared<Hist>();
          h->bins = g.total;
          h->n = e.total;
          h->index = newVar("i", L1());
          ExpP i = lv(h->index);
          h->body = subBlock(true, [&] {
            ExpP b = bindScalar("b", toLong(readExp(e.data[0], {i})));
            ExpP s = bindScalar("s", toLong(readExp(e.segIds, {i})));
            ExpP ok = binaryExp(BinOp::And, binaryExp(BinOp::Ge, b, constLong(0)), binaryExp(BinOp::Lt, b, readExp(g.lens, {s})));
            std::vector<ExpP> r{selectExp(ok, addL(readExp(g.offs, {s}), b), constLong(-1))};
            for (size_t k = 1; k < e.data.size(); ++k) r.push_back(readExp(e.data[k], {i}));
            return r;
          });
          h->op = l;
          h->ne = nel;
          g.data = newCols(*this, kindsOf(vs.type), "hist", h->outs);
          emit(h);
          g.type = rt ? rt : vs.type;
          hs.commit();
        }
        out = segValue(*this, c, g);
        return true;
      } catch (const NotReplayable &e) {
        why = e.why;
      }
    }
  }
  noteSequential(*this, "hist", at, why + "; bin b is a fold of its values");
  return false;
}

namespace {
// for j < n: acc = f(j, acc), sequentially (device code).
std::vector<ExpP> forLoop(Lowerer &L, const ExpP &n, const std::vector<ExpP> &init,
                          const std::function<std::vector<ExpP>(const ExpP &, const std::vector<ExpP> &)> &f,
                          const Span &at) {
  Val it;
  it.kind = Val::Delayed;
  it.type = arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Long), 1);
  it.dims = {n};
  it.fetch = [](const std::vector<ExpP> &i) { return Val::scalar(i[0], arrc::Type::scalarOf(ScalarKind::Long)); };
  return L.foldSeq(it, init, [&](const std::vector<ExpP> &acc, const Val &j) { return f(j.e, acc); }, at);
}
} // namespace

Val Lowerer::seqReduceByKey(const Val &op, const Val &ne, const Val &keys0, const Val &vs0, const Span &at,
                            const TypeP &rt) {
  Val keys = indexable(keys0, at), vs = indexable(vs0, at);
  ExpP na = extent(keys, 0, at), nv = extent(vs, 0, at);
  ExpP n = bindScalar("n", addL(na, deviceGuard(binaryExp(BinOp::Eq, na, nv), position(at), Check::ZipSize, {na, nv},
                                                  operandsOf("reduce_by_key"))));
  TypeP kt = elemTypeOf(keys.type), et = elemTypeOf(vs.type);
  auto K = [this, keys, at](const ExpP &j) { return leaves(elementAt(keys, {j}), at).at(0); };
  // The number of distinct keys: the elements whose key occurs at no earlier position.
  auto m = forLoop(*this, n, {constLong(0)}, [&](const ExpP &j, const std::vector<ExpP> &acc) {
    ExpP kj = bindScalar("kj", K(j));
    auto dup = forLoop(*this, j, {constBool(false)}, [&](const ExpP &i, const std::vector<ExpP> &d) {
      return std::vector<ExpP>{binaryExp(BinOp::Or, d[0], binaryExp(BinOp::Eq, K(i), kj))};
    }, at);
    return std::vector<ExpP>{addL(acc[0], selectExp(dup[0], constLong(0), constLong(1)))};
  }, at);
  ExpP count = bindScalar("distinct", m[0]);
  Lowerer *Lp = this;
  // Key k: k + 1 rounds, each taking the smallest key above the previous one.
  auto keyAt = [Lp, n, K, kt, at](const ExpP &k) {
    Lowerer &L = *Lp;
    ScalarKind kk = kt->scalar;
    auto r = forLoop(L, addL(k, constLong(1)), {constZero(kk)}, [&](const ExpP &t, const std::vector<ExpP> &prev) {
      auto best = forLoop(L, n, {constBool(false), constZero(kk)}, [&](const ExpP &i, const std::vector<ExpP> &b) {
        ExpP ki = L.bindScalar("ki", K(i));
        ExpP above = binaryExp(BinOp::Or, binaryExp(BinOp::Eq, t, constLong(0)), binaryExp(BinOp::Gt, ki, prev[0]));
        ExpP take = L.bindScalar("take", binaryExp(BinOp::And, above,
                                                    binaryExp(BinOp::Or, unaryExp(UnOp::Not, b[0]), binaryExp(BinOp::Lt, ki, b[1]))));
        return std::vector<ExpP>{binaryExp(BinOp::Or, b[0], take), selectExp(take, ki, b[1])};
      }, at);
      return std::vector<ExpP>{best[1]};
    }, at);
    return r[0];
  };
  OpFn f = [Lp, op, et, at](const std::vector<ExpP> &a, const std::vector<ExpP> &b) {
    size_t pa = 0, pb = 0;
    Val va = Lp->rebuild(et, a, pa), vb = Lp->rebuild(et, b, pb);
    return Lp->leaves(Lp->apply(op, {va, vb}, at, et), at);
  };
  std::vector<ExpP> nel = leaves(ne, at);
  Val dk;
  dk.kind = Val::Delayed;
  dk.type = keys.type;
  dk.dims = {count};
  dk.fetch = [Lp, keyAt, kt](const std::vector<ExpP> &k) { return Val::scalar(Lp->bindScalar("key", keyAt(k[0])), kt); };
  Val dv;
  dv.kind = Val::Delayed;
  dv.type = vs.type;
  dv.dims = {count};
  dv.fetch = [Lp, keyAt, K, n, vs, f, nel, et, at](const std::vector<ExpP> &k) {
    Lowerer &L = *Lp;
    ExpP key = L.bindScalar("key", keyAt(k[0]));
    auto r = forLoop(L, n, nel, [&](const ExpP &i, const std::vector<ExpP> &acc) {
      ExpP hit = L.bindScalar("hit", binaryExp(BinOp::Eq, K(i), key));
      auto s = std::make_shared<If>();
      s->cond = hit;
      s->thenB = L.condBlock(hit, [&] { return f(acc, L.leaves(L.elementAt(vs, {i}), at)); });
      s->elseB.results = acc;
      std::vector<ExpP> rs;
      for (auto &a : acc) {
        int o = L.newVar("u", a->type);
        s->outs.push_back(o);
        rs.push_back(varExp(o, a->type));
      }
      L.emit(s);
      return rs;
    }, at);
    size_t pos = 0;
    return L.rebuild(et, r, pos);
  };
  TypeP t = rt ? rt : arrc::Type::tuple({keys.type, vs.type});
  return Val::tuple({dk, dv}, t);
}

} // namespace arrc::lower

// ------------------------------------------------------------ loops
namespace arrc::lower {
namespace {
// A loop state component: a scalar leaf or a rank-1 array.
struct LoopComp {
  bool array = false;
  TypeP type; // an array component: rank 1 (a state array of rank r >= 2 is
              // carried flattened, row-major, followed by its r extents as
              // scalar components)
};

bool stateComps(const TypeP &t, std::vector<LoopComp> &out) {
  if (!t) return false;
  if (t->kind == arrc::Type::Tuple) {
    for (auto &e : t->elems)
      if (!stateComps(e, out)) return false;
    return true;
  }
  if (t->isArray()) {
    if (t->rank < 1) return false;
    out.push_back({true, t->rank == 1 ? t : arrc::Type::array(t->elem, 1)});
    if (t->rank > 1)
      for (int k = 0; k < t->rank; ++k) out.push_back({false, arrc::Type::scalarOf(ScalarKind::Long)});
    return true;
  }
  if (t->isScalar()) {
    out.push_back({false, t});
    return true;
  }
  return false;
}

// The components of a state value (stateComps' order): an array of rank r >= 2
// becomes its row-major flattening (an index function) and its r extents.
void valComps(Lowerer &L, const Val &v, std::vector<Val> &out, const Span &at) {
  if (v.kind == Val::Tuple) {
    for (auto &e : v.elems) valComps(L, e, out, at);
    return;
  }
  if ((v.kind == Val::Array || v.kind == Val::Delayed) && v.rank() > 1) {
    int r = v.rank();
    std::vector<ExpP> ext;
    for (int k = 0; k < r; ++k) ext.push_back(L.extent(v, k, at));
    ExpP total = constLong(1);
    for (auto &d : ext) total = mulL(total, d);
    Val d;
    d.kind = Val::Delayed;
    d.type = arrc::Type::array(v.type->elem, 1);
    d.dims = {total};
    Lowerer *Lp = &L;
    d.fetch = [Lp, v, ext](const std::vector<ExpP> &i) {
      std::vector<ExpP> idx(ext.size());
      ExpP q = toLong(i[0]);
      for (int k = int(ext.size()) - 1; k >= 0; --k) {
        if (k == 0) {
          idx[k] = q;
        } else {
          idx[k] = binaryExp(BinOp::Mod, q, toLong(ext[k]));
          q = binaryExp(BinOp::Div, q, toLong(ext[k]));
        }
      }
      return Lp->elementAt(v, idx);
    };
    out.push_back(d);
    for (auto &e : ext) out.push_back(Val::scalar(e, arrc::Type::scalarOf(ScalarKind::Long)));
    return;
  }
  out.push_back(v);
}

Val compsToVal(Lowerer &L, const TypeP &t, const std::vector<Val> &comps, size_t &pos) {
  if (t->kind == arrc::Type::Tuple) {
    std::vector<Val> es;
    for (auto &e : t->elems) es.push_back(compsToVal(L, e, comps, pos));
    return Val::tuple(es, t);
  }
  if (t->isArray() && t->rank > 1) {
    Val flat = comps.at(pos++);
    std::vector<ExpP> ext;
    for (int k = 0; k < t->rank; ++k) ext.push_back(comps.at(pos++).e);
    Val d;
    d.kind = Val::Delayed;
    d.type = t;
    d.dims = ext;
    Lowerer *Lp = &L;
    d.fetch = [Lp, flat, ext](const std::vector<ExpP> &idx) {
      ExpP f = constLong(0);
      for (size_t k = 0; k < idx.size(); ++k) f = addL(mulL(f, ext[k]), idx[k]);
      return Lp->elementAt(flat, {f});
    };
    return d;
  }
  return comps.at(pos++);
}

// Host: arrays over the segments (of the given kinds) holding gen's results.
std::vector<ExpP> perSegmentVals(Lowerer &L, const NestCtx &c, const std::vector<ScalarKind> &ks, const std::string &name,
                                 const std::function<std::vector<ExpP>()> &gen) {
  auto m = std::make_shared<Map>();
  m->dims = {c.width};
  m->index = {L.newVar("s", L1())};
  ExpP s = lv(m->index[0]);
  m->body = L.bodyBlock(m->dims, m->index, [&] {
    auto r = replayAt(L, c, s, {m->index[0]}, gen);
    for (size_t k = 0; k < r.size(); ++k) r[k] = convertExp(r[k], ks.at(k));
    return r;
  });
  auto cols = newCols(L, ks, name, m->outs);
  L.emit(m);
  return cols;
}

// Host: per segment, the new state where `act` holds, else the old one.
Segs mergeSegs(Lowerer &L, const NestCtx &c, const ExpP &act, const Segs &nw, const Segs &old) {
  Segs g;
  g.type = old.type;
  auto m = std::make_shared<Map>();
  m->dims = {c.width};
  m->index = {L.newVar("s", L1())};
  ExpP s = lv(m->index[0]);
  m->body.results = {selectExp(readExp(act, {s}), readExp(nw.lens, {s}), readExp(old.lens, {s}))};
  int lo = L.newVar("lens", arrayT(ScalarKind::Long, 1));
  m->outs = {lo};
  L.emit(m);
  g.lens = varExp(L.mod, lo);
  g.offs = exclusiveScan(L, g.lens, c.width);
  auto x = std::make_shared<Expand>();
  x->n = c.width;
  x->index = L.newVar("s", L1());
  x->inner = L.newVar("j", L1());
  ExpP xs = lv(x->index), j = lv(x->inner);
  x->size.results = {readExp(g.lens, {xs})};
  x->body = L.subBlock(true, [&] {
    auto st = std::make_shared<If>();
    st->cond = readExp(act, {xs});
    for (auto &d : nw.data) st->thenB.results.push_back(readExp(d, {addL(readExp(nw.offs, {xs}), j)}));
    for (auto &d : old.data) st->elseB.results.push_back(readExp(d, {addL(readExp(old.offs, {xs}), j)}));
    std::vector<ExpP> rs;
    for (auto &r : st->thenB.results) {
      int o = L.newVar("v", r->type);
      st->outs.push_back(o);
      rs.push_back(varExp(o, r->type));
    }
    L.emit(st);
    return rs;
  });
  std::vector<ScalarKind> ks;
  for (auto &d : old.data) ks.push_back(d->type.elem);
  g.data = newCols(L, ks, "state", x->outs);
  L.emit(x);
  return g;
}

// The host state of a lifted loop: per component, a scalar array over the
// segments, or (data leaves, offsets, lengths).
struct HostState {
  std::vector<ExpP> all; // in order: per component its arrays
  std::vector<std::vector<ExpP>> comp;
};

HostState splitState(const std::vector<LoopComp> &comps, const std::vector<ExpP> &flat) {
  HostState h;
  h.all = flat;
  size_t p = 0;
  for (auto &c : comps) {
    size_t n = c.array ? kindsOf(c.type).size() + 2 : 1;
    h.comp.push_back(std::vector<ExpP>(flat.begin() + p, flat.begin() + p + n));
    p += n;
  }
  return h;
}

Segs stateSegs(const LoopComp &c, const std::vector<ExpP> &arrs) {
  Segs g;
  g.type = c.type;
  g.data.assign(arrs.begin(), arrs.end() - 2);
  g.offs = arrs[arrs.size() - 2];
  g.lens = arrs.back();
  return g;
}

std::vector<ExpP> segsArrays(const Segs &g) {
  std::vector<ExpP> r = g.data;
  r.push_back(g.offs);
  r.push_back(g.lens);
  return r;
}
} // namespace

bool Lowerer::nestedLoop(const arrc::Loop &e, const Val &init, Val &out) {
  LiftSpec sp;
  sp.st = e.type ? e.type : init.type;
  sp.isFor = e.form == arrc::Loop::For;
  sp.span = e.span;
  sp.initSpan = e.init->span;
  sp.bodySpan = e.body->span;
  if (sp.isFor)
    sp.bound = [this, &e] {
      Val b = lower(e.bound);
      if (b.kind != Val::Scalar) error(e.bound->span, "unsupported loop bound");
      return b;
    };
  sp.bindState = [this, &e](const Val &state, const ExpP &t, const Val &bound) {
    bindPattern(e.pattern, state, false);
    if (t && !e.indexName.empty()) bind(e.indexName, Val::scalar(convertExp(t, bound.e->type.elem), e.bound->type));
  };
  sp.body = [this, &e] { return lower(e.body); };
  if (!sp.isFor) sp.cond = [this, &e] { return lower(e.cond).e; };
  std::vector<LoopComp> cs;
  bool anyArray = false;
  if (stateComps(sp.st, cs))
    for (auto &c : cs) anyArray = anyArray || c.array;
  if (!anyArray) sp.why = "a loop in its body must be lifted and reads its state, so it runs once for all elements too";
  return liftLoop(sp, init, out);
}

// Inside an enclosing lifted loop's probe (its context columns are not made
// yet): the loop's code lowered once for what it reads (into probeDiscard),
// its result a placeholder of the state's type.
static Val probeOnlyLoop(Lowerer &L, const Lowerer::LiftSpec &e, const std::vector<LoopComp> &comps,
                         const std::vector<Val> &initComps) {
  Lowerer::NoHoist nh(L);
  auto placeholder = [&] {
    std::vector<Val> sv;
    for (auto &c : comps) {
      if (!c.array) {
        sv.push_back(Val::scalar(L.bindScalar("s", varExp(L.newVar("p", scalarT(c.type->scalar)), scalarT(c.type->scalar))), c.type));
        continue;
      }
      std::vector<ScalarKind> ks = kindsOf(c.type);
      std::vector<ExpP> ls;
      for (auto k : ks) ls.push_back(varExp(L.newVar("p", scalarT(k)), scalarT(k)));
      Val d;
      d.kind = Val::Delayed;
      d.type = c.type;
      d.dims = {lv(L.newVar("n", L1()))};
      Lowerer *Lp = &L;
      TypeP et = c.type->elem;
      d.fetch = [Lp, ls, et](const std::vector<ExpP> &) {
        size_t p = 0;
        return Lp->rebuild(et, ls, p);
      };
      sv.push_back(d);
    }
    size_t pos = 0;
    return compsToVal(L, e.st, sv, pos);
  };
  int j = L.newVar("j", L1());
  auto touch = [&](const std::vector<Val> &vs, const Span &at, std::vector<ExpP> &r) {
    for (auto &v : vs) {
      if (v.kind == Val::Scalar) {
        r.push_back(v.e);
        continue;
      }
      if (v.kind == Val::Seq) {
        auto f = probeFold(L, v, at);
        r.insert(r.end(), f.begin(), f.end());
        continue;
      }
      r.push_back(L.extent(v, 0, at));
      auto ls = L.leaves(L.elementAt(v, {lv(j)}), at);
      r.insert(r.end(), ls.begin(), ls.end());
    }
  };
  Block b = L.subBlock(true, [&] {
    std::vector<ExpP> r;
    touch(initComps, e.initSpan, r);
    Val bound;
    if (e.isFor) {
      bound = e.bound();
      r.push_back(bound.e);
    }
    e.bindState(placeholder(), e.isFor ? lv(L.newVar("t", L1())) : nullptr, bound);
    if (!e.isFor) r.push_back(e.cond());
    Val nb = e.body();
    std::vector<Val> rc;
    valComps(L, nb, rc, e.bodySpan);
    touch(rc, e.bodySpan, r);
    return r;
  });
  auto m = std::make_shared<Map>();
  m->dims = {constLong(1)};
  m->index = {L.newVar("s", L1())};
  m->body = b;
  L.probeDiscard.stmts.push_back(m);
  return placeholder();
}

bool Lowerer::liftLoop(const LiftSpec &e, const Val &init, Val &out) {
  NestCtx c0;
  std::string why;
  auto fail = [&](const std::string &w) -> bool {
    error(e.span, "unsupported: a loop whose state holds arrays of varying extents inside a parallel body (" + w + ")");
  };
  if (!captureCtx(*this, c0, why)) return fail(why);
  TypeP st = e.st;
  std::vector<LoopComp> comps;
  if (!stateComps(st, comps)) return fail("a state array of rank > 1");
  std::vector<Val> initComps;
  valComps(*this, init, initComps, e.initSpan);
  if (initComps.size() != comps.size()) return fail("internal: state components");
  if (liftLoopProbe) {
    out = probeOnlyLoop(*this, e, comps, initComps);
    return true;
  }
  bool isFor = e.isFor;
  Val bound;
  if (isFor) bound = e.bound();
  Env loopEnv = env;
  std::string where = e.what + " " + locString(sources, e.span);
  std::string rankNote;
  {
    std::function<void(const TypeP &)> rec = [&](const TypeP &t) {
      if (t && t->kind == arrc::Type::Tuple)
        for (auto &x : t->elems) rec(x);
      else if (t && t->isArray() && t->rank > 1)
        rankNote = "; state of rank " + std::to_string(t->rank) + " carried flattened (row-major) with its extents";
    };
    rec(st);
  }

  // One pass over the loop's code for every segment (the virtual body):
  // the state is each segment's part of the host arrays `params`, the new
  // state where the segment is active is flattened into host arrays (into
  // the current host block), then merged with the old one.
  // Returns the new host state (and the "any active" flag for while loops).
  struct PassOut {
    std::vector<ExpP> state;
    ExpP any;
    Block vb; // the virtual body (a probe reads what it uses)
  };
  auto pass = [&](const ExpP &N, const std::vector<ExpP> &params, const ExpP &t, const ExpP &cnt,
                  const std::map<int, ExpP> &cols, bool probe) {
    PassOut po;
    HostState hs = splitState(comps, params);
    int k = newVar("seg", L1());
    po.vb = bodyBlock({N}, {k}, [&] {
      env = loopEnv;
      ExpP kv = lv(k);
      std::vector<Val> sv;
      for (size_t q = 0; q < comps.size(); ++q) {
        if (!comps[q].array) {
          sv.push_back(Val::scalar(bindScalar("s", readExp(hs.comp[q][0], {kv})), comps[q].type));
          continue;
        }
        Segs g = stateSegs(comps[q], hs.comp[q]);
        ExpP off = bindScalar("off", readExp(g.offs, {kv}));
        ExpP len = bindScalar("len", readExp(g.lens, {kv}));
        Val arr = arrayFromVars(g.type, g.data);
        Val d;
        d.kind = Val::Delayed;
        d.type = g.type;
        d.dims = {len};
        Lowerer *Lp = this;
        d.fetch = [Lp, arr, off](const std::vector<ExpP> &i) { return Lp->elementAt(arr, {addL(off, i[0])}); };
        sv.push_back(d);
      }
      size_t pos = 0;
      e.bindState(compsToVal(*this, st, sv, pos), isFor ? t : nullptr, bound);
      ExpP act;
      if (isFor) act = cnt ? binaryExp(BinOp::Lt, t, readExp(cnt, {kv})) : constBool(true);
      else act = e.cond();
      act = bindScalar("active", act);
      NestCtx ctop;
      std::string w;
      if (!captureCtx(*this, ctop, w)) throw NotReplayable{w};
      ctop.used = {0};
      std::vector<Segs> newArr(comps.size());
      std::vector<ExpP> newScal(comps.size());
      Block actBlock = condBlock(act, [&] {
        Val r = e.body();
        std::vector<Val> rc;
        valComps(*this, r, rc, e.bodySpan);
        if (probe) {
          // what flattening the new state would evaluate, inline
          int j = newVar("j", L1());
          for (size_t q = 0; q < comps.size(); ++q) {
            if (comps[q].array)
              for (auto &g : segGens(*this, rc[q], e.bodySpan))
                for (auto &x : g(kv, lv(j))) bindScalar("p", x); // bound: the probe sees what the elements read
            else
              bindScalar("s", rc[q].e);
          }
          return std::vector<ExpP>{};
        }
        NestCtx cv;
        std::string w2;
        if (!captureCtx(*this, cv, w2)) throw NotReplayable{w2};
        std::vector<Gen> gens;
        for (size_t q = 0; q < comps.size(); ++q) {
          if (comps[q].array) {
            auto g = segGens(*this, rc[q], e.bodySpan);
            gens.insert(gens.end(), g.begin(), g.end());
          } else {
            Val x = rc[q];
            gens.push_back([x](const ExpP &, const ExpP &) { return std::vector<ExpP>{x.e}; });
          }
        }
        if (!analyse(*this, cv, gens, w2)) throw NotReplayable{w2};
        cv.used = {0};
        HostScope h(*this, cv, "");
        for (size_t q = 0; q < comps.size(); ++q) {
          if (comps[q].array) {
            newArr[q] = buildSegs(*this, cv, rc[q], e.bodySpan);
          } else {
            Val x = rc[q];
            newScal[q] = perSegmentVals(*this, cv, {comps[q].type->scalar}, "state", [&] { return std::vector<ExpP>{x.e}; })[0];
          }
        }
        h.commit();
        return std::vector<ExpP>{};
      });
      if (probe) { // what the new state reads, for the probe's free variables
        probeDiscard.stmts.insert(probeDiscard.stmts.end(), actBlock.stmts.begin(), actBlock.stmts.end());
        return std::vector<ExpP>{};
      }
      // The active flags, then per segment the new state where active.
      bool merge = !isFor || cnt;
      HostScope h(*this, ctop, "");
      ExpP actArr = merge ? perSegmentVals(*this, ctop, {ScalarKind::Bool}, "active", [&] { return std::vector<ExpP>{act}; })[0]
                          : nullptr;
      for (size_t q = 0; q < comps.size(); ++q) {
        if (comps[q].array) {
          Segs g = newArr[q];
          if (merge) g = mergeSegs(*this, ctop, actArr, g, stateSegs(comps[q], hs.comp[q]));
          auto a = segsArrays(g);
          po.state.insert(po.state.end(), a.begin(), a.end());
        } else if (merge) {
          auto m = std::make_shared<Map>();
          m->dims = {ctop.width};
          m->index = {newVar("s", L1())};
          ExpP s = lv(m->index[0]);
          m->body.results = {selectExp(readExp(actArr, {s}), readExp(newScal[q], {s}), readExp(hs.comp[q][0], {s}))};
          int o = newVar("state", arrayT(comps[q].type->scalar, 1));
          m->outs = {o};
          emit(m);
          po.state.push_back(varExp(mod, o));
        } else {
          po.state.push_back(newScal[q]);
        }
      }
      if (!isFor) {
        auto r = std::make_shared<Reduce>();
        r->n = ctop.width;
        r->index = newVar("s", L1());
        r->body.results = {readExp(actArr, {lv(r->index)})};
        int a = newVar("a", scalarT(ScalarKind::Bool)), b = newVar("b", scalarT(ScalarKind::Bool));
        r->op.params = {a, b};
        r->op.body.results = {binaryExp(BinOp::Or, varExp(a, scalarT(ScalarKind::Bool)), varExp(b, scalarT(ScalarKind::Bool)))};
        r->ne = {constBool(false)};
        int o = newVar("any", scalarT(ScalarKind::Bool));
        r->outs = {o};
        emit(r);
        po.any = varExp(o, scalarT(ScalarKind::Bool));
      }
      h.commit();
      return std::vector<ExpP>{};
    }, "the body of " + where + " (every element at once)", cols);
    return po;
  };

  try {
    // 1. Probe: the values of the enclosing body that the loop's code uses.
    std::set<int> outerNeed;
    {
      NoHoist nh(*this);
      struct ProbeDepth {
        int &d;
        explicit ProbeDepth(int &x) : d(x) { d++; }
        ~ProbeDepth() { d--; }
      } pd(liftLoopProbe);
      const int probeStart = int(mod.vars.size());
      Block fakeHost;
      Block *savedCur = cur;
      bool savedDev = device;
      Env savedEnv = env;
      Frame f;
      f.kind = Frame::Host;
      f.block = &fakeHost;
      f.id = ++frameCounter;
      frames.push_back(f);
      size_t depth = frames.size();
      cur = &fakeHost;
      device = false;
      probeDiscard.stmts.clear();
      auto restore = [&] {
        frames.resize(depth - 1);
        cur = savedCur;
        device = savedDev;
        env = savedEnv;
      };
      try {
        ExpP N = lv(newVar("segs", L1()));
        std::vector<ExpP> params;
        for (auto &c : comps) {
          std::vector<ScalarKind> ks = c.array ? kindsOf(c.type) : std::vector<ScalarKind>{c.type->scalar};
          if (c.array) ks.push_back(ScalarKind::Long), ks.push_back(ScalarKind::Long);
          for (auto kk : ks) params.push_back(varExp(newVar("p", arrayT(kk, 1)), arrayT(kk, 1)));
        }
        ExpP t = lv(newVar("t", L1()));
        ExpP cnt = isFor ? varExp(newVar("cnt", arrayT(ScalarKind::Long, 1)), arrayT(ScalarKind::Long, 1)) : nullptr;
        PassOut po = pass(N, params, t, cnt, {}, true);
        fakeHost.stmts.insert(fakeHost.stmts.end(), probeDiscard.stmts.begin(), probeDiscard.stmts.end());
        auto m = std::make_shared<Map>(); // holds the virtual body, for its free variables
        m->dims = {N};
        m->body = po.vb;
        fakeHost.stmts.push_back(m);
      } catch (...) {
        restore();
        throw;
      }
      restore();
      std::set<int> fv = freeVarsOf(fakeHost);
      auto &ix = c0.chain[0].index;
      for (int v : fv) // (the probe's own variables are not values of the body)
        if (v < probeStart && (deviceVars.count(v) || std::find(ix.begin(), ix.end(), v) != ix.end()))
          outerNeed.insert(v);
      probeDiscard.stmts.clear();
    }
    // 2. Analysis in the enclosing body: the initial state, the bound, the
    // values the loop uses.
    std::vector<Gen> gens;
    for (size_t q = 0; q < comps.size(); ++q) {
      if (comps[q].array) {
        auto g = segGens(*this, initComps[q], e.initSpan);
        gens.insert(gens.end(), g.begin(), g.end());
      } else {
        Val x = initComps[q];
        gens.push_back([x](const ExpP &, const ExpP &) { return std::vector<ExpP>{x.e}; });
      }
    }
    bool perSegCount = isFor && !hostExps(*this, c0, {bound.e});
    if (perSegCount) {
      ExpP b = bound.e;
      gens.push_back([b](const ExpP &, const ExpP &) { return std::vector<ExpP>{b}; });
    }
    std::vector<int> outerVars(outerNeed.begin(), outerNeed.end());
    gens.push_back([this, outerVars](const ExpP &, const ExpP &) {
      std::vector<ExpP> r;
      for (int v : outerVars) r.push_back(varExp(mod, v));
      return r;
    });
    if (!analyse(*this, c0, gens, why)) return fail(why);
    std::vector<HostState> finals;
    std::vector<ExpP> finalArrs;
    {
      HostScope hs(*this, c0, where + " in " + (c0.chain[0].where.empty() ? std::string("a parallel body") : c0.chain[0].where) +
                                  ": " + e.why + " (flattened state, memory sized by each iteration's counts" +
                                  rankNote + ")");
      // The enclosing body's values, per segment.
      std::map<int, ExpP> cols;
      if (!outerVars.empty()) {
        std::vector<ScalarKind> ks;
        for (int v : outerVars) ks.push_back(mod.vars[v].type.elem);
        auto cs = perSegmentVals(*this, c0, ks, "ctx", [&] {
          std::vector<ExpP> r;
          for (int v : outerVars) r.push_back(varExp(mod, v));
          return r;
        });
        for (size_t q = 0; q < outerVars.size(); ++q) cols[outerVars[q]] = cs[q];
      }
      // The initial state.
      std::vector<ExpP> initArrs;
      for (size_t q = 0; q < comps.size(); ++q) {
        if (comps[q].array) {
          auto a = segsArrays(buildSegs(*this, c0, initComps[q], e.initSpan));
          initArrs.insert(initArrs.end(), a.begin(), a.end());
        } else {
          Val x = initComps[q];
          initArrs.push_back(perSegmentVals(*this, c0, {comps[q].type->scalar}, "state", [&] { return std::vector<ExpP>{x.e}; })[0]);
        }
      }
      ExpP cnt, hostCount;
      if (isFor) {
        if (perSegCount) {
          ExpP b = bound.e;
          cnt = perSegment(*this, c0, "count", [&](const ExpP &, const ExpP &) { return std::vector<ExpP>{b}; });
          auto r = std::make_shared<Reduce>();
          r->n = c0.width;
          r->index = newVar("s", L1());
          r->body.results = {readExp(cnt, {lv(r->index)})};
          int a = newVar("a", L1()), b2 = newVar("b", L1());
          r->op.params = {a, b2};
          r->op.body.results = {callExp("max", {lv(a), lv(b2)}, ScalarKind::Long)};
          r->ne = {constLong(0)};
          int o = newVar("rounds", L1());
          r->outs = {o};
          emit(r);
          hostCount = lv(o);
        } else {
          hostCount = bindScalar("rounds", toLong(bound.e));
        }
      }
      // The host loop.
      auto loop = std::make_shared<Loop>();
      loop->form = isFor ? Loop::For : Loop::While;
      loop->init = initArrs;
      std::vector<ExpP> params;
      for (auto &x : initArrs) {
        int p = newVar("state", x->type);
        loop->params.push_back(p);
        params.push_back(varExp(p, x->type));
      }
      ExpP anyP;
      if (!isFor) {
        int p = newVar("any", scalarT(ScalarKind::Bool));
        loop->params.push_back(p);
        loop->init.push_back(constBool(true));
        anyP = varExp(p, scalarT(ScalarKind::Bool));
        loop->cond.results = {anyP};
      } else {
        loop->count = hostCount;
        loop->index = newVar("round", L1());
      }
      ExpP N = c0.width;
      loop->body = subBlock(false, [&] {
        PassOut po = pass(N, params, isFor ? lv(loop->index) : nullptr, cnt, cols, false);
        auto r = po.state;
        if (!isFor) r.push_back(po.any);
        return r;
      });
      for (auto &x : loop->init) {
        int o = newVar("state", x->type);
        loop->outs.push_back(o);
        finalArrs.push_back(varExp(o, x->type));
      }
      loop->span = e.span;
      emit(loop);
      hs.commit();
    }
    // The final state, read by each element of the body.
    HostState fs = splitState(comps, finalArrs);
    ExpP here = flatHere(*this, c0);
    std::vector<Val> outComps;
    for (size_t q = 0; q < comps.size(); ++q) {
      if (!comps[q].array) {
        outComps.push_back(Val::scalar(bindScalar("s", readExp(fs.comp[q][0], {here})), comps[q].type));
        continue;
      }
      outComps.push_back(segValue(*this, c0, stateSegs(comps[q], fs.comp[q])));
    }
    size_t pos = 0;
    out = compsToVal(*this, st, outComps, pos);
    return true;
  } catch (const NotReplayable &x) {
    return fail(x.why);
  }
}


static bool scalarTree(const TypeP &t) {
  if (!t) return false;
  if (t->isScalar()) return true;
  if (t->kind == arrc::Type::Tuple) {
    for (auto &e : t->elems)
      if (!scalarTree(e)) return false;
    return true;
  }
  return false;
}

bool Lowerer::liftNeeded(const TypeP &rt, const std::function<void()> &touch, bool inLoopProbe) {
  if (!device || liftProbe || (liftLoopProbe && !inLoopProbe) || !rt || !rt->isArray() || rt->rank != 1 || !scalarTree(rt->elem)) return false;
  // Probe: the elements evaluated inside a sequential fold (where a consumer
  // reads them); only a loop that cannot be lifted from there asks for this.
  return meetsUnliftableLoop(touch);
}

bool Lowerer::meetsUnliftableLoop(const std::function<void()> &touch) {
  bool need = false;
  NoHoist nh(*this);
  Block savedDiscard = probeDiscard;
  liftProbe++;
  try {
    subBlock(true, [&] {
      touch();
      return std::vector<ExpP>{};
    });
  } catch (const LowerError &er) {
    need = er.message.rfind("unsupported: a loop whose state holds arrays of varying extents", 0) == 0;
  }
  liftProbe--;
  probeDiscard = savedDiscard;
  return need;
}

bool Lowerer::liftNeededFor(const TypeP &rt, const Val &f, const Val &xs, const Span &at) {
  return liftNeeded(rt, [&] {
    if (xs.kind == Val::Seq)
      foldSeq(xs, {constLong(0)}, [&](const std::vector<ExpP> &acc, const Val &item) {
        apply(f, {item}, at);
        return acc;
      }, at);
    else
      apply(f, {elementAt(xs, {varExp(newVar("k", L1()), L1())})}, at);
  });
}

bool Lowerer::liftComprehension(const Val &src, const TypeP &rt, const std::function<Val(const ExpP &)> &elem,
                                const Span &at, Val &out, bool probed) {
  if (!probed && !liftNeeded(rt, [&] { leaves(elem(varExp(newVar("k", L1()), L1())), at); })) return false;
  {
    // (no index space here, e.g. a probe of a nested head's extents: the
    // elements stay an index function; where they are computed, in a body
    // with an index space, they are lifted then)
    NestCtx c;
    std::string why;
    if (!captureCtx(*this, c, why)) return false;
  }
  // A loop over the elements (state: the comprehension's array, all zeros at
  // first; iteration t sets element t), lifted like a loop of the body: the
  // head's loop then sits in the lifted loop's body, which it can leave.
  TypeP et = rt->elem;
  std::vector<ScalarKind> ks;
  typeLeaves(et, ks);
  ExpP n = bindScalar("n", toLong(extent(src, 0, at)));
  Val init = mkDelayed(rt, {n}, [this, ks, et](const std::vector<ExpP> &) {
    std::vector<ExpP> z;
    for (auto k : ks) z.push_back(constZero(k));
    size_t p = 0;
    return rebuild(et, z, p);
  });
  out = loopFold(rt, init, n, [this, elem, at](const Val &a, const ExpP &t) {
    std::vector<ExpP> xs;
    for (auto &l : leaves(elem(t), at)) xs.push_back(bindScalar("x", l));
    return setElement(a, t, xs, at);
  }, at, "array", "its elements run a loop whose state varies in size and that reads their variables where a fold "
                  "would run it, so they are made by a loop lifted out of the body, one element per iteration");
  return true;
}

} // namespace arrc::lower
