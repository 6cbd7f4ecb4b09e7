// Map + histograms in one pass (part of the fuse pass, Fuse.cpp step 5).
// A rank-1 Map whose outputs are read only by Hists, each over the Map's
// index space or over a row-major flattening of it by an extent B (the
// `[ids[i] * d + j | i <- iota(M), j <- iota(d)]` of a k-means step), becomes
// one MultiHist: for each i, the Map's body, then each Hist's body with its
// reads of the Map replaced by the values just computed -- inside a loop
// j < B for a flattened one -- adding its values to its histograms. The
// Map's outputs are never stored and the index space is walked once.
//
// Conditions: every read of the Map is at the Hist's row (i itself, or
// long(int(i)) when i < 2^31); each Hist's operator is one the runtime
// updates atomically, with its identity as neutral element
// (ir::neutralIsIdentity), so the order of the additions does not matter;
// a flattened Hist's index is split by exactly B (its `idx / B` and
// `idx % B` become i and j; a division by another loop-invariant extent D
// becomes a quotient and remainder the loop steps on, or i and j again
// where D == B at run time; anything else reads i * B + j); the Hists can
// move to the last one's place (nothing between uses an earlier one's
// outputs). Every value is still evaluated, bins in range or not.
//
// The multihist is one of two plans of an If on items_in_one_pass() (the
// device's choice, arrc::Context::items_in_one_pass): CPUs take it, GPUs the
// map and the hists as they were. Fusion does not look inside that If again.
#include "FuseSupport.h"

#include <climits>
#include <functional>

namespace arrc::passes {
using namespace ir;

namespace {

// e with let-bound variables looked through (the expression itself, not
// its arguments).
const ExpP &resolve(const ExpP &e, const std::map<int, ExpP> &lets, int depth = 0) {
  if (e && e->kind == Exp::Var && depth < 32) {
    auto it = lets.find(e->var);
    if (it != lets.end()) return resolve(it->second, lets, depth + 1);
  }
  return e;
}

// e is the row index i: i itself, or long(int(i)) when i < 2^31 (`small`:
// an extent that i stays below is an int converted to long).
bool isRow(const ExpP &e, int i, bool small, const std::map<int, ExpP> &lets) {
  const ExpP &r = resolve(e, lets);
  if (r->kind == Exp::Var) return r->var == i;
  if (r->kind != Exp::Convert || r->type.elem != ScalarKind::Long || !small) return false;
  const ExpP &a = resolve(r->args[0], lets);
  return a->kind == Exp::Convert && a->type.elem == ScalarKind::Int &&
         a->args[0]->type.elem == ScalarKind::Long && isRow(a->args[0], i, small, lets);
}

// Facts about a host extent in canonical form (DimFacts::canon): it is
// never negative / it is at most INT_MAX.
bool nonNegative(const ExpP &e) {
  int64_t v = 0;
  if (constValue(e, v)) return v >= 0;
  if (e->kind == Exp::Shape) return true;
  if (e->kind == Exp::Call && e->fn == "max" && e->args.size() == 2)
    return nonNegative(e->args[0]) || nonNegative(e->args[1]);
  if (e->kind == Exp::Binary && (e->binop == BinOp::Mul || e->binop == BinOp::Add))
    return nonNegative(e->args[0]) && nonNegative(e->args[1]);
  return false;
}
bool fitsInt(const ExpP &e) {
  int64_t v = 0;
  if (constValue(e, v)) return v <= INT_MAX;
  if (e->kind == Exp::Convert) return e->args[0]->type.elem == ScalarKind::Int || e->args[0]->type.elem == ScalarKind::Bool;
  if (e->kind == Exp::Call && e->fn == "max" && e->args.size() == 2) return fitsInt(e->args[0]) && fitsInt(e->args[1]);
  if (e->kind == Exp::Call && e->fn == "min" && e->args.size() == 2) return fitsInt(e->args[0]) || fitsInt(e->args[1]);
  return false;
}

// A Hist's histograms as MultiHist ones: the scalar operator of component
// k (fresh parameters), appended to mh with its bins and neutral element.
void addHistograms(ir::Module &m, MultiHist &mh, const Hist &h) {
  size_t K = h.ne.size();
  for (size_t k = 0; k < K; ++k) {
    ir::Lambda op;
    int a = m.newVar(m.vars[h.op.params[k]].name, m.vars[h.op.params[k]].type);
    int b = m.newVar(m.vars[h.op.params[K + k]].name, m.vars[h.op.params[K + k]].type);
    op.params = {a, b};
    std::map<int, ExpP> sub{{h.op.params[k], varExp(m, a)}, {h.op.params[K + k], varExp(m, b)}};
    op.body.results = {substitute(h.op.body.results[k], sub)};
    mh.ops.push_back(std::move(op));
    mh.bins.push_back(h.bins);
    mh.ne.push_back(h.ne[k]);
    mh.outs.push_back(h.outs[k]);
  }
}

// idx / d and idx % d of a flattened Hist's index, carried by its loop.
struct Carried {
  ExpP d;
  int q, r;
};

struct Fuser {
  ir::Module &m;
  Block &b;
  std::map<int, int> &uses;
  const std::set<int> &resultVars;
  std::vector<Carried> loopState = {}; // of the flattened Hist being built

  // The Map at pi and its Hists, or false.
  bool tryMap(size_t pi) {
    auto &pm = static_cast<Map &>(*b.stmts[pi]);
    if (pm.outs.empty() || pm.dims.size() != 1) return false;
    for (int o : pm.outs)
      if (resultVars.count(o)) return false;
    std::vector<size_t> hists;
    std::map<int, int> seen;
    for (size_t j = pi + 1; j < b.stmts.size(); ++j) {
      std::map<int, int> c;
      countStmt(*b.stmts[j], c);
      bool used = false;
      for (int o : pm.outs)
        if (c.count(o)) used = true, seen[o] += c[o];
      if (!used) continue;
      if (b.stmts[j]->kind != StmtKind::Hist) return false;
      hists.push_back(j);
    }
    if (hists.empty()) return false;
    for (int o : pm.outs)
      if (seen[o] != uses[o]) return false;
    for (size_t j : hists) {
      auto &h = static_cast<const Hist &>(*b.stmts[j]);
      if (!neutralIsIdentity(h.op, h.ne)) return false;
      for (int o : h.outs)
        if (m.vars[o].type.elem == ScalarKind::Bool) return false;
    }
    size_t last = hists.back();
    for (size_t k = 0; k + 1 < hists.size(); ++k)
      for (size_t j = hists[k] + 1; j <= last; ++j)
        if (usesAny(*b.stmts[j], b.stmts[hists[k]]->outs)) return false;

    DimFacts facts(b, last);
    ExpP n = facts.canon(pm.dims[0]);
    if (!nonNegative(n)) return false;
    bool small = fitsInt(n);
    auto mh = std::make_shared<MultiHist>();
    mh->n = pm.dims[0];
    mh->index = m.newVar("i", scalarT(ScalarKind::Long));
    std::map<int, ExpP> sub{{pm.index[0], varExp(m, mh->index)}};
    Block pb = cloneFresh(m, pm.body, sub);
    mh->body.stmts = pb.stmts;
    std::map<int, ExpP> value;
    for (size_t k = 0; k < pm.outs.size(); ++k) value[pm.outs[k]] = pb.results[k];
    std::string note = pm.note.empty() ? "map" : pm.note;
    bool flattened = false;
    for (size_t j : hists) {
      auto &h = static_cast<Hist &>(*b.stmts[j]);
      std::vector<StmtP> part;
      if (!histPart(facts, h, *mh, value, small, part, flattened)) return false;
      mh->body.stmts.insert(mh->body.stmts.end(), part.begin(), part.end());
      note += " + " + (h.note.empty() ? std::string("hist") : h.note);
    }
    // one direct Hist alone: map-hist fusion (rule 1) is the better form
    if (hists.size() == 1 && !flattened) return false;
    mh->note = note + " (one pass: " + std::to_string(hists.size()) + " histograms)";
    mh->span = b.stmts[last]->span;
    // Two plans, chosen at run time by the device: the multihist (CPUs), or
    // the map and the hists as they were (GPUs: there items of one warp that
    // share a key would add to the same bins at once, where the hists'
    // own order of elements spreads them). Both define fresh variables;
    // the If defines the hists' outputs.
    auto plans = std::make_shared<ir::If>();
    plans->note = kDevicePlansNote;
    plans->span = mh->span;
    plans->cond = callExp("items_in_one_pass", {}, ScalarKind::Bool);
    auto fresh = [&](int v) { return m.newVar(m.vars[v].name, m.vars[v].type); };
    for (int &o : mh->outs) {
      plans->outs.push_back(o);
      o = fresh(o);
      plans->thenB.results.push_back(varExp(m, o));
    }
    plans->thenB.stmts = {mh};
    plans->elseB.stmts = {b.stmts[pi]};
    for (size_t j : hists) {
      for (int &o : b.stmts[j]->outs) {
        o = fresh(o);
        plans->elseB.results.push_back(varExp(m, o));
      }
      plans->elseB.stmts.push_back(b.stmts[j]);
    }
    std::vector<StmtP> nb;
    for (size_t j = 0; j < b.stmts.size(); ++j) {
      if (j == pi || (j != last && std::find(hists.begin(), hists.end(), j) != hists.end())) continue;
      nb.push_back(j == last ? StmtP(plans) : b.stmts[j]);
    }
    b.stmts = std::move(nb);
    return true;
  }

  // Hist h as statements of the MultiHist body (HistAdds, in a loop over
  // j < B when it is flattened), its reads of the Map replaced by `value`.
  bool histPart(DimFacts &facts, const Hist &h, MultiHist &mh, const std::map<int, ExpP> &value, bool small,
                std::vector<StmtP> &out, bool &flattened) {
    int i = mh.index;
    loopState.clear();
    Block item;
    int j = -1;
    ExpP B;
    if (facts.equal(h.n, mh.n)) {
      small = small || fitsInt(facts.canon(h.n));  // i < h.n, the same extent
      std::map<int, ExpP> sub{{h.index, varExp(m, i)}};
      item = cloneFresh(m, h.body, sub);
    } else {
      // h.n = A * B with A the Map's extent: element idx is (idx / B, idx % B)
      std::map<int, ExpP> hostLets;
      for (auto &s : b.stmts)
        if (s->kind == StmtKind::Let) hostLets[s->outs[0]] = static_cast<const Let &>(*s).value;
      const ExpP &prod = resolve(h.n, hostLets);
      if (prod->kind != Exp::Binary || prod->binop != BinOp::Mul || !facts.equal(prod->args[0], mh.n)) return false;
      small = small || fitsInt(facts.canon(prod->args[0]));
      B = prod->args[1];
      if (!nonNegative(facts.canon(B))) return false;
      int idx = m.newVar("idx", scalarT(ScalarKind::Long));
      std::map<int, ExpP> sub{{h.index, varExp(m, idx)}};
      item = cloneFresh(m, h.body, sub);
      j = m.newVar("j", scalarT(ScalarKind::Long));
      // idx / B and idx % B: i and j; idx / D and idx % D for another
      // extent D of the loop (flatten(P)'s P.shape(1), equal to B only at
      // run time): carried by the loop, stepped on instead of divided
      std::set<int> inner;
      blockDefs(item, inner);
      inner.insert(idx);
      std::map<std::string, size_t> carriedOf;
      std::vector<Carried> carried;
      rewriteBlock(item, [&](const ExpP &x) -> ExpP {
        if (x->kind != Exp::Binary || (x->binop != BinOp::Div && x->binop != BinOp::Mod)) return nullptr;
        if (x->args[0]->kind != Exp::Var || x->args[0]->var != idx) return nullptr;
        bool div = x->binop == BinOp::Div;
        if (facts.equal(x->args[1], B)) return varExp(m, div ? i : j);
        std::set<int> dv;
        expVars(x->args[1], dv);
        for (int v : dv)
          if (inner.count(v)) return nullptr;
        if (x->args[1]->type.elem != ScalarKind::Long || !nonNegative(facts.canon(x->args[1]))) return nullptr;
        auto [it, fresh] = carriedOf.emplace(expKey(x->args[1]), carried.size());
        if (fresh)
          carried.push_back({x->args[1], m.newVar("q", scalarT(ScalarKind::Long)), m.newVar("r", scalarT(ScalarKind::Long))});
        return varExp(m, div ? carried[it->second].q : carried[it->second].r);
      });
      std::map<int, ExpP> at{{idx, addL(mulL(varExp(m, i), B), varExp(m, j))}};
      substituteBlock(item, at);
      loopState = carried;
      flattened = true;
    }
    // the Map's outputs read at row i become the values of this element
    std::map<int, ExpP> lets;
    collectLets(item, lets);
    rewriteBlock(item, [&](const ExpP &x) -> ExpP {
      if (x->kind != Exp::Read || x->args.size() != 2 || x->args[0]->kind != Exp::Var) return nullptr;
      auto it = value.find(x->args[0]->var);
      if (it == value.end() || !isRow(x->args[1], i, small, lets)) return nullptr;
      return it->second;
    });
    std::map<int, int> left;
    countBlock(item, left);
    for (auto &kv : value)
      if (left.count(kv.first)) return false;
    size_t first = mh.ops.size();
    addHistograms(m, mh, h);
    for (size_t k = 0; k + 1 < item.results.size(); ++k) {
      auto add = std::make_shared<HistAdd>();
      add->hist = static_cast<int>(first + k);
      add->bin = toLong(item.results[0]);
      add->value = item.results[1 + k];
      item.stmts.push_back(add);
    }
    if (j < 0) {
      out = item.stmts;
      return true;
    }
    auto loop = std::make_shared<ir::Loop>();
    loop->form = ir::Loop::For;
    loop->index = j;
    loop->count = B;
    loop->body.stmts = item.stmts;
    // (q, r) = divmod(i * B + j, D): from divmod(i * B, D), then r + 1 and
    // a carry into q at D (D = 0: both stay 0, as x / 0 and x % 0)
    for (const Carried &c : loopState) {
      ExpP start = mulL(varExp(m, i), B);
      loop->params.insert(loop->params.end(), {c.q, c.r});
      loop->init.push_back(binaryExp(BinOp::Div, start, c.d));
      loop->init.push_back(binaryExp(BinOp::Mod, start, c.d));
      ExpP r1 = addL(varExp(m, c.r), constLong(1));
      ExpP wrap = binaryExp(BinOp::Ge, r1, c.d);
      ExpP carry = binaryExp(BinOp::And, wrap, binaryExp(BinOp::Gt, c.d, constLong(0)));
      loop->body.results.push_back(selectExp(carry, addL(varExp(m, c.q), constLong(1)), varExp(m, c.q)));
      loop->body.results.push_back(selectExp(wrap, constLong(0), r1));
      loop->outs.push_back(m.newVar("q", scalarT(ScalarKind::Long)));
      loop->outs.push_back(m.newVar("r", scalarT(ScalarKind::Long)));
    }
    if (loopState.empty()) {
      out = {loop};
      return true;
    }
    // Where every such D equals B at run time (k-means: P.shape(1) == d),
    // the quotient is i and the remainder j: a loop without that state,
    // whose reads walk the item's own row (PoCL, k-means: 7.2 -> 5.1 ms per
    // step on one thread: the stepping's selects no longer chain the adds).
    int jf = m.newVar("j", scalarT(ScalarKind::Long));
    std::map<int, ExpP> rowSub{{j, varExp(m, jf)}};
    ExpP same;
    for (const Carried &c : loopState) {
      rowSub[c.q] = varExp(m, i);
      rowSub[c.r] = varExp(m, jf);
      ExpP eq = binaryExp(BinOp::Eq, c.d, B);
      same = same ? binaryExp(BinOp::And, same, eq) : eq;
    }
    Block row;
    row.stmts = item.stmts;
    row = cloneFresh(m, row, rowSub);
    auto fast = std::make_shared<ir::Loop>();
    fast->form = ir::Loop::For;
    fast->index = jf;
    fast->count = B;
    fast->body.stmts = row.stmts;
    auto pick = std::make_shared<ir::If>();
    pick->cond = same;
    pick->thenB.stmts = {fast};
    pick->elseB.stmts = {loop};
    out = {pick};
    return true;
  }
};

} // namespace

const char *const kDevicePlansNote = "plans by device: one pass (CPUs) or the map, then the hists (GPUs)";

bool isDevicePlans(const ir::Stmt &s) {
  return s.kind == StmtKind::If &&
         (s.note == kDevicePlansNote || s.note == kExpandLoopPlansNote || s.note == kReduceRowsPlansNote);
}

bool fuseMultiHist(ir::Module &m, ir::Block &b, std::map<int, int> &uses, const std::set<int> &resultVars) {
  Fuser f{m, b, uses, resultVars};
  for (size_t pi = 0; pi < b.stmts.size(); ++pi)
    if (b.stmts[pi]->kind == StmtKind::Map && f.tryMap(pi)) return true;
  return false;
}

} // namespace arrc::passes
