// A reduction over a flattened regular nest folds its innermost axis in a
// loop on CPUs (docs/lowering.md, "Passes"). `sum([1 | x <- [1..<n], y <-
// [1..<n], z <- [1..<n], x * x + y * y == z * z])` lowers to one Reduce over
// n^3 elements whose body first splits its index:
//
//   red = reduce (i < X * E) { let r = i % E; let q = i / E; ... } op ne
//
// Every element then pays an integer division (two per axis), and a CPU
// runs the runtime's chunks one element at a time. With the innermost axis
// as a loop,
//
//   red = reduce (o < X) {
//           acc = loop (acc = ne) for k < E { let r = k; let q = o; ...; op }
//           yield acc } op ne
//
// the division goes, what depends on q alone is hoisted out of the loop
// (Hoist.cpp), and the loop vectorises (PoCL, that sum at n = 300: 58 ms ->
// 1.1 ms; C++ 1.35). The rows fold in order and combine in order, so any
// associative operator gives what the Reduce gave; each row's fold starts
// at the neutral element, so it must be an identity. GPUs keep the flat
// Reduce (a row per work-item would leave most of them idle for short
// outer extents): the two are the plans of an If on inner_loops_sequential()
// (arrc::Context::inner_loops_sequential, CPUs).
//
// Conditions: the Reduce's index is read only as `i % E`, `i / E` and
// `i / (A * E)` (the flattened axes' indices; E a host variable, the same
// in every `i % E`), and its extent is (through a host Let) a product with
// the factor E.
#include "FuseSupport.h"
#include "Passes.h"

namespace arrc::passes {
using namespace ir;

const char *const kReduceRowsPlansNote = "plans by device: the innermost axis as a loop (CPUs) or flat (GPUs)";

namespace {

// `i OP E` with E a variable: E's variable, else -1.
int divisorOf(const ExpP &e, int i, BinOp op) {
  if (!e || e->kind != Exp::Binary || e->binop != op || !isVar(e->args[0], i)) return -1;
  return e->args[1]->kind == Exp::Var && e->args[1]->type.rank == 0 ? e->args[1]->var : -1;
}

// X where e is X * E or E * X (E the variable e), else nullptr.
ExpP timesE(const ExpP &e, int var) {
  if (!e || e->kind != Exp::Binary || e->binop != BinOp::Mul) return nullptr;
  return isVar(e->args[1], var) ? e->args[0] : isVar(e->args[0], var) ? e->args[1] : nullptr;
}

class ReduceRows {
public:
  explicit ReduceRows(ir::Module &m) : m_(m) {}
  bool changed = false;

  void hostBlock(Block &b) {
    std::map<int, ExpP> lets;
    for (size_t s = 0; s < b.stmts.size(); ++s) {
      Stmt &st = *b.stmts[s];
      if (st.kind == StmtKind::Let && st.outs.size() == 1)
        lets[st.outs[0]] = static_cast<ir::Let &>(st).value;
      if (st.kind == StmtKind::Reduce) {
        if (StmtP plans = rows(static_cast<Reduce &>(st), lets)) {
          b.stmts[s] = plans;
          changed = true;
        }
        continue;
      }
      if (isDevicePlans(st)) continue;
      if (st.kind == StmtKind::If) {
        hostBlock(static_cast<ir::If &>(st).thenB);
        hostBlock(static_cast<ir::If &>(st).elseB);
      } else if (st.kind == StmtKind::Loop) {
        hostBlock(static_cast<ir::Loop &>(st).body);
      }
    }
  }

private:
  ir::Module &m_;

  // The If of the two plans, or nullptr where the Reduce is no such nest.
  StmtP rows(Reduce &r, const std::map<int, ExpP> &lets) {
    if (!neutralIsIdentity(r.op, r.ne)) return nullptr;
    // E: the divisor of the index's `i % E` (one variable for all of them)
    int e = -1;
    bool mixed = false;
    rewriteBlock(r.body, [&](const ExpP &x) -> ExpP {
      int d = divisorOf(x, r.index, BinOp::Mod);
      if (d >= 0) mixed = mixed || (e >= 0 && e != d), e = d;
      return nullptr;
    });
    if (e < 0 || mixed) return nullptr;
    // the extent: X * E or E * X (through a host Let)
    ExpP n = r.n;
    if (n && n->kind == Exp::Var) {
      auto it = lets.find(n->var);
      if (it != lets.end()) n = it->second;
    }
    ExpP outer = timesE(n, e);
    if (!outer || outer->type.elem != ScalarKind::Long || outer->type.rank != 0) return nullptr;
    const ir::Type L = scalarT(ScalarKind::Long);
    auto fr = std::make_shared<Reduce>();
    fr->n = outer;
    fr->index = m_.newVar("o", L);
    const int k = m_.newVar("k", L);
    // the element at i = o * E + k: i % E is k, i / E is o, i / (A * E) is
    // o / A; any other read of i leaves the Reduce as it is
    std::map<int, ExpP> none;
    Block elem = cloneFresh(m_, r.body, none);
    const ExpP ov = varExp(fr->index, L);
    rewriteBlock(elem, [&](const ExpP &x) -> ExpP {
      if (divisorOf(x, r.index, BinOp::Mod) == e) return varExp(k, L);
      if (x->kind == Exp::Binary && x->binop == BinOp::Div && isVar(x->args[0], r.index)) {
        if (isVar(x->args[1], e)) return ov;
        if (ExpP a = timesE(x->args[1], e)) return binaryExp(BinOp::Div, ov, a);
      }
      return nullptr;
    });
    std::map<int, int> uses;
    countBlock(elem, uses);
    if (uses[r.index] != 0) return nullptr;
    auto loop = foldLoop(m_, varExp(e, m_.vars[e].type), k, elem, r.op, r.ne);
    loop->reassoc = true;  // a reduce's operator is associative
    loop->span = r.span;
    fr->body.stmts.push_back(loop);
    for (int o : loop->outs) fr->body.results.push_back(varExp(o, m_.vars[o].type));
    std::map<int, ExpP> opSub;
    for (int p : r.op.params) {
      int np = m_.newVar(m_.vars[p].name, m_.vars[p].type);
      fr->op.params.push_back(np);
      opSub[p] = varExp(np, m_.vars[np].type);
    }
    fr->op.body = cloneFresh(m_, r.op.body, opSub);
    fr->ne = r.ne;
    fr->note = (r.note.empty() ? std::string("reduce") : r.note) + " (innermost axis folded in a loop)";
    fr->span = r.span;

    auto plans = std::make_shared<ir::If>();
    plans->note = kReduceRowsPlansNote;
    plans->span = r.span;
    plans->cond = callExp("inner_loops_sequential", {}, ScalarKind::Bool);
    plans->outs = r.outs;
    for (int o : r.outs) {
      int f = m_.newVar(m_.vars[o].name, m_.vars[o].type);
      fr->outs.push_back(f);
      plans->thenB.results.push_back(varExp(f, m_.vars[f].type));
    }
    plans->thenB.stmts = {fr};
    auto flat = std::make_shared<Reduce>(r);
    for (int &o : flat->outs) o = m_.newVar(m_.vars[o].name, m_.vars[o].type);
    for (int o : flat->outs) plans->elseB.results.push_back(varExp(o, m_.vars[o].type));
    plans->elseB.stmts = {flat};
    return plans;
  }
};

} // namespace

bool reduceInnerLoop(ir::Module &m) {
  ReduceRows p(m);
  for (auto &f : m.functions) p.hostBlock(f.body);
  return p.changed;
}

} // namespace arrc::passes
