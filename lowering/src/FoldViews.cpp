// Reads through a permuted view read its source (docs/lowering.md,
// "Passes"): `let Bt = transpose(B)` is a View of B whose extents and
// weights are B's in another order, and Bt[j, k] is the element B[k, j].
// Codegen knows an array's layout only from its reads: through the view, a
// dot product's `Bt[j, k]` walks the last axis of Bt, which is B's first
// (a stride of a whole row), and the CPU tile schedule, which needs the
// lanes' index on the last axis that memory holds contiguously, does not
// apply (dgemm written with `transpose(B)` took 122 ms against 4.5 ms with
// `B[:, j]` on PoCL at 512). Read as B[k, j], both forms are the same code.
//
// Only reads without a bounds check (checkPos < 0) are rewritten, after
// boundsChecks: a checked read's error names the axis of the array it
// indexes, which is the view's.
#include "Passes.h"

namespace arrc::passes {
using namespace ir;

namespace {

struct Folder {
  // view variable -> (source variable, axis of the source for each view axis)
  std::map<int, std::pair<int, std::vector<int>>> perm;

  // Whether View v is its source's axes in another order (then recorded,
  // against the first array that is not such a view). Its extents and
  // weights may name the source or, where the source is such a view, that
  // array (simplify replaces a view's extent by the one it was made with).
  void note(const View &v) {
    if (!v.source || v.source->kind != Exp::Var || v.outs.size() != 1) return;
    const size_t r = v.shape.size();
    if (r == 0 || v.weights.size() != r + 1 || v.source->type.rank != static_cast<int>(r)) return;
    const int src = v.source->var;
    auto up = perm.find(src);
    const int root = up == perm.end() ? src : up->second.first;
    // the root's axis that Shape/Weight e (of kind k) names, or -1; the
    // offset (axis r) is the same for every view here
    auto axisOf = [&](const ExpP &e, Exp::Kind k) {
      if (e->kind != k || e->args.size() != 1 || e->args[0]->kind != Exp::Var) return -1;
      int u = e->args[0]->var, t = e->axis;
      if (u == src && up != perm.end()) return t < static_cast<int>(r) ? up->second.second[t] : t;
      return u == root ? t : -1;
    };
    std::vector<int> p(r);
    std::vector<bool> seen(r, false);
    for (size_t a = 0; a < r; ++a) {
      int s = axisOf(v.shape[a], Exp::Shape);
      if (s < 0 || s >= static_cast<int>(r) || seen[s] || axisOf(v.weights[a], Exp::Weight) != s) return;
      seen[s] = true;
      p[a] = s;
    }
    if (axisOf(v.weights[r], Exp::Weight) != static_cast<int>(r)) return;
    perm[v.outs[0]] = {root, p};
  }

  void collect(Block &b) {
    for (auto &s : b.stmts) {
      if (s->kind == StmtKind::View) note(static_cast<View &>(*s));
      forEachBlock(*s, [&](Block &in) { collect(in); });
    }
  }

  ExpP fold(const ExpP &e) {
    if (e->kind != Exp::Read || e->checkPos >= 0 || e->args.empty() || e->args[0]->kind != Exp::Var) return nullptr;
    auto it = perm.find(e->args[0]->var);
    if (it == perm.end() || e->args.size() != it->second.second.size() + 1) return nullptr;
    auto r = std::make_shared<Exp>(*e);
    r->args[0] = std::make_shared<Exp>(*e->args[0]);
    r->args[0]->var = it->second.first;
    for (size_t a = 0; a < it->second.second.size(); ++a) r->args[1 + it->second.second[a]] = e->args[1 + a];
    return r;
  }
};

} // namespace

void foldViews(ir::Module &m) {
  for (auto &f : m.functions) {
    Folder fo;
    fo.collect(f.body);
    if (fo.perm.empty()) continue;
    rewriteBlock(f.body, [&](const ExpP &e) { return fo.fold(e); });
  }
}

} // namespace arrc::passes
