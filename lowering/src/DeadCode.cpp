// Dead code: removes statements whose outputs are never used and that have
// no effect (Checks, Writes and for-each Maps stay), to a fixpoint.
#include "Passes.h"

namespace arrc::passes {
using namespace ir;

static bool sweep(Block &b, const std::set<int> &used) {
  bool changed = false;
  std::vector<StmtP> keep;
  for (auto &s : b.stmts) {
    bool live = hasEffect(*s) || s->outs.empty();
    for (int o : s->outs) live = live || used.count(o);
    if (s->kind == StmtKind::Alloc) {
      live = false;
      for (int o : s->outs) live = live || used.count(o);
    }
    if (!live) {
      changed = true;
      continue;
    }
    if (s->kind == StmtKind::Map && s->outs.size() > 1) {
      auto &mp = static_cast<Map &>(*s);
      std::vector<int> outs;
      std::vector<ExpP> res;
      for (size_t k = 0; k < s->outs.size(); ++k)
        if (used.count(s->outs[k])) outs.push_back(s->outs[k]), res.push_back(mp.body.results[k]);
      if (!outs.empty() && outs.size() != s->outs.size()) {
        s->outs = outs;
        mp.body.results = res;
        changed = true;
      }
    }
    forEachBlock(*s, [&](Block &in) { changed = sweep(in, used) || changed; });
    keep.push_back(s);
  }
  b.stmts = std::move(keep);
  return changed;
}

void deadCode(ir::Module &m) {
  for (auto &f : m.functions) {
    for (int it = 0; it < 100; ++it) {
      std::set<int> used;
      blockUses(f.body, used);
      if (!sweep(f.body, used)) break;
    }
  }
}

} // namespace arrc::passes
