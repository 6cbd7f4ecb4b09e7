// Maps of few elements that each sum over one long range (docs/lowering.md,
// "Few elements, each a long sum"): `[count(\x -> x == c, ids) | c <- iota(k)]`,
// k-means' sums written per centre and coordinate, `[sum([if ids[i] == c
// then P[i, j] else 0.0 | i <- ..]) | j <- .., c <- ..]`. Each element is one
// work-item walking the whole range: k = 10 work-items for 10^6 ids on a GPU
// (26 ms on the H100 against 0.02 for `hist`). A Map whose body ends in such
// a sum becomes
//
//   G = loop_chunks(elements, count)        (the device's choice; 0: no)
//   if (G > 1)
//     parts = map (i.. < dims, g < G) { the body's Lets; the sum over
//                                       k = g, g + G, g + 2G, .. < count }
//     out   = map (i.. < dims) { the body's Lets; the sum of parts[i.., g]
//                                over g < G; the body's results }
//   else
//     the Map as it was
//
// Chunks interleave (work-item g reads k = g + G m) so that neighbouring
// work-items read neighbouring elements. Integer sums are exact in any
// order; float sums only where the loop is a reduce's (Loop::reassoc: the
// language lets it reassociate). The body must not raise (the chunks would
// run reads the sequential order never reaches before an error): this pass
// runs after VersionChecks, whose unchecked copies qualify.
#include "Passes.h"

#include <functional>
#include <map>

namespace arrc::passes {
using namespace ir;

namespace {

class Splitter {
public:
  explicit Splitter(ir::Module &m) : m_(m) {}

  void hostBlock(Block &b) {
    std::vector<StmtP> out;
    for (auto &sp : b.stmts) {
      Stmt &s = *sp;
      if (s.kind == StmtKind::If || s.kind == StmtKind::Loop) forEachBlock(s, [&](Block &in) { hostBlock(in); });
      if (s.kind == StmtKind::Map) {
        if (auto v = split(static_cast<Map &>(s), out)) {
          out.push_back(v);
          continue;
        }
      }
      out.push_back(sp);
    }
    b.stmts = std::move(out);
  }

private:
  ir::Module &m_;

  static bool uses(const ExpP &e, int v) {
    if (!e) return false;
    if (isVar(e, v)) return true;
    for (auto &a : e->args)
      if (uses(a, v)) return true;
    return false;
  }

  // The loop's sum terms: result k is p_k + t_k (or t_k + p_k), or a
  // variable bound by an If of the loop body that yields p_k + e and p_k (the
  // sum of a filtered range: `count`), which is rewritten to yield e and 0,
  // its value then being the term. No term or statement reads a p otherwise.
  bool sumForm(ir::Loop &L) {
    std::set<int> ps(L.params.begin(), L.params.end());
    std::vector<ExpP> terms;
    std::vector<std::function<void()>> rewrites;
    for (size_t k = 0; k < L.params.size(); ++k) {
      const int p = L.params[k];
      const ExpP &r = L.body.results[k];
      if (r->kind == Exp::Binary && r->binop == BinOp::Add && (isVar(r->args[0], p) || isVar(r->args[1], p))) {
        terms.push_back(isVar(r->args[0], p) ? r->args[1] : r->args[0]);
        continue;
      }
      if (r->kind != Exp::Var) return false;
      ir::If *cond = nullptr;
      for (auto &t : L.body.stmts)
        if (t->kind == StmtKind::If && t->outs.size() == 1 && t->outs[0] == r->var) cond = static_cast<ir::If *>(t.get());
      if (!cond) return false;
      // each branch: p + e (e without p) or p, and no other use of p
      auto branch = [&](Block &b, ExpP &term) {
        const ExpP &y = b.results.at(0);
        if (isVar(y, p)) {
          term = constZero(y->type.elem);
        } else if (y->kind == Exp::Binary && y->binop == BinOp::Add && (isVar(y->args[0], p) || isVar(y->args[1], p))) {
          term = isVar(y->args[0], p) ? y->args[1] : y->args[0];
        } else {
          return false;
        }
        for (auto &t : b.stmts) {
          std::set<int> u;
          stmtUses(*t, u);
          if (u.count(p)) return false;
        }
        return !uses(term, p);
      };
      auto thenT = std::make_shared<ExpP>(), elseT = std::make_shared<ExpP>();
      if (uses(cond->cond, p) || !branch(cond->thenB, *thenT) || !branch(cond->elseB, *elseT)) return false;
      ExpP sum = binaryExp(BinOp::Add, varExp(m_, p), r);
      rewrites.push_back([&L, k, sum, cond, thenT, elseT] {
        cond->thenB.results[0] = *thenT;
        cond->elseB.results[0] = *elseT;
        L.body.results[k] = sum;
      });
      terms.push_back(r);
    }
    // nothing else in the body reads a p (the Ifs above were checked)
    for (auto &t : L.body.stmts) {
      if (t->kind == StmtKind::If) {
        bool mine = false;
        for (size_t k = 0; k < L.params.size(); ++k)
          mine = mine || (t->outs.size() == 1 && isVar(L.body.results[k], t->outs[0]));
        if (mine) continue;
      }
      std::set<int> u;
      stmtUses(*t, u);
      for (int p : ps)
        if (u.count(p)) return false;
    }
    for (auto &t : terms)
      for (int p : ps)
        if (uses(t, p)) return false;
    for (auto &f : rewrites) f();
    return true;
  }

  // Where the loop is: statement indices from the map's body down, through
  // the branches of Ifs (branch 0: then, 1: else).
  struct Path {
    std::vector<std::pair<size_t, int>> steps;
  };
  // The loops a Block holds as statements, its Ifs' too.
  static void loopsIn(Block &b, Path &cur, std::vector<Path> &out) {
    for (size_t i = 0; i < b.stmts.size(); ++i) {
      Stmt &t = *b.stmts[i];
      if (t.kind == StmtKind::Loop) {
        cur.steps.push_back({i, 0});
        out.push_back(cur);
        cur.steps.pop_back();
      } else if (t.kind == StmtKind::If) {
        for (int br = 0; br < 2; ++br) {
          cur.steps.push_back({i, br});
          loopsIn(br ? static_cast<ir::If &>(t).elseB : static_cast<ir::If &>(t).thenB, cur, out);
          cur.steps.pop_back();
        }
      }
    }
  }

  static StmtP &loopStmt(Block &body, const Path &p) {
    Block *b = &body;
    for (size_t i = 0; i + 1 < p.steps.size(); ++i) {
      auto &x = static_cast<ir::If &>(*b->stmts.at(p.steps[i].first));
      b = p.steps[i].second ? &x.elseB : &x.thenB;
    }
    return b->stmts.at(p.steps.back().first);
  }

  static ir::Loop *at(Block &body, const Path &p) { return static_cast<ir::Loop *>(loopStmt(body, p).get()); }

  // The map's one sum loop when the map qualifies: a `for` sum over a count
  // fixed for the map, in the body or in a branch of its ifs (k-means' `if
  // counts[c] == 0 then C[c, j] else sum(..) / counts[c]`), reading only the
  // body's top-level Lets and values fixed for the map; nothing in the body
  // can raise.
  bool target(Map &x, Path &where) {
    if (x.outs.empty() || x.body.stmts.empty() || blockWrites(x.body) || blockMayRaise(x.body)) return false;
    std::vector<Path> loops;
    Path cur;
    loopsIn(x.body, cur, loops);
    if (loops.size() != 1) return false;
    where = loops[0];
    ir::Loop &L = *at(x.body, where);
    if (L.form != ir::Loop::For || L.params.empty()) return false;
    // a loop of loops (k-means' distances to each centre) is not one long
    // sum: its count is the inner work's number of repeats
    for (auto &t : L.body.stmts)
      if (t->kind == StmtKind::Loop) return false;
    int64_t c;
    if (constValue(L.count, c) && c < 1024) return false; // short: nothing to split
    std::set<int> inner;
    stmtDefs(x, inner);
    blockDefs(x.body, inner);
    std::set<int> cv;
    expVars(L.count, cv);
    for (int v : cv)
      if (inner.count(v)) return false;
    if (hasCheckedRead(L.count)) return false;
    // what the loop reads from the body: the map's indices and top-level Lets
    std::set<int> known(x.index.begin(), x.index.end());
    for (auto &t : x.body.stmts)
      if (t->kind == StmtKind::Let) known.insert(t->outs[0]);
    std::set<int> used, own;
    stmtUses(L, used);
    stmtDefs(L, own);
    blockDefs(L.body, own);
    for (int v : used)
      if (inner.count(v) && !own.count(v) && !known.count(v)) return false;
    for (size_t k = 0; k < L.params.size(); ++k) {
      const ir::Type &t = m_.vars[L.params[k]].type;
      const bool integer = t.elem == ScalarKind::Int || t.elem == ScalarKind::Long;
      const bool real = t.elem == ScalarKind::Float || t.elem == ScalarKind::Double;
      if (t.rank != 0 || !(integer || (real && L.reassoc))) return false;
      int64_t z;
      double f;
      const ExpP &init = L.init[k];
      bool zero = (integer && constValue(init, z) && z == 0) ||
                  (real && init->kind == Exp::Const && (f = init->fval, f == 0.0));
      if (!zero) return false;
    }
    return true;
  }

  // The If over the split plan and the map as it was; `pre` receives the
  // host Lets before it.
  StmtP split(Map &x, std::vector<StmtP> &pre) {
    Path where;
    if (!target(x, where)) return nullptr;
    ir::Loop *L0 = at(x.body, where);
    // work on a copy: sumForm may rewrite the loop's Ifs
    Block one;
    one.stmts = {cloneStmt(x)};
    for (int o : x.outs) one.results.push_back(varExp(m_, o));
    std::map<int, ExpP> subA;
    Block a = cloneFresh(m_, one, subA);
    auto &mA = static_cast<Map &>(*a.stmts[0]);
    auto &LA = *at(mA.body, where);
    if (!sumForm(LA)) return nullptr;
    const size_t K = LA.params.size();

    // G on the host
    ExpP elements = constLong(1);
    for (auto &d : x.dims) elements = mulL(elements, maxL(d, constLong(0)));
    const ExpP count = maxL(L0->count, constLong(0));
    auto gl = std::make_shared<Let>();
    const int G = m_.newVar("chunks", scalarT(ScalarKind::Long));
    gl->outs = {G};
    gl->value = callExp("loop_chunks", {elements, count}, ScalarKind::Long);
    gl->note = "the chunks of a long sum per element (SplitLongLoops.cpp)";
    pre.push_back(gl);
    const ExpP g = varExp(m_, G);

    // parts: one more axis, g < G; the loop over k = kk * G + g
    const int gi = m_.newVar("g", scalarT(ScalarKind::Long));
    mA.dims.push_back(g);
    mA.index.push_back(gi);
    const ExpP gv = varExp(m_, gi);
    {
      const int kk = m_.newVar("kk", scalarT(m_.vars[LA.index].type.elem));
      auto k = std::make_shared<Let>();
      k->outs = {LA.index};
      ExpP kkL = toLong(varExp(m_, kk));
      k->value = convertExp(addL(mulL(kkL, g), gv), m_.vars[LA.index].type.elem);
      LA.body.stmts.insert(LA.body.stmts.begin(), k);
      LA.index = kk;
      // steps g, g + G, ..: (count - g + G - 1) / G of them
      ExpP n = binaryExp(BinOp::Div, subL(addL(toLong(LA.count), subL(g, constLong(1))), gv), g);
      LA.count = convertExp(maxL(n, constLong(0)), LA.count->type.elem);
    }
    // the parts' body: the top-level Lets, then the loop (deadCode drops
    // the Lets it does not read)
    {
      std::vector<StmtP> body;
      for (auto &t : mA.body.stmts)
        if (t->kind == StmtKind::Let) body.push_back(t);
      body.push_back(loopStmt(mA.body, where));
      mA.body.stmts = std::move(body);
    }
    std::vector<int> parts;
    mA.outs.clear();
    mA.body.results.clear();
    for (size_t k = 0; k < K; ++k) {
      const ir::Type t = m_.vars[LA.params[k]].type;
      parts.push_back(m_.newVar("part", arrayT(t.elem, static_cast<int>(mA.dims.size()))));
      mA.outs.push_back(parts.back());
      mA.body.results.push_back(varExp(m_, LA.outs[k]));
    }
    mA.note = x.note + " (split sum: the chunks)";

    // out: the same body, its loop a sum of the parts over g < G
    std::map<int, ExpP> subB;
    Block b = cloneFresh(m_, one, subB);
    auto &mB = static_cast<Map &>(*b.stmts[0]);
    auto &LB = *at(mB.body, where);
    auto sum = std::make_shared<ir::Loop>();
    sum->form = ir::Loop::For;
    sum->reassoc = LB.reassoc;
    sum->outs = LB.outs;
    sum->index = m_.newVar("g", scalarT(ScalarKind::Long));
    sum->count = g;
    for (size_t k = 0; k < K; ++k) {
      const ir::Type t = m_.vars[LB.params[k]].type;
      const int p = m_.newVar("acc", t);
      sum->params.push_back(p);
      sum->init.push_back(constZero(t.elem));
      std::vector<ExpP> idx;
      for (int i : mB.index) idx.push_back(varExp(m_, i));
      idx.push_back(varExp(m_, sum->index));
      sum->body.results.push_back(binaryExp(BinOp::Add, varExp(m_, p), readExp(varExp(m_, parts[k]), idx)));
    }
    loopStmt(mB.body, where) = sum;
    mB.note = x.note + " (split sum: the chunks' sums)";

    auto v = std::make_shared<ir::If>();
    v->cond = binaryExp(BinOp::Gt, g, constLong(1));
    v->outs = x.outs;
    v->span = x.span;
    v->note = "split: few elements, each a long sum (SplitLongLoops.cpp)";
    v->thenB.stmts = {a.stmts[0], b.stmts[0]};
    v->thenB.results = b.results;
    std::map<int, ExpP> subC;
    v->elseB = cloneFresh(m_, one, subC);
    return v;
  }
};

} // namespace

void splitLongLoops(ir::Module &m) {
  for (auto &f : m.functions) Splitter(m).hostBlock(f.body);
}

} // namespace arrc::passes
