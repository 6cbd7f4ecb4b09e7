// Fusion. Producer-consumer: a Map whose outputs are read only by one later
// SOAC, at that SOAC's own index, is substituted into the consumer's body
// (map-map, map-reduce, map-scan, map-filter, map-scatter/hist/seg ops,
// map-expand body); a Filter read only by a Reduce at its own index becomes
// one Reduce whose body guards the element (filter-reduce). Horizontal: two
// independent Maps over the same space become one Map (zip of maps).
#include "Passes.h"

#include <algorithm>
#include <map>

namespace arrc::passes {
using namespace ir;

static void countExp(const ExpP &e, std::map<int, int> &c) {
  if (!e) return;
  if (e->kind == Exp::Var) c[e->var]++;
  for (auto &a : e->args) countExp(a, c);
}
static void countBlock(const Block &b, std::map<int, int> &c);
static void countStmt(const Stmt &s, std::map<int, int> &c) {
  forEachExp(const_cast<Stmt &>(s), [&](ExpP &e) { countExp(e, c); });
  if (s.kind == StmtKind::Write) c[static_cast<const Write &>(s).array]++;
  forEachBlock(s, [&](const Block &b) { countBlock(b, c); });
}
static void countBlock(const Block &b, std::map<int, int> &c) {
  for (auto &s : b.stmts) countStmt(*s, c);
  for (auto &r : b.results) countExp(r, c);
}

// The index space of a SOAC with one per-element body.
struct Space {
  std::vector<ExpP> dims;
  std::vector<int> index;
  Block *body = nullptr;
};
static bool spaceOf(Stmt &s, Space &sp) {
  switch (s.kind) {
  case StmtKind::Map: { auto &x = static_cast<Map &>(s); sp = {x.dims, x.index, &x.body}; return true; }
  case StmtKind::Reduce: { auto &x = static_cast<Reduce &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  case StmtKind::Scan: { auto &x = static_cast<Scan &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  case StmtKind::Filter: { auto &x = static_cast<Filter &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  case StmtKind::Scatter: { auto &x = static_cast<Scatter &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  case StmtKind::Hist: { auto &x = static_cast<Hist &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  case StmtKind::SegScan: { auto &x = static_cast<SegScan &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  case StmtKind::SegReduce: { auto &x = static_cast<SegReduce &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  default: return false;
  }
}

static bool sameDims(const std::vector<ExpP> &a, const std::vector<ExpP> &b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!sameExp(a[i], b[i])) return false;
  return true;
}

// Counts reads of `arr` in b at exactly the index vars idx (good) and all uses.
static void readsAtIndex(const Block &b, int arr, const std::vector<int> &idx, int &good) {
  std::function<void(const ExpP &)> ex = [&](const ExpP &e) {
    if (!e) return;
    if (e->kind == Exp::Read && e->args[0]->kind == Exp::Var && e->args[0]->var == arr &&
        e->args.size() == idx.size() + 1) {
      bool ok = true;
      for (size_t k = 0; k < idx.size(); ++k)
        ok = ok && e->args[k + 1]->kind == Exp::Var && e->args[k + 1]->var == idx[k];
      if (ok) {
        good++;
        return;
      }
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
  bl(b);
}

// Replaces Read(arr_k, idx) by repl[k] in b.
static void replaceReads(Block &b, const std::map<int, ExpP> &repl) {
  rewriteBlock(b, [&](const ExpP &e) -> ExpP {
    if (e->kind == Exp::Read && e->args[0]->kind == Exp::Var) {
      auto it = repl.find(e->args[0]->var);
      if (it != repl.end()) return it->second;
    }
    return nullptr;
  });
}

// True if n is the length of array `out`: Shape(out, 0), or a Let-bound
// variable of that value used only here (letUses = uses of `out` by such Lets).
static bool isLengthOf(const ExpP &n, int out, const Block &b, std::map<int, int> &uses, int &letUses) {
  auto isShape = [&](const ExpP &e) {
    return e->kind == Exp::Shape && e->axis == 0 && e->args[0]->kind == Exp::Var && e->args[0]->var == out;
  };
  letUses = 0;
  if (isShape(n)) return true;
  if (n->kind != Exp::Var || uses[n->var] != 1) return false;
  for (auto &st : b.stmts)
    if (st->kind == StmtKind::Let && st->outs[0] == n->var && isShape(static_cast<const Let &>(*st).value)) {
      letUses = 1;
      return true;
    }
  return false;
}

// Inner sizes up to this constant are folded sequentially by expand-reduce.
static const int64_t kSmallInner = 16;

static bool fuseBlock(ir::Module &m, Block &b, std::map<int, int> &uses, std::set<int> &resultVars) {
  for (size_t pi = 0; pi < b.stmts.size(); ++pi) {
    Stmt &P = *b.stmts[pi];
    bool isMap = P.kind == StmtKind::Map && !P.outs.empty();
    bool isFilter = P.kind == StmtKind::Filter;
    if (!isMap && !isFilter && P.kind != StmtKind::Expand) continue;
    bool anyResult = false;
    for (int o : P.outs) anyResult = anyResult || resultVars.count(o);
    if (anyResult) continue;
    // Find the single consumer.
    int ci = -1;
    for (size_t j = pi + 1; j < b.stmts.size(); ++j) {
      if (b.stmts[j]->kind == StmtKind::Let) {
        auto &lv = static_cast<const Let &>(*b.stmts[j]).value;
        if (lv->kind == Exp::Shape && lv->args[0]->kind == Exp::Var && lv->args[0]->var == P.outs[0]) continue;
      }
      std::map<int, int> c;
      countStmt(*b.stmts[j], c);
      bool usesP = false;
      for (int o : P.outs) usesP = usesP || c.count(o);
      if (usesP) {
        ci = int(j);
        break;
      }
    }
    if (ci < 0) continue;
    Stmt &C = *b.stmts[ci];
    if (P.kind == StmtKind::Expand && C.kind == StmtKind::Reduce) {
      // expand-reduce: per outer element, a sequential fold of its inner
      // elements (no intermediate array), then the parallel Reduce.
      auto &pe = static_cast<Expand &>(P);
      auto &cr = static_cast<Reduce &>(C);
      int letUses = 0;
      if (!isLengthOf(cr.n, P.outs[0], b, uses, letUses)) continue;
      // Only when every inner size is a small constant: otherwise one outer
      // element with a long inner range would serialise the whole reduction.
      // Expand + Reduce is flat and work-efficient (load-balanced), so keep it.
      int64_t innerN = -1;
      bool small = !pe.size.results.empty() && constValue(pe.size.results[0], innerN) && innerN <= kSmallInner;
      if (!small) {
        // expand + reduce: move the Reduce's per-element computation into the
        // Expand's body (one column per reduced component instead of the
        // comprehension's columns); the Reduce then reads that column.
        bool trivial = cr.body.stmts.empty();
        for (auto &r : cr.body.results)
          trivial = trivial && r->kind == Exp::Read && r->args[0]->kind == Exp::Var &&
                    std::find(P.outs.begin(), P.outs.end(), r->args[0]->var) != P.outs.end();
        if (trivial) continue;
        bool okM = true;
        int goodAll = 0;
        for (int o : P.outs) {
          int good = 0;
          readsAtIndex(cr.body, o, {cr.index}, good);
          goodAll += good;
          okM = okM && uses[o] == good + (o == P.outs[0] ? 1 : 0);
        }
        std::map<int, int> cc;
        countBlock(cr.body, cc);
        if (!okM || cc[cr.index] != goodAll) continue;
        // The Reduce's body moves up to the Expand: it may not use anything
        // defined between them.
        std::set<int> between, bodyUses;
        for (size_t j = pi + 1; j < size_t(ci); ++j) stmtDefs(*b.stmts[j], between);
        blockUses(cr.body, bodyUses);
        bool dep = false;
        for (int v : bodyUses) dep = dep || between.count(v);
        if (dep) continue;
        std::map<int, ExpP> s3;
        Block rb = cloneFresh(m, cr.body, s3);
        std::map<int, ExpP> repl;
        for (size_t k = 0; k < P.outs.size(); ++k) repl[P.outs[k]] = pe.body.results[k];
        replaceReads(rb, repl);
        pe.body.stmts.insert(pe.body.stmts.end(), rb.stmts.begin(), rb.stmts.end());
        pe.body.results = rb.results;
        int old0 = P.outs[0];
        std::vector<int> nouts;
        cr.body = Block{};
        for (auto &r : rb.results) {
          int o = m.newVar("el", arrayT(r->type.elem, 1));
          nouts.push_back(o);
          cr.body.results.push_back(readExp(varExp(m, o), {varExp(m, cr.index)}));
        }
        P.outs = nouts;
        ExpP newLen = shapeExp(varExp(m, nouts[0]), 0);
        auto reshape = [&](const ExpP &e) -> ExpP {
          if (e->kind == Exp::Shape && e->args[0]->kind == Exp::Var && e->args[0]->var == old0 && e->axis == 0)
            return newLen;
          return nullptr;
        };
        for (size_t j = pi + 1; j <= size_t(ci); ++j)
          forEachExp(*b.stmts[j], [&](ExpP &e) { e = rewriteExp(e, reshape); });
        C.note = (C.note.empty() ? std::string("reduce") : C.note) + " (its elements computed in the expand)";
        return true;
      }
      bool okR = true;
      int goodAll = 0;
      for (int o : P.outs) {
        int good = 0;
        readsAtIndex(cr.body, o, {cr.index}, good);
        goodAll += good;
        okR = okR && uses[o] == good + (o == P.outs[0] ? 1 : 0);
      }
      std::map<int, int> cc;
      countBlock(cr.body, cc);
      if (!okR || cc[cr.index] != goodAll) continue;
      int ni = m.newVar("i", scalarT(ScalarKind::Long));
      int nj = m.newVar("j", scalarT(ScalarKind::Long));
      std::map<int, ExpP> s1{{pe.index, varExp(m, ni)}};
      Block sz = cloneFresh(m, pe.size, s1);
      auto loop = std::make_shared<ir::Loop>();
      loop->form = ir::Loop::For;
      loop->count = sz.results[0];
      loop->index = nj;
      loop->init = cr.ne;
      std::vector<ExpP> accs;
      for (auto &e : cr.ne) {
        int pv = m.newVar("acc", e->type);
        loop->params.push_back(pv);
        accs.push_back(varExp(m, pv));
      }
      std::map<int, ExpP> s2{{pe.index, varExp(m, ni)}, {pe.inner, varExp(m, nj)}};
      Block eb = cloneFresh(m, pe.body, s2);
      std::map<int, ExpP> repl;
      for (size_t k = 0; k < P.outs.size(); ++k) repl[P.outs[k]] = eb.results[k];
      std::map<int, ExpP> s3;
      Block elem = cloneFresh(m, cr.body, s3);
      replaceReads(elem, repl);
      std::map<int, ExpP> s4;
      size_t K = cr.ne.size();
      for (size_t k = 0; k < K; ++k) {
        s4[cr.op.params[k]] = accs[k];
        s4[cr.op.params[K + k]] = elem.results[k];
      }
      Block opb = cloneFresh(m, cr.op.body, s4);
      Block lb;
      lb.stmts = eb.stmts;
      lb.stmts.insert(lb.stmts.end(), elem.stmts.begin(), elem.stmts.end());
      lb.stmts.insert(lb.stmts.end(), opb.stmts.begin(), opb.stmts.end());
      lb.results = opb.results;
      loop->body = lb;
      Block nb;
      nb.stmts = sz.stmts;
      for (auto &e : cr.ne) {
        int o = m.newVar("part", e->type);
        loop->outs.push_back(o);
        nb.results.push_back(varExp(m, o));
      }
      nb.stmts.push_back(loop);
      cr.body = nb;
      cr.index = ni;
      cr.n = pe.n;
      C.note = (C.note.empty() ? std::string("reduce") : C.note) + "; fused with " + P.note + " (inner elements folded sequentially)";
      b.stmts.erase(b.stmts.begin() + pi);
      return true;
    }
    if (P.kind == StmtKind::Expand && C.kind == StmtKind::Map && !C.outs.empty()) {
      // expand-map: the Map's body is appended to the Expand's body (its
      // reads of the Expand's outputs at the Map's index become the Expand
      // body's results); the Expand then yields the Map's outputs.
      auto &pe = static_cast<Expand &>(P);
      auto &cm = static_cast<Map &>(C);
      if (cm.dims.size() != 1) continue;
      int letUses = 0;
      if (!isLengthOf(cm.dims[0], P.outs[0], b, uses, letUses)) continue;
      bool okM = true;
      int goodAll = 0;
      for (int o : P.outs) {
        int good = 0;
        readsAtIndex(cm.body, o, {cm.index[0]}, good);
        goodAll += good;
        okM = okM && uses[o] == good + (o == P.outs[0] ? 1 : 0);
      }
      std::map<int, int> cc;
      countBlock(cm.body, cc);
      if (!okM || cc[cm.index[0]] != goodAll) continue;
      // Length Lets of P between P and C move after the fused statement
      // (which sits at C's place); each must be used only by C.
      std::vector<size_t> lens;
      bool okL = true;
      std::map<int, int> cC;
      countStmt(C, cC);
      for (size_t j = pi + 1; j < size_t(ci); ++j) {
        std::map<int, int> c1;
        countStmt(*b.stmts[j], c1);
        bool usesP = false;
        for (int o : P.outs) usesP = usesP || c1.count(o);
        if (!usesP) continue;
        int lv = b.stmts[j]->outs.empty() ? -1 : b.stmts[j]->outs[0];
        okL = okL && b.stmts[j]->kind == StmtKind::Let && lv >= 0 && uses[lv] == cC[lv];
        lens.push_back(j);
      }
      if (!okL) continue;
      std::map<int, ExpP> s3;
      Block mb = cloneFresh(m, cm.body, s3);
      std::map<int, ExpP> repl;
      for (size_t k = 0; k < P.outs.size(); ++k) repl[P.outs[k]] = pe.body.results[k];
      replaceReads(mb, repl);
      pe.body.stmts.insert(pe.body.stmts.end(), mb.stmts.begin(), mb.stmts.end());
      pe.body.results = mb.results;
      P.note = (P.note.empty() ? std::string("expand") : P.note) + "; fused with " +
               (C.note.empty() ? std::string("map") : C.note);
      ExpP newOut = varExp(m, cm.outs[0]);
      auto reshape = [&](const ExpP &e) -> ExpP {
        if (e->kind == Exp::Shape && e->args[0]->kind == Exp::Var && e->args[0]->var == P.outs[0] && e->axis == 0)
          return shapeExp(newOut, 0);
        return nullptr;
      };
      std::vector<StmtP> moved;
      for (size_t j : lens) {
        auto &lt = static_cast<Let &>(*b.stmts[j]);
        lt.value = rewriteExp(lt.value, reshape);
        moved.push_back(b.stmts[j]);
      }
      pe.outs = cm.outs;
      StmtP fused = b.stmts[pi];
      std::vector<StmtP> nb;
      for (size_t j = 0; j < b.stmts.size(); ++j) {
        if (j == pi || std::find(lens.begin(), lens.end(), j) != lens.end()) continue;
        if (int(j) == ci) {
          nb.push_back(fused);
          nb.insert(nb.end(), moved.begin(), moved.end());
          continue;
        }
        nb.push_back(b.stmts[j]);
      }
      b.stmts = std::move(nb);
      return true;
    }
    if (isMap && C.kind == StmtKind::Expand) {
      // map-expand: the producer's body goes into both the size and the body block.
      auto &pm = static_cast<Map &>(P);
      auto &ce = static_cast<Expand &>(C);
      if (!sameDims(pm.dims, {ce.n})) continue;
      bool okE = true;
      for (int o : P.outs) {
        int good = 0;
        readsAtIndex(ce.size, o, {ce.index}, good);
        readsAtIndex(ce.body, o, {ce.index}, good);
        okE = okE && uses[o] == good;
      }
      okE = okE && uses[P.outs[0]] + 0 >= 0;
      {
        int anyE = 0;
        for (int o : P.outs) { int g = 0; readsAtIndex(ce.size, o, {ce.index}, g); readsAtIndex(ce.body, o, {ce.index}, g); anyE += g; }
        okE = okE && anyE > 0;
      }
      if (!okE) continue;
      for (Block *blk : {&ce.size, &ce.body}) {
        std::map<int, ExpP> sub;
        sub[pm.index[0]] = varExp(m, ce.index);
        Block pb = cloneFresh(m, pm.body, sub);
        std::map<int, ExpP> repl;
        for (size_t k = 0; k < P.outs.size(); ++k) repl[P.outs[k]] = pb.results[k];
        replaceReads(*blk, repl);
        blk->stmts.insert(blk->stmts.begin(), pb.stmts.begin(), pb.stmts.end());
      }
      if (!P.note.empty()) C.note += "; fused with " + P.note;
      b.stmts.erase(b.stmts.begin() + pi);
      return true;
    }
    Space cs;
    if (!spaceOf(C, cs)) continue;
    // All uses of P's outs are reads in C's body at C's own index.
    bool ok = true;
    // A Filter's consumer may also take its length (the Reduce's n).
    int letUses = 0;
    bool nIsShape = isFilter && C.kind == StmtKind::Reduce && isLengthOf(cs.dims[0], P.outs[0], b, uses, letUses);
    int anyGood = 0;
    for (int o : P.outs) {
      int good = 0;
      readsAtIndex(*cs.body, o, cs.index, good);
      anyGood += good;
      if (nIsShape && o == P.outs[0]) good++;
      ok = ok && uses[o] == good;
    }
    ok = ok && anyGood > 0;
    if (!ok) continue;
    if (isMap) {
      auto &pm = static_cast<Map &>(P);
      auto resolve = [&](std::vector<ExpP> ds) {
        for (auto &d : ds)
          if (d->kind == Exp::Var)
            for (auto &st : b.stmts)
              if (st->kind == StmtKind::Let && st->outs[0] == d->var) d = static_cast<const Let &>(*st).value;
        return ds;
      };
      if (!sameDims(pm.dims, cs.dims) && !sameDims(resolve(pm.dims), resolve(cs.dims))) continue;
      std::map<int, ExpP> sub;
      for (size_t k = 0; k < pm.index.size(); ++k) sub[pm.index[k]] = varExp(m, cs.index[k]);
      Block pb = cloneFresh(m, pm.body, sub);
      std::map<int, ExpP> repl;
      for (size_t k = 0; k < P.outs.size(); ++k) repl[P.outs[k]] = pb.results[k];
      replaceReads(*cs.body, repl);
      cs.body->stmts.insert(cs.body->stmts.begin(), pb.stmts.begin(), pb.stmts.end());
      std::string note = C.note.empty() ? P.note : C.note;
      if (!P.note.empty() && !C.note.empty() && C.note != P.note) note = C.note + "; fused with " + P.note;
      C.note = note;
      b.stmts.erase(b.stmts.begin() + pi);
      return true;
    }
    // Filter -> Reduce.
    if (C.kind != StmtKind::Reduce || !nIsShape) continue;
    auto &pf = static_cast<Filter &>(P);
    auto &cr = static_cast<Reduce &>(C);
    // C's index may be used only in the reads of P.
    std::map<int, int> cc;
    countBlock(cr.body, cc);
    int good = 0;
    for (int o : P.outs) readsAtIndex(cr.body, o, {cr.index}, good);
    if (cc[cr.index] != good) continue;
    std::map<int, ExpP> sub;
    int ni = m.newVar("i", scalarT(ScalarKind::Long));
    sub[pf.index] = varExp(m, ni);
    Block pb = cloneFresh(m, pf.body, sub);
    std::map<int, ExpP> repl;
    for (size_t k = 0; k < P.outs.size(); ++k) repl[P.outs[k]] = pb.results[k + 1];
    Block guarded = cr.body;
    replaceReads(guarded, repl);
    auto g = std::make_shared<ir::If>();
    g->cond = pb.results[0];
    g->thenB = guarded;
    g->elseB.results = cr.ne;
    Block nb;
    nb.stmts = pb.stmts;
    for (auto &r : guarded.results) {
      int o = m.newVar("e", r->type);
      g->outs.push_back(o);
      nb.results.push_back(varExp(m, o));
    }
    nb.stmts.push_back(g);
    cr.body = nb;
    cr.index = ni;
    cr.n = pf.n;
    C.note = C.note.empty() ? P.note : C.note + "; fused with " + P.note;
    b.stmts.erase(b.stmts.begin() + pi);
    return true;
  }
  // Horizontal fusion of independent Maps over the same space.
  for (size_t i = 0; i < b.stmts.size(); ++i) {
    if (b.stmts[i]->kind != StmtKind::Map || b.stmts[i]->outs.empty()) continue;
    auto &a = static_cast<Map &>(*b.stmts[i]);
    for (size_t j = i + 1; j < b.stmts.size(); ++j) {
      std::map<int, int> c;
      countStmt(*b.stmts[j], c);
      bool dep = false;
      for (int o : a.outs) dep = dep || c.count(o);
      if (dep) break; // a later statement uses a's outputs: stop here
      if (b.stmts[j]->kind != StmtKind::Map || b.stmts[j]->outs.empty()) continue;
      auto &bm = static_cast<Map &>(*b.stmts[j]);
      if (!sameDims(a.dims, bm.dims)) continue;
      std::map<int, ExpP> sub;
      for (size_t k = 0; k < a.index.size(); ++k) sub[a.index[k]] = varExp(m, bm.index[k]);
      Block ab = cloneFresh(m, a.body, sub);
      bm.body.stmts.insert(bm.body.stmts.begin(), ab.stmts.begin(), ab.stmts.end());
      bm.body.results.insert(bm.body.results.begin(), ab.results.begin(), ab.results.end());
      bm.outs.insert(bm.outs.begin(), a.outs.begin(), a.outs.end());
      if (!a.note.empty()) bm.note = bm.note.empty() ? a.note : a.note + "; " + bm.note;
      b.stmts.erase(b.stmts.begin() + i);
      return true;
    }
  }
  for (auto &s : b.stmts) {
    if (s->kind == StmtKind::If || s->kind == StmtKind::Loop) {
      bool changed = false;
      forEachBlock(*s, [&](Block &in) { changed = changed || fuseBlock(m, in, uses, resultVars); });
      if (changed) return true;
    }
  }
  return false;
}

bool fuse(ir::Module &m) {
  bool any = false;
  for (auto &f : m.functions) {
    for (int it = 0; it < 1000; ++it) {
      std::map<int, int> uses;
      countBlock(f.body, uses);
      std::set<int> resultVars;
      for (auto &r : f.body.results) expVars(r, resultVars);
      if (!fuseBlock(m, f.body, uses, resultVars)) break;
      any = true;
    }
  }
  return any;
}

} // namespace arrc::passes
