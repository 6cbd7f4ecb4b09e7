// Counting loops in device code count in int where they can (docs/lowering.md,
// "Passes"). `count` and `length` of a filtered comprehension count in long;
// folded into a loop per element (the CPU plan of nested levels), each
// element's count is a loop
//
//   part: long = loop (acc: long = 0L) for k < N { ..; yield acc + e }
//
// (e a long that is 0 or 1: `select(c, 1L, 0L)`, `sum([1L | ..])`'s selects)
//
// whose long additions take vector lanes of twice the width: PoCL ran the
// Pythagorean triples counted with `length` at half the speed of the same
// `sum([1 | ..])` in int. A count never exceeds its trip count, so where
// N <= 2^31 - 1 (tested per loop: one comparison) the loop runs on an int
// accumulator:
//
//   part: long = if (N <= 2147483647L) then { p: int = loop (a: int = 0) for
//                  k < N { ..; yield a + int(e) }; yield long(p) }
//                else { the loop as it was }
//
// The same elements are counted in the same order: the result is equal.
#include "Passes.h"

namespace arrc::passes {
using namespace ir;

namespace {

bool constIs(const ExpP &e, int64_t v) {
  int64_t c;
  return e && e->kind == Exp::Const && constValue(e, c) && c == v;
}

// A long that is 0 or 1: those constants, a select of such, a bool
// converted, or a Let of one.
bool zeroOrOne(const ExpP &e, const std::map<int, ExpP> &lets, int depth) {
  if (!e || depth > 8) return false;
  if (e->kind == Exp::Const) return constIs(e, 0) || constIs(e, 1);
  if (e->kind == Exp::Select)
    return zeroOrOne(e->args[1], lets, depth + 1) && zeroOrOne(e->args[2], lets, depth + 1);
  if (e->kind == Exp::Convert) return e->args[0]->type.elem == ScalarKind::Bool;
  if (e->kind == Exp::Var) {
    auto it = lets.find(e->var);
    return it != lets.end() && zeroOrOne(it->second, lets, depth + 1);
  }
  return false;
}

// e (0 or 1, zeroOrOne) as an int: selects of constants rebuilt in int.
ExpP asInt(const ExpP &e) {
  if (e->kind == Exp::Const) return constInt(constIs(e, 1) ? 1 : 0);
  if (e->kind == Exp::Select) return selectExp(e->args[0], asInt(e->args[1]), asInt(e->args[2]));
  return convertExp(e, ScalarKind::Int);
}

class NarrowCounts {
public:
  explicit NarrowCounts(ir::Module &m) : m_(m) {}
  bool changed = false;

  void deviceBlock(Block &b) {
    for (auto &sp : b.stmts) {
      forEachBlock(*sp, [&](Block &in) { deviceBlock(in); });
      if (sp->kind == StmtKind::Loop)
        if (StmtP v = narrow(static_cast<ir::Loop &>(*sp))) sp = v, changed = true;
    }
  }

private:
  ir::Module &m_;

  // The If replacing a counting loop, or null.
  StmtP narrow(ir::Loop &l) {
    if (l.form != ir::Loop::For || l.params.size() != 1 || l.outs.size() != 1 || l.body.results.size() != 1)
      return nullptr;
    const int acc = l.params[0];
    if (m_.vars[acc].type != scalarT(ScalarKind::Long) || !constIs(l.init[0], 0)) return nullptr;
    if (!l.count || l.count->type != scalarT(ScalarKind::Long)) return nullptr;
    // yield acc + e (either order of the addition), e 0 or 1
    const ExpP &r = l.body.results[0];
    if (r->kind != Exp::Binary || r->binop != BinOp::Add) return nullptr;
    int side = r->args[0]->kind == Exp::Var && r->args[0]->var == acc ? 1
               : r->args[1]->kind == Exp::Var && r->args[1]->var == acc ? 0 : -1;
    if (side < 0) return nullptr;
    const ExpP &s = r->args[side];
    std::map<int, ExpP> lets;
    collectLets(l.body, lets);
    if (!zeroOrOne(s, lets, 0)) return nullptr;
    // acc is used nowhere else
    std::set<int> used;
    Block rest = l.body;
    rest.results = {s};
    blockUses(rest, used);
    if (used.count(acc)) return nullptr;

    // then: a fresh copy of the loop on an int accumulator
    Block one;
    auto copy = std::make_shared<ir::Loop>(l);
    one.stmts = {copy};
    one.results = {varExp(l.outs[0], scalarT(ScalarKind::Long))};
    std::map<int, ExpP> sub;
    Block thenB = cloneFresh(m_, one, sub);
    auto &n = static_cast<ir::Loop &>(*thenB.stmts[0]);
    const int a = m_.newVar("acc", scalarT(ScalarKind::Int));
    const int p = m_.newVar("part", scalarT(ScalarKind::Int));
    const ExpP &ns = n.body.results[0]->args[side];
    n.params = {a};
    n.init = {constInt(0)};
    n.body.results = {binaryExp(BinOp::Add, varExp(a, scalarT(ScalarKind::Int)), asInt(ns))};
    n.outs = {p};
    thenB.results = {convertExp(varExp(p, scalarT(ScalarKind::Int)), ScalarKind::Long)};

    // else: the loop itself, its result renamed
    Block elseB;
    auto orig = std::make_shared<ir::Loop>(l);
    const int o = m_.newVar("part", scalarT(ScalarKind::Long));
    orig->outs = {o};
    elseB.stmts = {orig};
    elseB.results = {varExp(o, scalarT(ScalarKind::Long))};

    auto x = std::make_shared<ir::If>();
    x->span = l.span;
    x->outs = l.outs;
    x->cond = binaryExp(BinOp::Le, l.count, constLong(2147483647));
    x->thenB = std::move(thenB);
    x->elseB = std::move(elseB);
    return x;
  }
};

} // namespace

bool narrowCounts(ir::Module &m) {
  NarrowCounts n(m);
  for (auto &f : m.functions) forEachDeviceBlock(f.body, [&](Block &b) { n.deviceBlock(b); });
  return n.changed;
}

} // namespace arrc::passes
