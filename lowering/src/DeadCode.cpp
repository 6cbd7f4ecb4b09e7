// Dead code: removes statements whose outputs are never used and that have
// no effect (Checks, Writes, for-each Maps and lets reading a guard stay), and the unused outputs
// of Maps, Filters, Expands and Ifs, to a fixpoint. Arrays that are only
// written (Alloc'd, then never read, viewed or returned) go with their
// Writes, and then a for-each Map with nothing left to do that cannot raise
// (the fill of a flattened nested comprehension whose sums were fused: a
// pass over every element per segment for nothing).
#include "Passes.h"

namespace arrc::passes {
using namespace ir;

// Drops the unused outputs of a statement whose outputs are independent
// columns: a Map, an Expand into Array, a Filter or Expand into Filter (the
// value columns; one stays, it carries the count), an If (both branches).
static bool dropUnusedOuts(Stmt &s, const std::set<int> &used) {
  std::vector<Block *> blocks; // blocks whose results match outs (after `skip` leading results)
  size_t skip = 0;
  switch (s.kind) {
  case StmtKind::Map: blocks = {&static_cast<Map &>(s).body}; break;
  case StmtKind::Filter: blocks = {&static_cast<Filter &>(s).body}, skip = 1; break;
  case StmtKind::Expand: {
    auto &x = static_cast<Expand &>(s);
    if (x.into == Expand::Reduce) return false;
    blocks = {&x.body};
    skip = x.into == Expand::Filter ? 1 : 0;
    break;
  }
  case StmtKind::If: blocks = {&static_cast<ir::If &>(s).thenB, &static_cast<ir::If &>(s).elseB}; break;
  default: return false;
  }
  std::vector<size_t> keep;
  for (size_t k = 0; k < s.outs.size(); ++k)
    if (used.count(s.outs[k])) keep.push_back(k);
  if (keep.size() == s.outs.size()) return false;
  if (keep.empty()) {
    if (s.kind == StmtKind::If) return false; // kept only for its effects
    keep.push_back(0);
    if (s.outs.size() == 1) return false;
  }
  std::vector<int> outs;
  for (size_t k : keep) outs.push_back(s.outs[k]);
  for (Block *b : blocks) {
    std::vector<ExpP> res(b->results.begin(), b->results.begin() + skip);
    for (size_t k : keep) res.push_back(b->results[k + skip]);
    b->results = std::move(res);
  }
  s.outs = std::move(outs);
  return true;
}

// A Let whose value reads a guard (docs/lowering.md, "In-body checks"): the
// guard protects a value that is used even where the let's own result is not
// (an index into an array whose elements do not depend on it, as in
// take(7, replicate(2, x))), so the read must stay: it is the check.
static bool readsGuard(const ExpP &e, const std::set<int> &guards) {
  if (!e) return false;
  if (e->kind == Exp::Read && e->checkPos >= 0 && !e->args.empty() && e->args[0]->kind == Exp::Var &&
      guards.count(e->args[0]->var))
    return true;
  for (auto &a : e->args)
    if (readsGuard(a, guards)) return true;
  return false;
}

// Variables used other than as the array a Write stores into.
static void readUses(const Block &b, std::set<int> &out) {
  for (auto &s : b.stmts) {
    forEachExp(const_cast<Stmt &>(*s), [&](ExpP &e) { expVars(e, out); });
    forEachBlock(*s, [&](const Block &in) { readUses(in, out); });
  }
  for (auto &r : b.results) expVars(r, out);
}
static void allocs(const Block &b, std::set<int> &out) {
  for (auto &s : b.stmts) {
    if (s->kind == StmtKind::Alloc) out.insert(s->outs.begin(), s->outs.end());
    forEachBlock(*s, [&](const Block &in) { allocs(in, out); });
  }
}

// writeOnly: Alloc'd arrays nothing reads.
static bool sweep(Block &b, const std::set<int> &used, const std::set<int> &guards,
                  const std::set<int> &writeOnly) {
  bool changed = false;
  std::vector<StmtP> keep;
  for (auto &s : b.stmts) {
    bool live = hasEffect(*s) || s->outs.empty();
    if (s->kind == StmtKind::Let && readsGuard(static_cast<const Let &>(*s).value, guards)) live = true;
    for (int o : s->outs) live = live || used.count(o);
    if (s->kind == StmtKind::Alloc) {
      live = false;
      for (int o : s->outs) live = live || (used.count(o) && !writeOnly.count(o));
    }
    if (s->kind == StmtKind::Write && writeOnly.count(static_cast<const Write &>(*s).array)) live = false;
    if (s->kind == StmtKind::Check) {
      // a check whose condition simplification made true never fails
      int64_t c;
      const auto &ch = static_cast<const Check &>(*s);
      if (constValue(ch.cond, c) && c != 0) live = false;
    }
    if (s->kind == StmtKind::Map && s->outs.empty()) {
      const auto &map = static_cast<const Map &>(*s);
      live = blockMayRaise(map.body);
      for (auto &d : map.dims) live = live || hasCheckedRead(d);
      for (auto &t : map.body.stmts) live = live || hasEffect(*t);
    }
    if (!live) {
      changed = true;
      continue;
    }
    changed = dropUnusedOuts(*s, used) || changed;
    forEachBlock(*s, [&](Block &in) { changed = sweep(in, used, guards, writeOnly) || changed; });
    keep.push_back(s);
  }
  b.stmts = std::move(keep);
  return changed;
}

void deadCode(ir::Module &m) {
  std::set<int> guards;
  for (auto &g : m.guards) guards.insert(g.var);
  for (auto &f : m.functions) {
    for (int it = 0; it < 100; ++it) {
      std::set<int> used, read, writeOnly;
      blockUses(f.body, used);
      readUses(f.body, read);
      allocs(f.body, writeOnly);
      for (int v : read) writeOnly.erase(v);
      if (!sweep(f.body, used, guards, writeOnly)) break;
    }
  }
}

} // namespace arrc::passes
