// Sibling loops fused in device code (docs/lowering.md, "Passes"): two
// consecutive `for` loops of a body with the same count, the second using
// nothing the first defines, run as one loop carrying both states. N-body
// written with one sum per component (`let ax = sum([.. dx | o <- bodies])`,
// then ay, az) was three loops over the bodies, each loading every body and
// computing its distance again; as one loop, simplify's CSE of pure Lets
// computes them once (3x less work: the same loop as the benchmark's
// `reduce(add3, ..)` of a tuple).
//
// Each iteration runs the first loop's body, then the second's, so every
// value is computed by the same operations as before. What changes is the
// order between the two loops' iterations, which matters only for errors:
// so at most one of them may raise, and neither writes or adds to a
// histogram (an effect). The reduce flag (Loop::reassoc) stays only where
// both loops had it.
#include "Passes.h"

namespace arrc::passes {
using namespace ir;

namespace {

// A write or a histogram addition anywhere in b (hasEffect looks inside).
bool effects(const Block &b) {
  for (auto &s : b.stmts)
    if (hasEffect(*s)) return true;
  return false;
}

bool fusable(const ir::Loop &a, const ir::Loop &b, const ir::Module &m) {
  if (a.form != ir::Loop::For || b.form != ir::Loop::For || !sameExp(a.count, b.count)) return false;
  if (m.vars.at(static_cast<size_t>(a.index)).type != m.vars.at(static_cast<size_t>(b.index)).type) return false;
  std::set<int> used;
  stmtUses(b, used);
  for (int o : a.outs)
    if (used.count(o)) return false;
  if (effects(a.body) || effects(b.body)) return false;
  for (auto &e : b.init)
    if (hasCheckedRead(e)) return false;
  return !(blockMayRaise(a.body) && blockMayRaise(b.body));
}

void fuseIn(Block &b, const ir::Module &m) {
  std::vector<StmtP> out;
  for (auto &s : b.stmts) {
    forEachBlock(*s, [&](Block &in) { fuseIn(in, m); });
    if (s->kind == StmtKind::Loop && !out.empty() && out.back()->kind == StmtKind::Loop &&
        fusable(static_cast<const ir::Loop &>(*out.back()), static_cast<const ir::Loop &>(*s), m)) {
      out.back() = mergeLoops(m, static_cast<const ir::Loop &>(*out.back()), static_cast<const ir::Loop &>(*s));
      continue;
    }
    out.push_back(s);
  }
  b.stmts = std::move(out);
}

} // namespace

void fuseLoops(ir::Module &m) {
  for (auto &f : m.functions) forEachDeviceBlock(f.body, [&](Block &b) { fuseIn(b, m); });
}

} // namespace arrc::passes
