// Histograms over two flattened indices walk their arrays along rows
// (docs/lowering.md, "Passes"). A histogram per column, `[hist((+), 0.0, k,
// ids, P[:, j]) | j <- ..]`, becomes (RegularExpand, fusion) one histogram
// over t < n * size with
//   s = t / size   (the column)      j = t % size   (the row)
// so neighbouring elements read P[j, s] a row apart: the H100 took 0.93 ms
// where the same sums over the rows take 0.085. A histogram adds its
// elements in no fixed order (its schedules reassociate), so the pair is
// walked the other way round,
//   s = t % n      j = t / n
// where the body reads some array with s's part on its last axis and j's on
// another, and none the other way round. Both orders cover the same pairs:
// t < n * size with size >= 0 (or n >= 0) means n > 0 and size > 0 for any
// element. The same reads run, so the same errors can be raised, possibly
// another one first (which one comes first is not fixed in parallel either).
#include "Passes.h"

#include <algorithm>

namespace arrc::passes {
using namespace ir;

namespace {

// Known >= 0: a shape, a constant, max(x, c >= 0), or a Let of one.
bool nonNegative(const ExpP &e, const std::map<int, ExpP> &lets, int depth = 0) {
  if (!e || depth > 8) return false;
  int64_t c;
  if (constValue(e, c)) return c >= 0;
  if (e->kind == Exp::Shape) return true;
  if (e->kind == Exp::Var) {
    auto it = lets.find(e->var);
    return it != lets.end() && nonNegative(it->second, lets, depth + 1);
  }
  if (e->kind == Exp::Call && e->fn == "max" && e->args.size() == 2)
    return nonNegative(e->args[0], lets, depth + 1) || nonNegative(e->args[1], lets, depth + 1);
  return false;
}

void hostLets(const Block &b, std::map<int, ExpP> &lets) {
  for (auto &s : b.stmts) {
    if (s->kind == StmtKind::Let) lets[s->outs[0]] = static_cast<const ir::Let &>(*s).value;
    if (s->kind == StmtKind::If || s->kind == StmtKind::Loop)
      forEachBlock(static_cast<const Stmt &>(*s), [&](const Block &in) { hostLets(in, lets); });
  }
}

class HistOrder {
public:
  explicit HistOrder(ir::Module &m) : m_(m) {}
  std::map<int, ExpP> lets;

  bool hostBlock(Block &b) {
    bool changed = false;
    for (auto &sp : b.stmts) {
      if (sp->kind == StmtKind::If || sp->kind == StmtKind::Loop)
        forEachBlock(*sp, [&](Block &in) { changed = hostBlock(in) || changed; });
      if (sp->kind == StmtKind::Hist) changed = reorder(static_cast<Hist &>(*sp)) || changed;
    }
    return changed;
  }

private:
  ir::Module &m_;

  // Which of the two index Lets (bit 1: the t / size one, bit 2: t % size)
  // each body variable depends on.
  std::map<int, int> deps_;
  int depsOf(const ExpP &e) {
    std::set<int> vs;
    expVars(e, vs);
    int d = 0;
    for (int v : vs) {
      auto it = deps_.find(v);
      if (it != deps_.end()) d |= it->second;
    }
    return d;
  }

  // strided: a read with the row (t % size) on a slower axis and the column
  // (t / size) on the last; along: the other way round.
  void reads(const ExpP &e, bool &strided, bool &along) {
    if (!e) return;
    if (e->kind == Exp::Read && e->args.size() >= 3) {
      const int last = depsOf(e->args.back());
      int slower = 0;
      for (size_t a = 1; a + 1 < e->args.size(); ++a) slower |= depsOf(e->args[a]);
      if (last == 1 && (slower & 2)) strided = true;
      if (last == 2 && (slower & 1)) along = true;
    }
    for (auto &a : e->args) reads(a, strided, along);
  }
  void blockReads(Block &b, bool &strided, bool &along) {
    for (auto &s : b.stmts) {
      if (s->kind == StmtKind::Let) deps_[s->outs[0]] |= depsOf(static_cast<ir::Let &>(*s).value);
      forEachExp(*s, [&](ExpP &e) { reads(e, strided, along); });
      forEachBlock(*s, [&](Block &in) { blockReads(in, strided, along); });
      if (s->kind != StmtKind::Let)  // an if's or a loop's results: what their statements use
        for (int o : s->outs) {
          std::set<int> used;
          stmtUses(*s, used);
          for (int v : used)
            if (deps_.count(v)) deps_[o] |= deps_[v];
        }
    }
    for (auto &r : b.results) reads(r, strided, along);
  }

  bool reorder(Hist &x) {
    // the two index Lets, the only uses of the index
    ir::Let *div = nullptr, *mod = nullptr;
    int divs = 0, mods = 0;
    for (auto &st : x.body.stmts) {
      if (st->kind != StmtKind::Let) continue;
      auto &l = static_cast<ir::Let &>(*st);
      const ExpP &e = l.value;
      if (e->kind != Exp::Binary || !isVar(e->args[0], x.index)) continue;
      if (e->binop == BinOp::Div) div = &l, ++divs;
      if (e->binop == BinOp::Mod) mod = &l, ++mods;
    }
    if (divs != 1 || mods != 1 || !sameExp(div->value->args[1], mod->value->args[1])) return false;
    const ExpP size = div->value->args[1];
    {
      Block rest = x.body;
      rest.stmts.erase(std::remove_if(rest.stmts.begin(), rest.stmts.end(),
                                      [&](const StmtP &s) { return s.get() == div || s.get() == mod; }),
                       rest.stmts.end());
      std::set<int> used;
      blockUses(rest, used);
      if (used.count(x.index)) return false;
      std::set<int> sizeVars;
      expVars(size, sizeVars);
      std::set<int> inside;
      blockDefs(x.body, inside);
      for (int v : sizeVars)
        if (inside.count(v) || v == x.index) return false;
      if (hasCheckedRead(size)) return false;
    }
    // the count: n * size (or size * n), n from outside
    ExpP total = x.n;
    if (total->kind == Exp::Var && lets.count(total->var)) total = lets.at(total->var);
    if (total->kind != Exp::Binary || total->binop != BinOp::Mul) return false;
    ExpP n;
    if (sameExp(total->args[1], size)) n = total->args[0];
    else if (sameExp(total->args[0], size)) n = total->args[1];
    else return false;
    if (hasCheckedRead(n) || n->type.elem != ScalarKind::Long || size->type.elem != ScalarKind::Long) return false;
    if (!nonNegative(size, lets) && !nonNegative(n, lets)) return false;
    // does the body read across rows?
    deps_.clear();
    deps_[div->outs[0]] = 1;
    deps_[mod->outs[0]] = 2;
    bool strided = false, along = false;
    blockReads(x.body, strided, along);
    if (!strided || along) return false;
    div->value = binaryExp(BinOp::Mod, varExp(x.index, div->value->type), n);
    mod->value = binaryExp(BinOp::Div, varExp(x.index, mod->value->type), n);
    x.note += (x.note.empty() ? "" : "; ") + std::string("walked along rows");
    return true;
  }
};

} // namespace

bool histOrder(ir::Module &m) {
  HistOrder h(m);
  bool changed = false;
  for (auto &f : m.functions) {
    h.lets.clear();
    hostLets(f.body, h.lets);
    changed = h.hostBlock(f.body) || changed;
  }
  return changed;
}

} // namespace arrc::passes
