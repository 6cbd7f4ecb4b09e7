// Loop-invariant code motion in device code (SOAC bodies and operators): in
// a `for` Loop, a Let at the top of the loop body whose value uses nothing
// the loop defines (its params, its index, a body statement that stays)
// moves before the loop, inner loops first (so a value can leave several
// loops). Pure values move as they are (integer division is safe in the IR).
// A value with a bounds-checked read — typically an in-body guard
// `ix + guard[select(ok, 0, 1)]!pos` over values fixed for the whole loop —
// moves only if nothing before it in the body can raise, and then as
// `if (count > 0) then value else 0`, so that the loop raises exactly when
// and where it did: on its first iteration, before any other error.
#include "Passes.h"

namespace arrc::passes {
using namespace ir;

namespace {

struct Hoister {
  explicit Hoister(ir::Module &m) : m_(m) {}
  ir::Module &m_;

  // The invariant unchecked scalar reads inside the values of the loop
  // body's Lets and results (N-body's P[i, 0] in `P[k, 0] - P[i, 0]`) become Lets of
  // their own at the top of the body, one per distinct read, which the
  // loop below then moves out: read once per loop, and a CPU lane tile no
  // longer gathers them per step (codegen's laneGathers).
  void splitReads(ir::Loop &lp, const std::set<int> &inLoop) {
    std::map<std::string, int> made;
    std::vector<StmtP> reads;
    std::function<ExpP(const ExpP &)> take = [&](const ExpP &e) -> ExpP {
      if (e->kind != Exp::Read || e->type.rank != 0 || hasCheckedRead(e)) return e;
      std::set<int> used;
      expVars(e, used);
      for (int v : used)
        if (inLoop.count(v)) return e;
      std::string key = expKey(e);
      auto it = made.find(key);
      if (it == made.end()) {
        int v = m_.newVar("inv", e->type);
        reads.push_back(letStmt(v, e, lp.span));
        it = made.emplace(key, v).first;
      }
      return varExp(it->second, e->type);
    };
    for (auto &s : lp.body.stmts)
      if (s->kind == StmtKind::Let && s->note.empty()) {
        auto &l = static_cast<Let &>(*s);
        if (l.value->kind != Exp::Read) l.value = rewriteExp(l.value, take);
      }
    for (auto &r : lp.body.results) r = rewriteExp(r, take);
    lp.body.stmts.insert(lp.body.stmts.begin(), reads.begin(), reads.end());
  }

  // Moves the invariant Lets of loop `lp` into `pre`.
  void hoistFrom(ir::Loop &lp, std::vector<StmtP> &pre) {
    std::set<int> inLoop(lp.params.begin(), lp.params.end());
    inLoop.insert(lp.index);
    for (auto &s : lp.body.stmts) stmtDefs(*s, inLoop);
    splitReads(lp, inLoop);
    bool raisedBefore = hasCheckedRead(lp.count);
    for (auto &e : lp.init) raisedBefore = raisedBefore || hasCheckedRead(e);
    std::vector<StmtP> keep;
    for (auto &s : lp.body.stmts) {
      bool moved = false;
      if (s->kind == StmtKind::Let && s->note.empty()) {
        auto &l = static_cast<Let &>(*s);
        std::set<int> used;
        expVars(l.value, used);
        bool invariant = l.value->type.rank == 0;
        for (int v : used) invariant = invariant && !inLoop.count(v);
        bool checked = hasCheckedRead(l.value);
        if (invariant && !checked) {
          pre.push_back(s);
          moved = true;
        } else if (invariant && !raisedBefore) {
          auto g = std::make_shared<ir::If>();
          ExpP zero = constZero(lp.count->type.elem);
          g->cond = binaryExp(BinOp::Gt, lp.count, zero);
          g->thenB.results = {l.value};
          g->elseB.results = {constZero(l.value->type.elem)};
          g->outs = s->outs;
          pre.push_back(g);
          moved = true;
        }
        if (moved) inLoop.erase(s->outs[0]);
      }
      if (!moved) {
        raisedBefore = raisedBefore || mayRaise(*s);
        keep.push_back(s);
      }
    }
    lp.body.stmts = std::move(keep);
  }

  void block(Block &b) {
    std::vector<StmtP> out;
    for (auto &s : b.stmts) {
      forEachBlock(*s, [&](Block &in) { block(in); });
      if (s->kind == StmtKind::Loop && static_cast<ir::Loop &>(*s).form == ir::Loop::For)
        hoistFrom(static_cast<ir::Loop &>(*s), out);
      out.push_back(s);
    }
    b.stmts = std::move(out);
  }

};

} // namespace

void hoist(ir::Module &m) {
  Hoister h(m);
  for (auto &f : m.functions) forEachDeviceBlock(f.body, [&](Block &b) { h.block(b); });
}

} // namespace arrc::passes
