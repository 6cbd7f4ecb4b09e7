// A histogram keyed by the segment ids of an expand is a reduction per
// segment (docs/lowering.md, "Passes"). CSR SpMV written with `hist`:
//
//   let rows = [i | i <- iota(n), k <- [ro[i]..<ro[i + 1]]];
//   hist((+), 0.0, n, rows, [v * x[c] | v <- vals | c <- cols])
//
// lowers to an Expand whose element is its segment index i (rows), then a
// Hist over its elements binned by rows[t]: a histogram of n bins whose
// element t falls in bin "the segment of t". Its bins are the segments, in
// order, so
//
//   ends  = scan (i < n) { size(i) }                  (the expand's sizes)
//   total = n > 0 ? ends[n - 1] : 0                   (the ids' extent)
//   out   = map (b < n) { lo = b > 0 ? ends[b - 1] : 0;
//                         acc = loop (acc = ne) for k < ends[b] - lo {
//                           t = lo + k; the Hist's body at t;
//                           yield op(acc, its values) }; yield acc }
//
// folds each bin's elements in index order (exact for any operator, as the
// runtime's histograms are), without materialising, scattering into or
// merging private histograms, and the ids' extent read as `total`, so the
// expand itself goes where nothing else reads it. 2^20 rows, 15 * 10^6
// non-zeros (bench/forms/spmvgen.arr): PoCL 95 -> 67 ms; H200 0.221 ms,
// the row-by-row comprehension 0.382 (the map's loop is SpMV's own form,
// with codegen's GPU schedule for long rows).
//
// Rewritten only where nothing changes: the bins are the expand's segment
// count (structurally, through the host's Lets), the Hist runs over the
// expand's elements, reads the ids only as its bin (or where the segment
// index replaces them), and an int conversion of the segment index on the
// way is exact (the segment count is an int's). Every element's value is
// still evaluated (each bin is a segment, every segment a bin).
#include "Passes.h"

namespace arrc::passes {
using namespace ir;

namespace {

// e through Lets (of `lets`) and conversions to integers: the variable it
// is, or -1; `narrowed` is set where an int conversion was passed.
int strippedVar(ExpP e, const std::map<int, ExpP> &lets, bool &narrowed) {
  for (int depth = 0; e && depth < 16; ++depth) {
    if (e->kind == Exp::Convert) {
      ScalarKind k = e->type.elem;
      if (k != ScalarKind::Int && k != ScalarKind::Long) return -1;
      if (k == ScalarKind::Int) narrowed = true;
      e = e->args[0];
      continue;
    }
    if (e->kind != Exp::Var) return -1;
    auto it = lets.find(e->var);
    if (it == lets.end()) return e->var;
    e = it->second;
  }
  return -1;
}

// e with the host's Lets substituted (for comparing two extents).
ExpP resolved(const ExpP &e, const std::map<int, ExpP> &lets, int depth = 0) {
  if (!e || depth > 16) return e;
  return rewriteExp(e, [&](const ExpP &x) -> ExpP {
    if (x->kind == Exp::Var && x->type.rank == 0) {
      auto it = lets.find(x->var);
      if (it != lets.end()) return resolved(it->second, lets, depth + 1);
    }
    return x;
  });
}

// An extent no larger than an int can hold: a conversion from int, a
// non-negative int constant, or max of such with a constant.
bool fitsInt(const ExpP &e) {
  int64_t c;
  if (!e) return false;
  if (constValue(e, c)) return c >= 0 && c <= 2147483647;
  if (e->kind == Exp::Convert) return e->args[0]->type.elem == ScalarKind::Int;
  if (e->kind == Exp::Var) return e->type.elem == ScalarKind::Int;
  if (e->kind == Exp::Call && e->fn == "max" && e->args.size() == 2) return fitsInt(e->args[0]) && fitsInt(e->args[1]);
  return false;
}

class SegmentHist {
public:
  explicit SegmentHist(ir::Module &m) : m_(m) {}
  bool changed = false;

  void hostBlock(Block &b, std::map<int, ExpP> lets) {
    // which Hists bin by which expand's ids
    std::map<int, const Expand *> expands; // the array it makes -> the expand
    std::map<const Stmt *, const Expand *> matched;
    std::set<const Stmt *> split; // the expands with a matched Hist
    for (auto &sp : b.stmts) {
      if (sp->kind == StmtKind::Let) {
        auto &l = static_cast<const Let &>(*sp);
        if (l.outs.size() == 1) lets[l.outs[0]] = l.value;
      }
      if (sp->kind == StmtKind::If || sp->kind == StmtKind::Loop)
        forEachBlock(*sp, [&](Block &in) { hostBlock(in, lets); });
      if (sp->kind == StmtKind::Expand) {
        auto &x = static_cast<const Expand &>(*sp);
        if (x.into == Expand::Array && x.outs.size() == 1) expands[x.outs[0]] = &x;
      }
      if (sp->kind == StmtKind::Hist)
        if (const Expand *x = match(static_cast<const Hist &>(*sp), expands, lets)) {
          matched[sp.get()] = x;
          split.insert(x);
        }
    }
    if (matched.empty()) return;
    changed = true;
    // after each such expand: the ends of its segments (an inclusive scan of
    // the sizes) and their total, which replaces the ids' extent from there
    // on (so that the expand goes where nothing else reads its elements)
    std::map<const Expand *, int> ends;
    std::map<int, ExpP> totals; // ids -> total
    std::vector<StmtP> out;
    for (auto &sp : b.stmts) {
      if (!totals.empty()) replaceExtents(*sp, totals);
      auto mi = matched.find(sp.get());
      if (mi != matched.end()) {
        out.push_back(foldPerSegment(static_cast<const Hist &>(*sp), *mi->second, ends.at(mi->second)));
        continue;
      }
      out.push_back(sp);
      if (sp->kind == StmtKind::Expand && split.count(sp.get())) {
        auto &x = static_cast<const Expand &>(*sp);
        int e = segmentEnds(x, out);
        ends[&x] = e;
        totals[x.outs[0]] = total(x, e, out);
      }
    }
    b.stmts = std::move(out);
  }

private:
  ir::Module &m_;

  // Shape(ids, 0) -> the total, in s and the blocks inside it.
  static void replaceExtents(Stmt &s, const std::map<int, ExpP> &totals) {
    auto f = [&](const ExpP &y) -> ExpP {
      if (y->kind == Exp::Shape && y->axis == 0 && y->args[0]->kind == Exp::Var) {
        auto it = totals.find(y->args[0]->var);
        if (it != totals.end()) return it->second;
      }
      return y;
    };
    forEachExp(s, [&](ExpP &e) { e = rewriteExp(e, f); });
    forEachBlock(s, [&](Block &in) { rewriteBlock(in, f); });
  }

  // The expand whose ids h bins by, where the rewrite keeps the meaning; else null.
  const Expand *match(const Hist &h, const std::map<int, const Expand *> &expands, const std::map<int, ExpP> &lets) {
    if (h.body.results.size() < 2 || h.op.params.size() != 2 * (h.body.results.size() - 1)) return nullptr;
    std::map<int, ExpP> bodyLets;
    collectLets(h.body, bodyLets);
    // the bin: ids[t] (through Lets and integer conversions)
    ExpP bin = h.body.results[0];
    bool narrowed = false;
    for (int depth = 0; depth < 16 && bin; ++depth) {
      if (bin->kind == Exp::Convert && (bin->type.elem == ScalarKind::Int || bin->type.elem == ScalarKind::Long)) {
        narrowed = narrowed || bin->type.elem == ScalarKind::Int;
        bin = bin->args[0];
      } else if (bin->kind == Exp::Var && bodyLets.count(bin->var)) {
        bin = bodyLets.at(bin->var);
      } else {
        break;
      }
    }
    if (!bin || bin->kind != Exp::Read || bin->args.size() != 2 || !isVar(bin->args[1], h.index)) return nullptr;
    if (bin->args[0]->kind != Exp::Var) return nullptr;
    auto xi = expands.find(bin->args[0]->var);
    if (xi == expands.end()) return nullptr;
    const Expand &x = *xi->second;
    const int ids = x.outs[0];
    const ScalarKind idKind = m_.vars[ids].type.elem;
    if (idKind != ScalarKind::Int && idKind != ScalarKind::Long) return nullptr;
    narrowed = narrowed || idKind == ScalarKind::Int;
    // the expand's element is its segment index
    if (x.body.results.size() != 1 || x.size.results.size() != 1) return nullptr;
    for (auto &s : x.body.stmts)
      if (s->kind != StmtKind::Let) return nullptr;
    for (auto &s : x.size.stmts)
      if (s->kind != StmtKind::Let) return nullptr;
    std::map<int, ExpP> xLets;
    collectLets(x.body, xLets);
    if (strippedVar(x.body.results[0], xLets, narrowed) != x.index) return nullptr;
    // the Hist runs over the ids' elements, its bins are the segments
    ExpP n = resolved(x.n, lets);
    if (!sameExp(resolved(toLong(h.bins), lets), toLong(n))) return nullptr;
    if (!sameExp(resolved(h.n, lets), shapeExp(varExp(ids, m_.vars[ids].type), 0))) return nullptr;
    if (narrowed && !fitsInt(n)) return nullptr;
    // the ids read nowhere else in the body (but as ids[t])
    Block probe = h.body;
    rewriteBlock(probe, [&](const ExpP &y) -> ExpP {
      if (y->kind == Exp::Read && isVar(y->args[0], ids) && y->args.size() == 2 && isVar(y->args[1], h.index))
        return constZero(idKind);
      return y;
    });
    std::set<int> used;
    blockUses(probe, used);
    if (used.count(ids) || blockHasKind(probe, StmtKind::Write)) return nullptr;
    return &x;
  }

  // ends = the inclusive scan of the expand's sizes (emitted into out).
  int segmentEnds(const Expand &x, std::vector<StmtP> &out) {
    const ir::Type L = scalarT(ScalarKind::Long);
    auto sc = std::make_shared<Scan>();
    sc->n = x.n;
    sc->index = m_.newVar("i", L);
    std::map<int, ExpP> sub{{x.index, varExp(sc->index, L)}};
    sc->body = cloneFresh(m_, x.size, sub);
    sc->body.results = {maxL(toLong(sc->body.results[0]), constLong(0))};
    int a = m_.newVar("a", L), c = m_.newVar("b", L);
    sc->op.params = {a, c};
    sc->op.body.results = {addL(varExp(a, L), varExp(c, L))};
    sc->ne = {constLong(0)};
    int ends = m_.newVar("ends", arrayT(ScalarKind::Long, 1));
    sc->outs = {ends};
    sc->note = "the segments' ends, for a histogram binned by segment";
    sc->span = x.span;
    out.push_back(sc);
    return ends;
  }

  // total = n > 0 ? ends[n - 1] : 0 (emitted into out).
  ExpP total(const Expand &x, int ends, std::vector<StmtP> &out) {
    const ir::Type L = scalarT(ScalarKind::Long);
    auto pick = std::make_shared<ir::If>();
    pick->cond = binaryExp(BinOp::Gt, toLong(x.n), constLong(0));
    pick->thenB.results = {readExp(varExp(ends, arrayT(ScalarKind::Long, 1)), {subL(toLong(x.n), constLong(1))})};
    pick->elseB.results = {constLong(0)};
    int t = m_.newVar("total", L);
    pick->outs = {t};
    pick->span = x.span;
    out.push_back(pick);
    return varExp(t, L);
  }

  // map (s < n) { the fold of segment s's elements in index order }
  StmtP foldPerSegment(const Hist &h, const Expand &x, int endsVar) {
    const ir::Type L = scalarT(ScalarKind::Long);
    const int ids = x.outs[0];
    const ScalarKind idKind = m_.vars[ids].type.elem;
    const ExpP ends = varExp(endsVar, arrayT(ScalarKind::Long, 1));
    auto mp = std::make_shared<ir::Map>();
    const int s = m_.newVar("s", L);
    const ExpP sv = varExp(s, L);
    mp->dims = {x.n};
    mp->index = {s};
    const int lo = m_.newVar("lo", L), hi = m_.newVar("hi", L);
    mp->body.stmts.push_back(letStmt(
        lo, selectExp(binaryExp(BinOp::Gt, sv, constLong(0)),
                      readExp(ends, {selectExp(binaryExp(BinOp::Gt, sv, constLong(0)), subL(sv, constLong(1)), constLong(0))}),
                      constLong(0)),
        h.span));
    mp->body.stmts.push_back(letStmt(hi, readExp(ends, {sv}), h.span));
    auto loop = std::make_shared<ir::Loop>();
    loop->form = ir::Loop::For;
    loop->index = m_.newVar("k", L);
    loop->count = subL(varExp(hi, L), varExp(lo, L));
    const size_t K = h.body.results.size() - 1;
    std::map<int, ExpP> opSub;
    for (size_t k = 0; k < K; ++k) {
      const ir::Type t = m_.vars[h.op.params[k]].type;
      int p = m_.newVar("acc", t);
      loop->params.push_back(p);
      loop->init.push_back(h.ne[k]);
      opSub[h.op.params[k]] = varExp(p, t);
    }
    // the Hist's body at t = lo + k, its ids[t] the segment
    const int t = m_.newVar("t", L);
    std::map<int, ExpP> bodySub{{h.index, varExp(t, L)}};
    Block body = cloneFresh(m_, h.body, bodySub);
    const ExpP seg = convertExp(sv, idKind);
    rewriteBlock(body, [&](const ExpP &y) -> ExpP {
      if (y->kind == Exp::Read && isVar(y->args[0], ids) && y->args.size() == 2 && isVar(y->args[1], t)) return seg;
      return y;
    });
    loop->body.stmts.push_back(letStmt(t, addL(varExp(lo, L), varExp(loop->index, L)), h.span));
    loop->body.stmts.insert(loop->body.stmts.end(), body.stmts.begin(), body.stmts.end());
    for (size_t k = 0; k < K; ++k) opSub[h.op.params[K + k]] = body.results[1 + k];
    Block op = cloneFresh(m_, h.op.body, opSub);
    loop->body.stmts.insert(loop->body.stmts.end(), op.stmts.begin(), op.stmts.end());
    loop->body.results = op.results;
    bool simple = true;
    for (size_t k = 0; k < K; ++k) {
      const char *kind = nullptr;
      simple = simple && simpleComponent(h.op, K, k, kind);
    }
    loop->reassoc = simple; // + * min max: in any order, as the histogram's
    std::vector<ExpP> accs;
    for (size_t k = 0; k < K; ++k) {
      int o = m_.newVar("acc", m_.vars[h.op.params[k]].type);
      loop->outs.push_back(o);
      accs.push_back(varExp(o, m_.vars[o].type));
    }
    loop->span = h.span;
    mp->body.stmts.push_back(loop);
    mp->body.results = accs;
    mp->outs = h.outs;
    mp->note = (h.note.empty() ? std::string("hist") : h.note) + "; binned by segment: a fold per segment";
    mp->span = h.span;
    return mp;
  }
};

} // namespace

bool segmentHist(ir::Module &m) {
  SegmentHist p(m);
  for (auto &f : m.functions) p.hostBlock(f.body, {});
  return p.changed;
}

} // namespace arrc::passes
