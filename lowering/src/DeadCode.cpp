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
