// An Expand read only by an Expand into Reduce as its outer elements (part
// of the fuse pass, Fuse.cpp rule 3): the two levels of a comprehension's
// generator chain, e.g. the Pythagorean triples' `x <- .., y <- [x..<n]`
// (the first Expand: the (x, y) pairs) and `z <- [y..<(x + y)]` (the second:
// its sizes and elements read the pairs, folded by `sum`). On CPUs the second
// level runs as a loop inside each pair's element: one Expand into Reduce
// over the pairs, whose element is the sequential fold of its z's
//
//   expand into reduce (i < n) size {size1(i)} (j) {
//     pair = body1(i, j)
//     acc = loop (acc = ne) for k < size2(pair) { acc op body2(pair, k) }
//     yield acc
//   } op ne
//
// The pairs are never stored, the second size scan and its expand walk go,
// and the inner loop vectorises: two launches fewer and no pass over the
// pairs (PoCL, n = 300: 0.25-0.32 -> 0.15-0.21 ms). On GPUs the flattened
// form balances the work of pairs with long and short z ranges across a
// warp, so the fused Expand is one of two plans of an If on
// inner_loops_sequential() (arrc::Context::inner_loops_sequential: CPUs),
// the other the two Expands as they were.
//
// The producer may be an Expand into Filter (a filter between the two
// generators): its element's fold then runs only where the filter keeps the
// pair, as the compacted pairs did.
//
// Conditions: the consumer reads the producer's outputs only at its own
// (outer) index, in its size and its body, over the producer's whole
// length; its operator's neutral element is an identity (so starting each
// pair's fold at it is the same sum); nothing else reads the outputs.
#include "FuseSupport.h"

namespace arrc::passes {
using namespace ir;

const char *const kExpandLoopPlansNote = "plans by device: inner levels as loops (CPUs) or flattened (GPUs)";

bool fuseExpandLoop(ir::Module &m, ir::Block &b, size_t pi, size_t ci, std::map<int, int> &uses,
                    const std::set<int> &resultVars) {
  if (b.stmts[pi]->kind != StmtKind::Expand || b.stmts[ci]->kind != StmtKind::Expand) return false;
  auto &pe = static_cast<Expand &>(*b.stmts[pi]);
  auto &ce = static_cast<Expand &>(*b.stmts[ci]);
  if ((pe.into != Expand::Array && pe.into != Expand::Filter) || ce.into != Expand::Reduce || pe.size.results.size() != 1 ||
      ce.size.results.size() != 1 || !neutralIsIdentity(ce.op, ce.ne))
    return false;
  // an Expand into Filter yields (keep, values...): its kept pairs only
  const bool filtered = pe.into == Expand::Filter;
  const size_t first = filtered ? 1 : 0;
  if (pe.body.results.size() != pe.outs.size() + first) return false;
  for (int o : pe.outs)
    if (resultVars.count(o)) return false;
  // the consumer's outer extent is the producer's length
  int letUses = 0;
  if (!isLengthOf(ce.n, pe.outs[0], b, uses, letUses)) return false;
  int lenLet = -1;
  if (letUses)
    for (size_t j = 0; j < b.stmts.size(); ++j)
      if (b.stmts[j]->kind == StmtKind::Let && b.stmts[j]->outs[0] == ce.n->var) lenLet = int(j);
  int good = 0;
  for (int o : pe.outs) {
    int g = 0;
    readsAtIndex(ce.size, o, {ce.index}, g);
    readsAtIndex(ce.body, o, {ce.index}, g);
    if (uses[o] != g + (o == pe.outs[0] ? 1 : 0)) return false;  // + the length
    good += g;
  }
  // the outer index serves only those reads (its value is no pair's value)
  std::map<int, int> cc;
  countBlock(ce.size, cc);
  countBlock(ce.body, cc);
  if (good == 0 || cc[ce.index] != good) return false;

  // The fused Expand: the producer's element, then the consumer's size and
  // its elements folded in a loop, reading the pair's values.
  auto fe = std::make_shared<Expand>();
  fe->into = Expand::Reduce;
  fe->n = pe.n;
  fe->index = m.newVar("i", scalarT(ScalarKind::Long));
  fe->inner = m.newVar("j", scalarT(ScalarKind::Long));
  std::map<int, ExpP> s1{{pe.index, varExp(m, fe->index)}};
  fe->size = cloneFresh(m, pe.size, s1);
  std::map<int, ExpP> s2{{pe.index, varExp(m, fe->index)}, {pe.inner, varExp(m, fe->inner)}};
  Block pair = cloneFresh(m, pe.body, s2);
  std::map<int, ExpP> value;
  for (size_t k = 0; k < pe.outs.size(); ++k) value[pe.outs[k]] = pair.results[first + k];
  std::map<int, ExpP> none;
  Block sz = cloneFresh(m, ce.size, none);
  replaceReads(sz, value);
  int k = m.newVar("k", scalarT(ScalarKind::Long));
  std::map<int, ExpP> s3{{ce.inner, varExp(m, k)}};
  Block elem = cloneFresh(m, ce.body, s3);
  replaceReads(elem, value);
  auto loop = foldLoop(m, sz.results[0], k, elem, ce.op, ce.ne);
  fe->body.stmts = pair.stmts;
  if (!filtered) {
    fe->body.stmts.insert(fe->body.stmts.end(), sz.stmts.begin(), sz.stmts.end());
    fe->body.stmts.push_back(loop);
    for (int o : loop->outs) fe->body.results.push_back(varExp(m, o));
  } else {
    // a pair the filter drops adds nothing: its size and elements are not
    // evaluated, as in the compacted form
    auto kept = std::make_shared<ir::If>();
    kept->cond = pair.results[0];
    kept->thenB.stmts = sz.stmts;
    kept->thenB.stmts.push_back(loop);
    for (size_t k = 0; k < ce.ne.size(); ++k) {
      kept->thenB.results.push_back(varExp(m, loop->outs[k]));
      kept->elseB.results.push_back(ce.ne[k]);
      kept->outs.push_back(m.newVar("part", ce.ne[k]->type));
      fe->body.results.push_back(varExp(m, kept->outs.back()));
    }
    fe->body.stmts.push_back(kept);
  }
  // the fused operator: the consumer's, with fresh parameters
  std::map<int, ExpP> s5;
  fe->op.params.clear();
  for (int p : ce.op.params) {
    int np = m.newVar(m.vars[p].name, m.vars[p].type);
    fe->op.params.push_back(np);
    s5[p] = varExp(m, np);
  }
  fe->op.body = cloneFresh(m, ce.op.body, s5);
  fe->ne = ce.ne;
  fe->note = (ce.note.empty() ? std::string("expand into reduce") : ce.note) + "; fused with " +
             (pe.note.empty() ? std::string("expand") : pe.note) + " (inner level folded in a loop)";
  fe->span = ce.span;

  // Two plans: the fused Expand (CPUs), the two Expands as they were (GPUs).
  auto plans = std::make_shared<ir::If>();
  plans->note = kExpandLoopPlansNote;
  plans->span = ce.span;
  plans->cond = callExp("inner_loops_sequential", {}, ScalarKind::Bool);
  for (int o : ce.outs) {
    plans->outs.push_back(o);
    int f = m.newVar(m.vars[o].name, m.vars[o].type);
    fe->outs.push_back(f);
    plans->thenB.results.push_back(varExp(m, f));
  }
  plans->thenB.stmts = {fe};
  plans->elseB.stmts = {b.stmts[pi]};
  if (lenLet >= 0) plans->elseB.stmts.push_back(b.stmts[size_t(lenLet)]);
  for (int &o : ce.outs) {
    o = m.newVar(m.vars[o].name, m.vars[o].type);
    plans->elseB.results.push_back(varExp(m, o));
  }
  plans->elseB.stmts.push_back(b.stmts[ci]);
  std::vector<StmtP> nb;
  for (size_t j = 0; j < b.stmts.size(); ++j) {
    if (j == pi || int(j) == lenLet) continue;
    nb.push_back(j == ci ? StmtP(plans) : b.stmts[j]);
  }
  b.stmts = std::move(nb);
  return true;
}

} // namespace arrc::passes
