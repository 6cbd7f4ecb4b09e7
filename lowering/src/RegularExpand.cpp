// Expands of one size for every segment become maps (docs/lowering.md,
// "Passes"). Nested flattening builds segments with an Expand even where
// every segment has the same length (`[hist((+), 0.0, k, ids, P[:, j]) | j
// <- ..]`: each column's segment is ids' length). The runtime's expand is
// load-balanced (a scan of the sizes, a search per element) and nothing
// fuses into a histogram from it, so those 3 x 2*10^6 expanded arrays were
// written and read again (H100: 1.8 ms against 0.09 for the same sums as a
// flattened comprehension). As a map over n * size elements with
//   s = i / size, j = i % size
// it fuses like any map (into the histogram here, whose row form then reads
// the row and column without dividing).
//
// The size is evaluated once, on the host, and only when n > 0 (its reads
// and checks run where the expand would have run them: at least once, and
// never for no segment); a negative size counts as 0, as in the runtime.
// Only expands that materialise (into == Array: fusion has not run yet)
// and whose size block is Lets alone, using neither index, are rewritten.
#include "Passes.h"

namespace arrc::passes {
using namespace ir;

namespace {

bool regular(const Expand &x) {
  if (x.into != Expand::Array || x.size.results.size() != 1) return false;
  for (auto &s : x.size.stmts)
    if (s->kind != StmtKind::Let) return false;
  std::set<int> used;
  blockUses(x.size, used);
  return !used.count(x.index) && !used.count(x.inner);
}

bool rewrite(ir::Module &m, Block &b) {
  bool changed = false;
  std::vector<StmtP> out;
  for (auto &s : b.stmts) {
    if (s->kind == StmtKind::If || s->kind == StmtKind::Loop)
      forEachBlock(*s, [&](Block &in) { changed = rewrite(m, in) || changed; });
    if (s->kind != StmtKind::Expand || !regular(static_cast<const Expand &>(*s))) {
      out.push_back(s);
      continue;
    }
    const auto &x = static_cast<const Expand &>(*s);
    const ir::Type L = scalarT(ScalarKind::Long);
    ExpP n = toLong(x.n);
    // size0 = n > 0 ? size : 0; size = max(size0, 0); total = n * size
    auto pick = std::make_shared<ir::If>();
    pick->cond = binaryExp(BinOp::Gt, n, constLong(0));
    pick->thenB = x.size;
    pick->thenB.results = {toLong(x.size.results[0])};
    pick->elseB.results = {constLong(0)};
    int size0 = m.newVar("size", L);
    pick->outs = {size0};
    pick->span = x.span;
    out.push_back(pick);
    int size = m.newVar("size", L), total = m.newVar("total", L);
    out.push_back(letStmt(size, maxL(varExp(size0, L), constLong(0)), x.span));
    out.push_back(letStmt(total, mulL(n, varExp(size, L)), x.span));
    auto map = std::make_shared<ir::Map>();
    int i = m.newVar("i", L);
    map->dims = {varExp(total, L)};
    map->index = {i};
    map->body.stmts = {letStmt(x.index, binaryExp(BinOp::Div, varExp(i, L), varExp(size, L)), x.span),
                       letStmt(x.inner, binaryExp(BinOp::Mod, varExp(i, L), varExp(size, L)), x.span)};
    map->body.stmts.insert(map->body.stmts.end(), x.body.stmts.begin(), x.body.stmts.end());
    map->body.results = x.body.results;
    map->outs = x.outs;
    map->note = (x.note.empty() || x.note[0] == ';' ? "expand" + x.note : x.note) + "; one size for every segment: a map";
    map->span = x.span;
    out.push_back(map);
    changed = true;
  }
  b.stmts = std::move(out);
  return changed;
}

} // namespace

bool regularExpand(ir::Module &m) {
  bool changed = false;
  for (auto &f : m.functions) changed = rewrite(m, f.body) || changed;
  return changed;
}

} // namespace arrc::passes
