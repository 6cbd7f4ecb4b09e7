// Horizontal fusion (part of the fuse pass, Fuse.cpp step 4): independent
// SOACs of one block over the same index space become one SOAC.
//  * zip of maps: two Maps over the same dims become one Map with both
//    outputs;
//  * histograms: two Hists with the same bins, the same n and the same bin
//    expression (structurally, once the body's Lets are substituted and the
//    index renamed) become one Hist with the components of both (outs, values,
//    ne concatenated; operator params ordered (a0..aK-1, b0..bK-1) as IR.h
//    requires), so that e.g. counts and per-dimension sums over the same keys
//    are one pass over the keys.
// "Independent": no statement from the first to the second uses the first's
// outputs; the fused statement takes the second's place.
#include "FuseSupport.h"

namespace arrc::passes {
using namespace ir;

namespace {

bool fuseMaps(ir::Module &m, Map &a, Map &bm) {
  if (!sameDims(a.dims, bm.dims)) return false;
  std::map<int, ExpP> sub;
  for (size_t k = 0; k < a.index.size(); ++k) sub[a.index[k]] = varExp(m, bm.index[k]);
  Block ab = cloneFresh(m, a.body, sub);
  bm.body.stmts.insert(bm.body.stmts.begin(), ab.stmts.begin(), ab.stmts.end());
  bm.body.results.insert(bm.body.results.begin(), ab.results.begin(), ab.results.end());
  bm.outs.insert(bm.outs.begin(), a.outs.begin(), a.outs.end());
  if (!a.note.empty()) bm.note = bm.note.empty() ? a.note : a.note + "; " + bm.note;
  return true;
}

// The bin expression of a Hist with the body's top-level Lets substituted
// and the index renamed to `index`.
ExpP binExpression(const Hist &h, int index) {
  std::map<int, ExpP> lets;
  for (auto &s : h.body.stmts)
    if (s->kind == StmtKind::Let) lets[s->outs[0]] = static_cast<const Let &>(*s).value;
  std::map<int, ExpP> sub{{h.index, varExp(index, scalarT(ScalarKind::Long))}};
  std::function<ExpP(const ExpP &, int)> inl = [&](const ExpP &e, int depth) -> ExpP {
    return rewriteExp(e, [&](const ExpP &x) -> ExpP {
      if (x->kind != Exp::Var) return nullptr;
      auto it = sub.find(x->var);
      if (it != sub.end()) return it->second;
      auto lt = lets.find(x->var);
      if (lt != lets.end() && depth < 64) return inl(lt->second, depth + 1);
      return nullptr;
    });
  };
  return inl(h.body.results.at(0), 0);
}

bool fuseHists(ir::Module &m, const Block &b, size_t j, Hist &a, Hist &h) {
  DimFacts facts(b, j);
  if (!facts.equal(a.bins, h.bins) || !facts.equal(a.n, h.n)) return false;
  if (!sameExp(binExpression(a, h.index), binExpression(h, h.index))) return false;
  std::map<int, ExpP> sub{{a.index, varExp(m, h.index)}};
  Block ab = cloneFresh(m, a.body, sub);
  size_t Ka = a.ne.size(), Kh = h.ne.size();
  // body: a's statements, then h's; yield (bin, a's values, h's values)
  std::vector<ExpP> res = {h.body.results[0]};
  res.insert(res.end(), ab.results.begin() + 1, ab.results.end());
  res.insert(res.end(), h.body.results.begin() + 1, h.body.results.end());
  ab.stmts.insert(ab.stmts.end(), h.body.stmts.begin(), h.body.stmts.end());
  h.body.stmts = std::move(ab.stmts);
  h.body.results = std::move(res);
  // operator: (a's accumulators, h's, a's elements, h's)
  ir::Lambda op;
  op.params.assign(a.op.params.begin(), a.op.params.begin() + Ka);
  op.params.insert(op.params.end(), h.op.params.begin(), h.op.params.begin() + Kh);
  op.params.insert(op.params.end(), a.op.params.begin() + Ka, a.op.params.end());
  op.params.insert(op.params.end(), h.op.params.begin() + Kh, h.op.params.end());
  op.body.stmts = a.op.body.stmts;
  op.body.stmts.insert(op.body.stmts.end(), h.op.body.stmts.begin(), h.op.body.stmts.end());
  op.body.results = a.op.body.results;
  op.body.results.insert(op.body.results.end(), h.op.body.results.begin(), h.op.body.results.end());
  h.op = std::move(op);
  h.ne.insert(h.ne.begin(), a.ne.begin(), a.ne.end());
  h.outs.insert(h.outs.begin(), a.outs.begin(), a.outs.end());
  const std::string tag = " (histograms over the same bins)";
  auto part = [&](const std::string &n) {
    if (n.empty()) return std::string("hist");
    if (n.size() > tag.size() && n.compare(n.size() - tag.size(), tag.size(), tag) == 0)
      return n.substr(0, n.size() - tag.size());
    return n;
  };
  h.note = part(a.note) + " + " + part(h.note) + tag;
  return true;
}

} // namespace

bool fuseHorizontal(ir::Module &m, Block &b) {
  for (size_t i = 0; i < b.stmts.size(); ++i) {
    StmtKind k = b.stmts[i]->kind;
    if ((k != StmtKind::Map && k != StmtKind::Hist) || b.stmts[i]->outs.empty()) continue;
    for (size_t j = i + 1; j < b.stmts.size(); ++j) {
      if (usesAny(*b.stmts[j], b.stmts[i]->outs)) break; // depends on the first: stop here
      if (b.stmts[j]->kind != k || b.stmts[j]->outs.empty()) continue;
      bool fused = k == StmtKind::Map
                       ? fuseMaps(m, static_cast<Map &>(*b.stmts[i]), static_cast<Map &>(*b.stmts[j]))
                       : fuseHists(m, b, j, static_cast<Hist &>(*b.stmts[i]), static_cast<Hist &>(*b.stmts[j]));
      if (fused) {
        b.stmts.erase(b.stmts.begin() + i);
        return true;
      }
    }
  }
  return false;
}

} // namespace arrc::passes
