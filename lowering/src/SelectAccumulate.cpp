// A filtered fold's step as a select (docs/lowering.md, "Passes"). In
// device code, `sum(filter(\x -> x > 0.5, A[i, :]))` folds with
//
//   acc' = if (x > 0.5) then { yield acc + x } else { yield acc }
//
// which a CPU compiles to a select of two accumulators: the loop is no
// reduction its vectoriser knows. The same step as
//
//   let v = select(x > 0.5, x, 0.0); acc' = acc + v
//
// is a plain sum, vectorised (PoCL, 4000 rows of 4000 doubles, a held-out
// form: 16.8 -> 3.6 ms, as `sum([if x > 0.5 then x else 0.0 | ...])`).
//
// Rewritten in a reduce's fold (Loop::reassoc) where the If has one result,
// its condition cannot raise and its then-branch is Lets that read no array
// (a read the If guards may be proven in range only under its condition;
// the rest is pure: evaluating it for every element changes nothing), the
// then-branch yields `acc OP e` (OP + or *, acc the loop's state) and the
// else-branch `acc`. `acc * 1` is acc for every value; `acc + 0` for every
// value but -0.0, which a float state starting at a constant other than
// -0.0 never holds (x + y is -0.0 only when both are): so float + requires
// such a start.
#include "Passes.h"

#include <cmath>

namespace arrc::passes {
using namespace ir;

namespace {

// Whether e reads an array: a read the If guards may be proven in range only
// under its condition (BoundsChecks), so it must not run for every element.
bool reads(const ExpP &e) {
  bool r = false;
  rewriteExp(e, [&](const ExpP &x) -> ExpP {
    r = r || x->kind == Exp::Read;
    return nullptr;
  });
  return r;
}

// A float constant that is not -0.0.
bool notNegativeZero(const ExpP &e) {
  if (!e || e->kind != Exp::Const) return false;
  if (!isFloatKind(e->type.elem)) return true;
  return !(e->fval == 0.0 && std::signbit(e->fval));
}

struct SelectAccumulate {
  ir::Module &m;
  bool changed = false;

  void block(Block &b) {
    for (auto &s : b.stmts) {
      forEachBlock(*s, [&](Block &in) { block(in); });
      if (s->kind == StmtKind::Loop && static_cast<ir::Loop &>(*s).reassoc) loop(static_cast<ir::Loop &>(*s));
    }
  }

  void loop(ir::Loop &lp) {
    for (size_t si = 0; si < lp.body.stmts.size(); ++si) {
      if (lp.body.stmts[si]->kind != StmtKind::If) continue;
      auto &f = static_cast<ir::If &>(*lp.body.stmts[si]);
      if (f.outs.size() != 1 || f.thenB.results.size() != 1 || f.elseB.results.size() != 1 ||
          !f.elseB.stmts.empty() || hasCheckedRead(f.cond))
        continue;
      // the state: the else-branch's result, a parameter of the loop
      int p = -1;
      for (size_t k = 0; k < lp.params.size(); ++k)
        if (isVar(f.elseB.results[0], lp.params[k])) p = int(k);
      if (p < 0) continue;
      const int acc = lp.params[size_t(p)];
      const ExpP &t = f.thenB.results[0];
      if (!t || t->kind != Exp::Binary || (t->binop != BinOp::Add && t->binop != BinOp::Mul)) continue;
      ExpP e = isVar(t->args[0], acc) ? t->args[1] : isVar(t->args[1], acc) ? t->args[0] : nullptr;
      if (!e || reads(e)) continue;
      std::set<int> ev;
      expVars(e, ev);
      if (ev.count(acc)) continue;
      const ScalarKind k = t->type.elem;
      if (t->type.rank != 0 || k == ScalarKind::Bool) continue;
      if (isFloatKind(k) && t->binop == BinOp::Add && !notNegativeZero(lp.init[size_t(p)])) continue;
      // the then-branch: Lets only, pure and unable to raise
      bool pure = true;
      for (auto &st : f.thenB.stmts)
        pure = pure && st->kind == StmtKind::Let && !reads(static_cast<ir::Let &>(*st).value);
      if (!pure) continue;
      ExpP id = t->binop == BinOp::Add ? (isFloatKind(k) ? constFloat(0.0, k) : constInt(0, k))
                                       : (isFloatKind(k) ? constFloat(1.0, k) : constInt(1, k));
      const int v = m.newVar("sel", scalarT(k));
      std::vector<StmtP> repl = f.thenB.stmts;
      repl.push_back(letStmt(v, selectExp(f.cond, e, id), f.span));
      ExpP step = binaryExp(t->binop, varExp(acc, t->type), varExp(v, t->type));
      // the If's result read as `acc OP v` (in the loop's yield, the form
      // codegen splits into independent chains on CPUs)
      const int out = f.outs[0];
      lp.body.stmts.erase(lp.body.stmts.begin() + long(si));
      lp.body.stmts.insert(lp.body.stmts.begin() + long(si), repl.begin(), repl.end());
      substituteBlock(lp.body, {{out, step}});
      si += repl.size() - 1;
      changed = true;
    }
  }
};

} // namespace

bool selectAccumulate(ir::Module &m) {
  SelectAccumulate p{m};
  for (auto &f : m.functions) forEachDeviceBlock(f.body, [&](Block &b) { p.block(b); });
  return p.changed;
}

} // namespace arrc::passes
