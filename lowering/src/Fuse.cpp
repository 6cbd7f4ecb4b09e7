// Fusion (docs/lowering.md, "Passes"). Producer-consumer rules, tried in this
// order each time (the first that applies rewrites the block, then fusion
// starts over):
//  0. A rank-1 Map copying a rank-2 Map's output in row-major order (what
//     `flatten` lowers to) becomes a View of it.
//  1. Map and Filter producers: a Map whose outputs are read only by one
//     later SOAC, at that SOAC's own index, is substituted into the
//     consumer's body (map-map, map-reduce, map-scan, map-filter,
//     map-scatter/hist/seg ops, map-expand); a Filter read only by a Reduce
//     at its own index becomes one Reduce whose body guards the element
//     (filter-reduce); a Map or Filter over a Filter's outputs joins the
//     Filter (filter-map, filter-filter). These come first so that
//     `sum(filter(expand))` becomes Expand -> Reduce, not Expand into
//     Filter -> Reduce.
//  2. One-statement rewrites: a Filter (or Expand into Filter) used only
//     through its length becomes a count (a Reduce, or Expand into Reduce);
//     a rank >= 2 Map read only through flattening Views becomes a rank-1 Map
//     (so that it fuses into a rank-1 consumer such as a hist).
//  3. Expand producers: an Expand read only by a Reduce / Filter / Map at
//     the consumer's own index over its whole length becomes one Expand into
//     Reduce / Expand into Filter / Expand with the Map's outputs; a Map or
//     Filter over an Expand into Filter's outputs joins it; an Expand read
//     only by an Expand into Reduce as its outer elements becomes, on CPUs,
//     one Expand into Reduce folding the inner level in a loop
//     (FuseExpandLoop.cpp; an If of plans by device).
//  4. Horizontal fusion (FuseHorizontal.cpp): zip of Maps, histograms over
//     the same bins.
//  5. A Map whose outputs only Hists read (at their rows; k-means' assignment,
//     counts and sums) becomes one MultiHist with them (FuseMultiHist.cpp).
#include "FuseSupport.h"

#include <algorithm>
#include <functional>
#include <map>

namespace arrc::passes {
using namespace ir;

namespace {

struct Ctx {
  ir::Module &m;
  Block &b;
  std::map<int, int> &uses;   // over the whole function
  std::set<int> &resultVars;  // the function's results
};

bool anyResult(const Ctx &c, const std::vector<int> &outs) {
  for (int o : outs)
    if (c.resultVars.count(o)) return true;
  return false;
}

std::string joinNotes(const std::string &consumer, const std::string &producer) {
  if (consumer.empty()) return producer;
  if (producer.empty() || producer == consumer) return consumer;
  return consumer + "; fused with " + producer;
}

// The consumer (body `body`, own index `index`, extent `n`) reads the
// producer's outputs only at its own index over the producer's whole length
// (n is their length) and uses its index for nothing else. lenLet: the index
// of the Let binding n, or -1 when n is Shape(outs[0], 0) itself.
bool readsElementwise(Ctx &c, const std::vector<int> &outs, const Block &body, int index, const ExpP &n,
                      int &lenLet) {
  int letUses = 0;
  if (!isLengthOf(n, outs[0], c.b, c.uses, letUses)) return false;
  int goodAll = 0;
  for (int o : outs) {
    int good = 0;
    readsAtIndex(body, o, {index}, good);
    goodAll += good;
    if (c.uses[o] != good + (o == outs[0] ? 1 : 0)) return false;
  }
  std::map<int, int> cc;
  countBlock(body, cc);
  if (cc[index] != goodAll) return false;
  lenLet = -1;
  if (letUses)
    for (size_t j = 0; j < c.b.stmts.size(); ++j)
      if (c.b.stmts[j]->kind == StmtKind::Let && c.b.stmts[j]->outs[0] == n->var) lenLet = int(j);
  return true;
}

// Removes statements pi and (if >= 0) lenLet and puts `fused` at ci's place.
void replaceWithFused(Block &b, size_t pi, int lenLet, size_t ci, StmtP fused) {
  std::vector<StmtP> nb;
  for (size_t j = 0; j < b.stmts.size(); ++j) {
    if (j == pi || int(j) == lenLet) continue;
    nb.push_back(j == ci ? fused : b.stmts[j]);
  }
  b.stmts = std::move(nb);
}

// ---------------------------------------------------------------- 1. Map, Filter producers

// map-expand: the producer's body goes into both the size and the body block.
bool mapIntoExpand(Ctx &c, size_t pi, size_t ci) {
  auto &pm = static_cast<Map &>(*c.b.stmts[pi]);
  auto &ce = static_cast<Expand &>(*c.b.stmts[ci]);
  DimFacts facts(c.b, ci);
  if (!facts.equalDims(pm.dims, {ce.n})) return false;
  int anyE = 0;
  for (int o : pm.outs) {
    int good = 0;
    readsAtIndex(ce.size, o, {ce.index}, good);
    readsAtIndex(ce.body, o, {ce.index}, good);
    if (c.uses[o] != good) return false;
    anyE += good;
  }
  if (anyE == 0) return false;
  for (Block *blk : {&ce.size, &ce.body}) {
    std::map<int, ExpP> sub{{pm.index[0], varExp(c.m, ce.index)}};
    Block pb = cloneFresh(c.m, pm.body, sub);
    std::map<int, ExpP> repl;
    for (size_t k = 0; k < pm.outs.size(); ++k) repl[pm.outs[k]] = pb.results[k];
    replaceReads(*blk, repl);
    blk->stmts.insert(blk->stmts.begin(), pb.stmts.begin(), pb.stmts.end());
  }
  if (!pm.note.empty()) ce.note += "; fused with " + pm.note;
  c.b.stmts.erase(c.b.stmts.begin() + pi);
  return true;
}

// map-X: the Map's body is substituted into the consumer's body at its index.
bool mapIntoConsumer(Ctx &c, size_t pi, size_t ci) {
  auto &pm = static_cast<Map &>(*c.b.stmts[pi]);
  Stmt &C = *c.b.stmts[ci];
  Space cs;
  if (!spaceOf(C, cs)) return false;
  int anyGood = 0;
  for (int o : pm.outs) {
    int good = 0;
    readsAtIndex(*cs.body, o, cs.index, good);
    anyGood += good;
    if (c.uses[o] != good) return false;
  }
  if (anyGood == 0) return false;
  DimFacts facts(c.b, ci);
  if (!facts.equalDims(pm.dims, cs.dims)) return false;
  std::map<int, ExpP> sub;
  for (size_t k = 0; k < pm.index.size(); ++k) sub[pm.index[k]] = varExp(c.m, cs.index[k]);
  Block pb = cloneFresh(c.m, pm.body, sub);
  std::map<int, ExpP> repl;
  for (size_t k = 0; k < pm.outs.size(); ++k) repl[pm.outs[k]] = pb.results[k];
  replaceReads(*cs.body, repl);
  cs.body->stmts.insert(cs.body->stmts.begin(), pb.stmts.begin(), pb.stmts.end());
  C.note = joinNotes(C.note, pm.note);
  c.b.stmts.erase(c.b.stmts.begin() + pi);
  return true;
}

// filter-reduce: one Reduce over the Filter's space whose body computes the
// element under an If on the keep flag (else the neutral element).
bool filterIntoReduce(Ctx &c, size_t pi, size_t ci) {
  auto &pf = static_cast<Filter &>(*c.b.stmts[pi]);
  if (c.b.stmts[ci]->kind != StmtKind::Reduce) return false;
  auto &cr = static_cast<Reduce &>(*c.b.stmts[ci]);
  int lenLet = -1;
  if (!readsElementwise(c, pf.outs, cr.body, cr.index, cr.n, lenLet)) return false;
  int ni = c.m.newVar("i", scalarT(ScalarKind::Long));
  std::map<int, ExpP> sub{{pf.index, varExp(c.m, ni)}};
  Block pb = cloneFresh(c.m, pf.body, sub);
  std::map<int, ExpP> repl;
  for (size_t k = 0; k < pf.outs.size(); ++k) repl[pf.outs[k]] = pb.results[k + 1];
  Block guarded = cr.body;
  replaceReads(guarded, repl);
  auto g = std::make_shared<ir::If>();
  g->cond = pb.results[0];
  g->thenB = guarded;
  g->elseB.results = cr.ne;
  Block nb;
  nb.stmts = pb.stmts;
  for (auto &r : guarded.results) {
    int o = c.m.newVar("e", r->type);
    g->outs.push_back(o);
    nb.results.push_back(varExp(c.m, o));
  }
  nb.stmts.push_back(g);
  cr.body = nb;
  cr.index = ni;
  cr.n = pf.n;
  cr.note = joinNotes(cr.note, pf.note);
  StmtP fused = c.b.stmts[ci];
  replaceWithFused(c.b, pi, lenLet, ci, fused);
  return true;
}

// filter-map / filter-filter: a rank-1 Map or a Filter over a Filter's (or
// Expand into Filter's) outputs, reading them only at its own index over
// their whole length, joins the compaction: the producer's body computes the
// consumer's body under an If on its keep flag (a dropped element never
// evaluates it) and yields (keep, the Map's values) or (keep && keep2, the
// second Filter's values); the producer takes the consumer's outputs.
bool filterIntoConsumer(Ctx &c, size_t pi, size_t ci) {
  Stmt &P = *c.b.stmts[pi];
  Stmt &C = *c.b.stmts[ci];
  bool isMap = C.kind == StmtKind::Map;
  if (C.outs.empty() || (!isMap && C.kind != StmtKind::Filter)) return false;
  if (isMap && static_cast<Map &>(C).dims.size() != 1) return false;
  Block &cbody = isMap ? static_cast<Map &>(C).body : static_cast<Filter &>(C).body;
  int cindex = isMap ? static_cast<Map &>(C).index[0] : static_cast<Filter &>(C).index;
  const ExpP &cn = isMap ? static_cast<Map &>(C).dims[0] : static_cast<Filter &>(C).n;
  int lenLet = -1;
  if (!readsElementwise(c, P.outs, cbody, cindex, cn, lenLet)) return false;
  Block &pb = P.kind == StmtKind::Filter ? static_cast<Filter &>(P).body : static_cast<Expand &>(P).body;
  std::map<int, ExpP> repl;
  for (size_t k = 0; k < P.outs.size(); ++k) repl[P.outs[k]] = pb.results[k + 1];
  auto g = std::make_shared<ir::If>();
  g->cond = pb.results[0];
  g->thenB = cbody;
  replaceReads(g->thenB, repl);
  std::vector<ExpP> res;
  if (isMap) res.push_back(pb.results[0]);
  for (auto &r : g->thenB.results) {
    g->elseB.results.push_back(constZero(r->type.elem)); // keep2 = false
    int o = c.m.newVar(isMap ? "v" : "f", r->type);
    g->outs.push_back(o);
    res.push_back(varExp(c.m, o));
  }
  pb.stmts.push_back(g);
  pb.results = res;
  P.outs = C.outs;
  P.note = joinNotes(C.note.empty() ? std::string(isMap ? "map" : "filter") : C.note, P.note);
  replaceWithFused(c.b, pi, lenLet, ci, c.b.stmts[pi]);
  return true;
}

// ---------------------------------------------------------------- 2. one-statement rewrites

// count-filter: a Filter (or Expand into Filter) whose outputs are used only
// through their length counts its kept elements instead (a Reduce, or an
// Expand into Reduce, of select(keep, 1, 0) with +): no compaction, no array.
bool countFilter(Ctx &c, size_t pi) {
  Stmt &P = *c.b.stmts[pi];
  bool isExpand = P.kind == StmtKind::Expand && static_cast<Expand &>(P).into == Expand::Filter;
  if (P.kind != StmtKind::Filter && !isExpand) return false;
  if (P.outs.empty()) return false;
  std::set<int> outs(P.outs.begin(), P.outs.end());
  // Every use of an output (the block's results included) is Shape(out, 0).
  std::map<int, int> lengths;
  std::function<void(const ExpP &)> ex = [&](const ExpP &e) {
    if (!e) return;
    if (e->kind == Exp::Shape && e->axis == 0 && e->args[0]->kind == Exp::Var && outs.count(e->args[0]->var)) {
      lengths[e->args[0]->var]++;
      return;
    }
    for (auto &a : e->args) ex(a);
  };
  std::function<void(const Block &)> bl = [&](const Block &blk) {
    for (auto &s : blk.stmts) {
      forEachExp(const_cast<Stmt &>(*s), [&](ExpP &e) { ex(e); });
      forEachBlock(static_cast<const Stmt &>(*s), bl);
    }
    for (auto &r : blk.results) ex(r);
  };
  bl(c.b);
  int total = 0;
  for (int o : P.outs) {
    if (c.uses[o] != lengths[o]) return false;
    total += lengths[o];
  }
  if (total == 0) return false;
  Block *body = isExpand ? &static_cast<Expand &>(P).body : &static_cast<Filter &>(P).body;
  int cnt = c.m.newVar("count", scalarT(ScalarKind::Long));
  int a = c.m.newVar("x", scalarT(ScalarKind::Long)), bb = c.m.newVar("y", scalarT(ScalarKind::Long));
  ir::Lambda op;
  op.params = {a, bb};
  op.body.results = {binaryExp(BinOp::Add, varExp(c.m, a), varExp(c.m, bb))};
  body->results = {selectExp(body->results[0], constLong(1), constLong(0))};
  std::string note = "count of " + (P.note.empty() ? std::string(isExpand ? "expand" : "filter") : P.note);
  StmtP repl;
  if (isExpand) {
    auto &pe = static_cast<Expand &>(P);
    pe.into = Expand::Reduce;
    pe.op = op;
    pe.ne = {constLong(0)};
    pe.outs = {cnt};
    pe.note = note;
    repl = c.b.stmts[pi];
  } else {
    auto &pf = static_cast<Filter &>(P);
    auto r = std::make_shared<Reduce>();
    r->n = pf.n;
    r->index = pf.index;
    r->body = pf.body;
    r->op = op;
    r->ne = {constLong(0)};
    r->outs = {cnt};
    r->note = note;
    r->span = pf.span;
    repl = r;
  }
  ExpP cv = varExp(c.m, cnt);
  auto toCount = [&](const ExpP &e) -> ExpP {
    if (e->kind == Exp::Shape && e->axis == 0 && e->args[0]->kind == Exp::Var && outs.count(e->args[0]->var))
      return cv;
    return nullptr;
  };
  for (size_t j = pi + 1; j < c.b.stmts.size(); ++j) {
    forEachExp(*c.b.stmts[j], [&](ExpP &e) { e = rewriteExp(e, toCount); });
    forEachBlock(*c.b.stmts[j], [&](Block &in) { rewriteBlock(in, toCount); });
  }
  for (auto &r : c.b.results) r = rewriteExp(r, toCount);
  c.b.stmts[pi] = repl;
  return true;
}

// flatten-map: a rank >= 2 Map whose every output is read only through a
// View flattening it to rank 1 (shape = product of the dims, weights (1, 0),
// as `flatten` and flattened product spaces make), itself read only by one
// rank-1 SOAC at its own index, becomes a rank-1 Map over the product whose
// body recovers the indices (i0 = k / (d1...), ..., i(r-1) = k % d(r-1)).
bool flattenViewedMap(Ctx &c, size_t pi) {
  auto &pm = static_cast<Map &>(*c.b.stmts[pi]);
  if (pm.dims.size() < 2 || pm.outs.empty() || anyResult(c, pm.outs)) return false;
  ExpP prod = pm.dims[0];
  for (size_t k = 1; k < pm.dims.size(); ++k) prod = mulL(prod, pm.dims[k]);
  std::vector<int> vouts;
  std::vector<size_t> views;
  for (int o : pm.outs) {
    if (c.uses[o] != 1) return false;
    int found = -1;
    for (size_t j = pi + 1; j < c.b.stmts.size() && found < 0; ++j) {
      if (c.b.stmts[j]->kind != StmtKind::View) continue;
      auto &v = static_cast<View &>(*c.b.stmts[j]);
      if (v.source->kind != Exp::Var || v.source->var != o) continue;
      int64_t w0, w1;
      if (v.shape.size() != 1 || v.weights.size() != 2 || !constValue(v.weights[0], w0) || w0 != 1 ||
          !constValue(v.weights[1], w1) || w1 != 0)
        return false;
      DimFacts facts(c.b, j);
      if (!facts.equal(v.shape[0], prod)) return false;
      found = int(j);
    }
    if (found < 0) return false;
    vouts.push_back(c.b.stmts[found]->outs[0]);
    views.push_back(size_t(found));
  }
  if (anyResult(c, vouts)) return false;
  int ci = firstConsumer(c.b, pi, vouts);
  if (ci < 0) return false;
  Space cs;
  if (!spaceOf(*c.b.stmts[ci], cs) || cs.index.size() != 1) return false;
  for (int v : vouts) {
    int good = 0;
    readsAtIndex(*cs.body, v, cs.index, good);
    if (good == 0 || c.uses[v] != good) return false;
  }
  auto nm = std::make_shared<Map>();
  nm->dims = {prod};
  int k = c.m.newVar("k", scalarT(ScalarKind::Long));
  nm->index = {k};
  // The old index variables become Lets of the decomposed flat index:
  // i(j) = (k / (d(j+1) * ... * d(r-1))) % d(j), no modulo for i0.
  ExpP stride = constLong(1);
  std::vector<StmtP> lets(pm.dims.size());
  for (int j = int(pm.dims.size()) - 1; j >= 0; --j) {
    ExpP q = j == int(pm.dims.size()) - 1 ? varExp(c.m, k) : binaryExp(BinOp::Div, varExp(c.m, k), stride);
    auto let = std::make_shared<Let>();
    let->outs = {pm.index[j]};
    let->value = j == 0 ? q : binaryExp(BinOp::Mod, q, pm.dims[j]);
    lets[j] = let;
    stride = mulL(stride, pm.dims[j]);
  }
  nm->body.stmts = lets;
  nm->body.stmts.insert(nm->body.stmts.end(), pm.body.stmts.begin(), pm.body.stmts.end());
  nm->body.results = pm.body.results;
  nm->outs = vouts;
  nm->note = (pm.note.empty() ? std::string("map") : pm.note) + " (flattened)";
  nm->span = pm.span;
  std::vector<StmtP> nb;
  for (size_t j = 0; j < c.b.stmts.size(); ++j) {
    if (std::find(views.begin(), views.end(), j) != views.end()) continue;
    nb.push_back(j == pi ? StmtP(nm) : c.b.stmts[j]);
  }
  c.b.stmts = std::move(nb);
  return true;
}

// flatten-view: a rank-1 Map that copies a rank-2 Map's output in row-major
// order (its body reads P[i / d1, i % d1] over i < d0 * d1, as `flatten`
// lowers) is a View of it: Map outputs are fresh, contiguous and row-major.
// (flattenViewedMap then fuses P itself into the consumer.)
bool flattenCopyIsView(Ctx &c, size_t fi) {
  auto &fm = static_cast<Map &>(*c.b.stmts[fi]);
  if (fm.dims.size() != 1 || fm.outs.size() != 1 || fm.body.results.size() != 1) return false;
  std::map<int, ExpP> lets;
  for (auto &s : fm.body.stmts) {
    if (s->kind != StmtKind::Let) return false;
    lets[s->outs[0]] = static_cast<const Let &>(*s).value;
  }
  ExpP r = rewriteExp(fm.body.results[0], [&](const ExpP &x) -> ExpP {
    if (x->kind != Exp::Var) return nullptr;
    auto it = lets.find(x->var);
    return it == lets.end() ? nullptr : it->second;
  });
  if (r->kind != Exp::Read || r->checkPos >= 0 || r->args.size() != 3 || r->args[0]->kind != Exp::Var) return false;
  int src = r->args[0]->var;
  const Map *pm = nullptr;
  for (size_t j = 0; j < fi; ++j)
    if (c.b.stmts[j]->kind == StmtKind::Map &&
        std::find(c.b.stmts[j]->outs.begin(), c.b.stmts[j]->outs.end(), src) != c.b.stmts[j]->outs.end())
      pm = static_cast<const Map *>(c.b.stmts[j].get());
  if (!pm || pm->dims.size() != 2) return false;
  auto isIndexOp = [&](const ExpP &e, BinOp op) {
    return e->kind == Exp::Binary && e->binop == op && e->args[0]->kind == Exp::Var && e->args[0]->var == fm.index[0];
  };
  const ExpP &q = r->args[1], &m = r->args[2];
  if (!isIndexOp(q, BinOp::Div) || !isIndexOp(m, BinOp::Mod)) return false;
  DimFacts facts(c.b, fi);
  if (!facts.equal(q->args[1], pm->dims[1]) || !facts.equal(m->args[1], pm->dims[1]) ||
      !facts.equal(fm.dims[0], mulL(pm->dims[0], pm->dims[1])))
    return false;
  auto v = std::make_shared<View>();
  v->source = varExp(c.m, src);
  v->shape = {fm.dims[0]};
  v->weights = {constLong(1), constLong(0)};
  v->outs = fm.outs;
  v->note = (fm.note.empty() ? std::string("flatten") : fm.note) + " (a view of a fresh row-major array)";
  v->span = fm.span;
  c.b.stmts[fi] = v;
  return true;
}

// ---------------------------------------------------------------- 3. Expand producers

// Inner sizes up to this constant are folded sequentially by expand-reduce.
const int64_t kSmallInner = 16;

// expand-reduce with a small constant inner size: one Reduce over the outer
// elements whose body folds their inner elements sequentially (a Loop).
bool expandIntoSmallReduce(Ctx &c, size_t pi, size_t ci, int lenLet) {
  auto &pe = static_cast<Expand &>(*c.b.stmts[pi]);
  auto &cr = static_cast<Reduce &>(*c.b.stmts[ci]);
  int ni = c.m.newVar("i", scalarT(ScalarKind::Long));
  int nj = c.m.newVar("j", scalarT(ScalarKind::Long));
  std::map<int, ExpP> s1{{pe.index, varExp(c.m, ni)}};
  Block sz = cloneFresh(c.m, pe.size, s1);
  std::map<int, ExpP> s2{{pe.index, varExp(c.m, ni)}, {pe.inner, varExp(c.m, nj)}};
  Block eb = cloneFresh(c.m, pe.body, s2);
  std::map<int, ExpP> repl;
  for (size_t k = 0; k < pe.outs.size(); ++k) repl[pe.outs[k]] = eb.results[k];
  std::map<int, ExpP> s3;
  Block elem = cloneFresh(c.m, cr.body, s3);
  replaceReads(elem, repl);
  elem.stmts.insert(elem.stmts.begin(), eb.stmts.begin(), eb.stmts.end());
  auto loop = foldLoop(c.m, sz.results[0], nj, elem, cr.op, cr.ne);
  Block nb;
  nb.stmts = sz.stmts;
  for (int o : loop->outs) nb.results.push_back(varExp(c.m, o));
  nb.stmts.push_back(loop);
  cr.body = nb;
  cr.index = ni;
  cr.n = pe.n;
  cr.note = (cr.note.empty() ? std::string("reduce") : cr.note) + "; fused with " + pe.note +
            " (inner elements folded sequentially)";
  replaceWithFused(c.b, pi, lenLet, ci, c.b.stmts[ci]);
  return true;
}

// expand-reduce / expand-filter: the consumer's body is appended to the
// Expand's (its reads of the Expand's outputs become the Expand body's
// results) and the Expand takes the consumer's operator and outputs.
bool expandIntoConsumer(Ctx &c, size_t pi, size_t ci) {
  auto &pe = static_cast<Expand &>(*c.b.stmts[pi]);
  Stmt &C = *c.b.stmts[ci];
  if (C.kind != StmtKind::Reduce && C.kind != StmtKind::Filter) return false;
  bool isReduce = C.kind == StmtKind::Reduce;
  Block &cbody = isReduce ? static_cast<Reduce &>(C).body : static_cast<Filter &>(C).body;
  int cindex = isReduce ? static_cast<Reduce &>(C).index : static_cast<Filter &>(C).index;
  const ExpP &cn = isReduce ? static_cast<Reduce &>(C).n : static_cast<Filter &>(C).n;
  int lenLet = -1;
  if (!readsElementwise(c, pe.outs, cbody, cindex, cn, lenLet)) return false;
  if (isReduce) {
    // A small constant inner size: fold it sequentially (one Reduce).
    int64_t innerN = -1;
    if (!pe.size.results.empty() && constValue(pe.size.results[0], innerN) && innerN <= kSmallInner)
      return expandIntoSmallReduce(c, pi, ci, lenLet);
  }
  std::map<int, ExpP> repl;
  for (size_t k = 0; k < pe.outs.size(); ++k) repl[pe.outs[k]] = pe.body.results[k];
  Block rb = cbody;
  replaceReads(rb, repl);
  pe.body.stmts.insert(pe.body.stmts.end(), rb.stmts.begin(), rb.stmts.end());
  pe.body.results = rb.results;
  if (isReduce) {
    auto &cr = static_cast<Reduce &>(C);
    pe.into = Expand::Reduce;
    pe.op = cr.op;
    pe.ne = cr.ne;
  } else {
    pe.into = Expand::Filter;
  }
  pe.outs = C.outs;
  pe.note = joinNotes(C.note.empty() ? std::string(isReduce ? "reduce" : "filter") : C.note, pe.note);
  replaceWithFused(c.b, pi, lenLet, ci, c.b.stmts[pi]);
  return true;
}

// expand-map: the Map's body is appended to the Expand's body (its reads of
// the Expand's outputs at the Map's index become the Expand body's results);
// the Expand then yields the Map's outputs. Length Lets of the Expand's
// output move after the fused statement (they now take the Map's length).
bool expandIntoMap(Ctx &c, size_t pi, size_t ci) {
  auto &pe = static_cast<Expand &>(*c.b.stmts[pi]);
  Stmt &C = *c.b.stmts[ci];
  if (C.kind != StmtKind::Map || C.outs.empty()) return false;
  auto &cm = static_cast<Map &>(C);
  if (cm.dims.size() != 1) return false;
  int letUses = 0;
  if (!isLengthOf(cm.dims[0], pe.outs[0], c.b, c.uses, letUses)) return false;
  int goodAll = 0;
  for (int o : pe.outs) {
    int good = 0;
    readsAtIndex(cm.body, o, {cm.index[0]}, good);
    goodAll += good;
    if (c.uses[o] != good + (o == pe.outs[0] ? 1 : 0)) return false;
  }
  std::map<int, int> cc;
  countBlock(cm.body, cc);
  if (cc[cm.index[0]] != goodAll) return false;
  std::vector<size_t> lens;
  std::map<int, int> cC;
  countStmt(C, cC);
  for (size_t j = pi + 1; j < ci; ++j) {
    std::map<int, int> c1;
    countStmt(*c.b.stmts[j], c1);
    bool usesP = false;
    for (int o : pe.outs) usesP = usesP || c1.count(o);
    if (!usesP) continue;
    int lv = c.b.stmts[j]->outs.empty() ? -1 : c.b.stmts[j]->outs[0];
    if (c.b.stmts[j]->kind != StmtKind::Let || lv < 0 || c.uses[lv] != cC[lv]) return false;
    lens.push_back(j);
  }
  Block mb = cm.body;
  std::map<int, ExpP> repl;
  for (size_t k = 0; k < pe.outs.size(); ++k) repl[pe.outs[k]] = pe.body.results[k];
  replaceReads(mb, repl);
  pe.body.stmts.insert(pe.body.stmts.end(), mb.stmts.begin(), mb.stmts.end());
  pe.body.results = mb.results;
  pe.note = (pe.note.empty() ? std::string("expand") : pe.note) + "; fused with " +
            (cm.note.empty() ? std::string("map") : cm.note);
  ExpP newOut = varExp(c.m, cm.outs[0]);
  int old0 = pe.outs[0];
  auto reshape = [&](const ExpP &e) -> ExpP {
    if (e->kind == Exp::Shape && e->args[0]->kind == Exp::Var && e->args[0]->var == old0 && e->axis == 0)
      return shapeExp(newOut, 0);
    return nullptr;
  };
  std::vector<StmtP> moved;
  for (size_t j : lens) {
    auto &lt = static_cast<Let &>(*c.b.stmts[j]);
    lt.value = rewriteExp(lt.value, reshape);
    moved.push_back(c.b.stmts[j]);
  }
  pe.outs = cm.outs;
  StmtP fused = c.b.stmts[pi];
  std::vector<StmtP> nb;
  for (size_t j = 0; j < c.b.stmts.size(); ++j) {
    if (j == pi || std::find(lens.begin(), lens.end(), j) != lens.end()) continue;
    if (j == ci) {
      nb.push_back(fused);
      nb.insert(nb.end(), moved.begin(), moved.end());
      continue;
    }
    nb.push_back(c.b.stmts[j]);
  }
  c.b.stmts = std::move(nb);
  return true;
}

bool fuseBlock(Ctx &c) {
  Block &b = c.b;
  // 0. A row-major copy of a fresh rank-2 array is a View (before the copy
  //    fuses into its consumer, so that the array itself can).
  for (size_t pi = 0; pi < b.stmts.size(); ++pi)
    if (b.stmts[pi]->kind == StmtKind::Map && flattenCopyIsView(c, pi)) return true;
  // 1. Map and Filter producers.
  for (size_t pi = 0; pi < b.stmts.size(); ++pi) {
    Stmt &P = *b.stmts[pi];
    bool isMap = P.kind == StmtKind::Map && !P.outs.empty();
    if ((!isMap && P.kind != StmtKind::Filter) || anyResult(c, P.outs)) continue;
    int ci = firstConsumer(b, pi, P.outs);
    if (ci < 0) continue;
    size_t cj = size_t(ci);
    if (isMap) {
      // A Map whose elements run a loop stays a Map before a Hist: on CPUs
      // the Hist's chunks add to their bins one element at a time (its
      // producer's loop runs scalar), where the Map's blocks vectorise
      // (PoCL, k-means' assignment over d = 2 columns as two arrays, 10^6
      // points into three histograms of one key: 30 ms fused, 2.2 + 2 apart);
      // on GPUs the keys' extra pass is small. (Several Hists of a Map with
      // loops: FuseMultiHist's plans by device, rule 5.)
      if (b.stmts[cj]->kind == StmtKind::Hist && blockHasKind(static_cast<Map &>(P).body, StmtKind::Loop)) continue;
      if (b.stmts[cj]->kind == StmtKind::Expand ? mapIntoExpand(c, pi, cj) : mapIntoConsumer(c, pi, cj)) return true;
    } else if (filterIntoReduce(c, pi, cj) || filterIntoConsumer(c, pi, cj)) {
      return true;
    }
  }
  // 2. One-statement rewrites.
  for (size_t pi = 0; pi < b.stmts.size(); ++pi) {
    if (countFilter(c, pi)) return true;
    if (b.stmts[pi]->kind == StmtKind::Map && flattenViewedMap(c, pi)) return true;
  }
  // 3. Expand producers.
  for (size_t pi = 0; pi < b.stmts.size(); ++pi) {
    Stmt &P = *b.stmts[pi];
    if (P.kind != StmtKind::Expand || static_cast<Expand &>(P).into == Expand::Reduce || anyResult(c, P.outs))
      continue;
    int ci = firstConsumer(b, pi, P.outs);
    if (ci < 0) continue;
    size_t cj = size_t(ci);
    if (static_cast<Expand &>(P).into == Expand::Filter) {
      if (filterIntoConsumer(c, pi, cj) || fuseExpandLoop(c.m, b, pi, cj, c.uses, c.resultVars)) return true;
    } else if (expandIntoConsumer(c, pi, cj) || expandIntoMap(c, pi, cj) ||
               fuseExpandLoop(c.m, b, pi, cj, c.uses, c.resultVars)) {
      return true;
    }
  }
  // 4. Horizontal.
  if (fuseHorizontal(c.m, b)) return true;
  // 5. A Map with the Hists that read it.
  if (fuseMultiHist(c.m, b, c.uses, c.resultVars)) return true;
  for (auto &s : b.stmts) {
    if (isDevicePlans(*s)) continue; // both plans are final
    if (s->kind == StmtKind::If || s->kind == StmtKind::Loop) {
      bool changed = false;
      forEachBlock(*s, [&](Block &in) {
        if (changed) return;
        Ctx inner{c.m, in, c.uses, c.resultVars};
        changed = fuseBlock(inner);
      });
      if (changed) return true;
    }
  }
  return false;
}

} // namespace

bool fuse(ir::Module &m) {
  bool any = false;
  for (auto &f : m.functions) {
    for (int it = 0; it < 1000; ++it) {
      std::map<int, int> uses;
      countBlock(f.body, uses);
      std::set<int> resultVars;
      for (auto &r : f.body.results) expVars(r, resultVars);
      Ctx c{m, f.body, uses, resultVars};
      if (!fuseBlock(c)) break;
      any = true;
    }
  }
  return any;
}

} // namespace arrc::passes
