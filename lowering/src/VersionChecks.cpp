// SOAC versioning by the ranges of its reads (docs/lowering.md, "Reads
// checked by one test before a SOAC"): a SOAC whose body still has
// bounds-checked reads after boundsChecks becomes
//
//   if (every such read's index range lies inside its array)
//     the SOAC with those reads unchecked
//   else
//     the SOAC as it was
//
// where an index's range is computed on the host from the ranges of the
// variables it is built from: a SOAC index i < n is in [0, n - 1], a `for`
// counter k < count in [0, hi(count) - 1], a value fixed for the SOAC is
// itself. BoundsChecks proves reads in range, or moves the one read that can
// fail first before the SOAC; a body with several reads that can fail
// (N-body over a matrix of bodies, `B[j, 3] * (B[j, a] - B[i, a])` with the
// columns unknown) kept them all checked, and a checked read inside a loop
// stops PoCL's vectoriser. The test is exact: when it holds no read of the
// fast version can fail (so none of its errors is lost), and when it fails
// the SOAC runs as written (the same first error).
//
// The test never overflows: every variable or extent it uses is required
// to be below 2^31 in magnitude (else the checked version runs), and an index
// whose bounds could pass 2^62 in magnitude keeps its check. An int
// operation is required (by the test) not to wrap, as the device computes it
// in int.
#include "Passes.h"

#include <climits>
#include <functional>
#include <map>

namespace arrc::passes {
using namespace ir;

namespace {

// [lo, hi] as host long expressions; every value has |v| <= 2^mag, and
// fitsInt: every value (of the SOAC's elements) is in int's range.
struct Range {
  ExpP lo, hi;
  int mag = 0;
  bool fitsInt = false;
};

int bitsOf(int64_t v) {
  // the least b with |v| <= 2^b
  uint64_t u = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  int b = 0;
  while (b < 63 && (uint64_t(1) << b) < u) ++b;
  return b;
}

ExpP minE(ExpP a, ExpP b) {
  if (sameExp(a, b)) return a;
  int64_t x, y;
  if (constValue(a, x) && constValue(b, y)) return constLong(std::min(x, y));
  return callExp("min", {a, b}, ScalarKind::Long);
}
ExpP maxE(ExpP a, ExpP b) { return sameExp(a, b) ? a : maxL(std::move(a), std::move(b)); }
ExpP andE(ExpP a, ExpP b) { return a ? binaryExp(BinOp::And, a, b) : b; }

class Versioner {
public:
  explicit Versioner(ir::Module &m) : m_(m) {
    for (auto &g : m.guards) guards_.insert(g.var);
  }

  void hostBlock(Block &b) {
    for (auto &sp : b.stmts) {
      Stmt &s = *sp;
      if (s.kind == StmtKind::If || s.kind == StmtKind::Loop) {
        forEachBlock(s, [&](Block &in) { hostBlock(in); });
        continue;
      }
      if (s.kind < StmtKind::Map) continue;
      if (auto v = version(s)) sp = v;
    }
  }

private:
  ir::Module &m_;
  std::set<int> guards_;
  // for the SOAC being looked at
  std::set<int> inner_;           // defined in it: not fixed for it
  std::map<int, ExpP> lets_;      // its scalar Lets
  std::map<int, ExpP> counters_;  // SOAC indices and `for` counters -> their count
  std::vector<ExpP> need_;        // conditions of the range being computed
  std::set<std::string> needKeys_;

  void need(ExpP c) {
    int64_t v;
    if (constValue(c, v) && v) return;
    if (needKeys_.insert(expKey(c)).second) need_.push_back(std::move(c));
  }
  // a variable or extent: an int or bool as it is, a long required to be
  // below 2^31 in magnitude (so int(v) is v, and sums and products of a few
  // stay far from 2^63)
  Range leaf(const ExpP &e, bool nonNegative) {
    ExpP v = toLong(e);
    if (e->type.elem == ScalarKind::Bool) return {v, v, 1, true};
    if (e->type.elem != ScalarKind::Int) {
      if (!nonNegative) need(binaryExp(BinOp::Ge, v, constLong(INT32_MIN + int64_t(1))));
      need(binaryExp(BinOp::Le, v, constLong(INT32_MAX)));
    }
    return {v, v, 31, true};
  }
  bool fixedExp(const ExpP &e) const {
    if (hasCheckedRead(e)) return false;
    std::set<int> vs;
    expVars(e, vs);
    for (int v : vs)
      if (inner_.count(v)) return false;
    return true;
  }
  // An int result is required not to wrap (then |v| <= 2^31).
  bool fitInt(Range &r, ScalarKind k) {
    if (k != ScalarKind::Int || r.fitsInt) return true;
    need(binaryExp(BinOp::Ge, r.lo, constLong(INT32_MIN)));
    need(binaryExp(BinOp::Le, r.hi, constLong(INT32_MAX)));
    r.mag = std::min(r.mag, 31);
    r.fitsInt = true;
    return true;
  }

  bool range(const ExpP &e, Range &r, int depth = 0) {
    if (depth > 24 || !e || e->type.rank != 0) return false;
    ScalarKind k = e->type.elem;
    if (k != ScalarKind::Int && k != ScalarKind::Long && k != ScalarKind::Bool) return false;
    switch (e->kind) {
    case Exp::Const: {
      int64_t v;
      if (!constValue(e, v) || bitsOf(v) > 40) return false;
      r = {constLong(v), constLong(v), bitsOf(v), v >= INT32_MIN && v <= INT32_MAX};
      return true;
    }
    case Exp::Var: {
      int v = e->var;
      auto c = counters_.find(v);
      if (c != counters_.end()) {
        Range n;
        if (!range(c->second, n, depth + 1)) return false;
        // 0 <= k <= hi(count) - 1 (no value where count <= 0)
        r = {constLong(0), subL(n.hi, constLong(1)), std::max(n.mag, 1), n.fitsInt};
        return true;
      }
      auto l = lets_.find(v);
      if (l != lets_.end()) {
        return range(l->second, r, depth + 1); // SSA: no cycles; depth bounds the walk
      }
      if (inner_.count(v)) return false;
      r = leaf(e, k == ScalarKind::Bool);
      return true;
    }
    case Exp::Shape:
      if (!fixedExp(e)) return false;
      r = leaf(e, true);
      return true;
    case Exp::Convert: {
      const ExpP &a = e->args[0];
      if (!range(a, r, depth + 1)) return false;
      return fitInt(r, k);
    }
    case Exp::Select: {
      Range a, b;
      if (!range(e->args[1], a, depth + 1) || !range(e->args[2], b, depth + 1)) return false;
      r = {minE(a.lo, b.lo), maxE(a.hi, b.hi), std::max(a.mag, b.mag), a.fitsInt && b.fitsInt};
      return true;
    }
    case Exp::Call: {
      if ((e->fn != "min" && e->fn != "max") || e->args.size() != 2) return false;
      Range a, b;
      if (!range(e->args[0], a, depth + 1) || !range(e->args[1], b, depth + 1)) return false;
      const int mag = std::max(a.mag, b.mag);
      const bool fits = a.fitsInt && b.fitsInt;
      if (e->fn == "min") r = {minE(a.lo, b.lo), minE(a.hi, b.hi), mag, fits};
      else r = {maxE(a.lo, b.lo), maxE(a.hi, b.hi), mag, fits};
      return true;
    }
    case Exp::Binary: {
      if (k == ScalarKind::Bool) return false;
      Range a, b;
      if (!range(e->args[0], a, depth + 1) || !range(e->args[1], b, depth + 1)) return false;
      switch (e->binop) {
      case BinOp::Add: r = {addL(a.lo, b.lo), addL(a.hi, b.hi), std::max(a.mag, b.mag) + 1}; break;
      case BinOp::Sub: r = {subL(a.lo, b.hi), subL(a.hi, b.lo), std::max(a.mag, b.mag) + 1}; break;
      case BinOp::Mul: {
        ExpP p[] = {mulL(a.lo, b.lo), mulL(a.lo, b.hi), mulL(a.hi, b.lo), mulL(a.hi, b.hi)};
        r = {minE(minE(p[0], p[1]), minE(p[2], p[3])), maxE(maxE(p[0], p[1]), maxE(p[2], p[3])), a.mag + b.mag};
        break;
      }
      case BinOp::Div:
      case BinOp::Mod: {
        // by a divisor fixed for the SOAC and > 0, of a value >= 0 (C's
        // truncation is then floor; both monotone)
        if (!fixedExp(e->args[1])) return false;
        need(binaryExp(BinOp::Gt, b.lo, constLong(0)));
        need(binaryExp(BinOp::Ge, a.lo, constLong(0)));
        if (e->binop == BinOp::Div)
          r = {binaryExp(BinOp::Div, a.lo, b.lo), binaryExp(BinOp::Div, a.hi, b.lo), a.mag, a.fitsInt};
        else
          r = {constLong(0), subL(b.hi, constLong(1)), b.mag, b.fitsInt};
        break;
      }
      default: return false;
      }
      if (r.mag > 62) return false;
      return fitInt(r, k);
    }
    default: return false;
    }
  }

  // The checked reads of b (and its nested blocks) that the test can cover,
  // with their conditions; registers b's counters and Lets.
  void scan(Block &b, std::vector<Exp *> &covered, std::vector<ExpP> &conds) {
    for (auto &sp : b.stmts) {
      Stmt &s = *sp;
      if (s.kind == StmtKind::Let && s.outs.size() == 1 && static_cast<Let &>(s).value->type.rank == 0)
        lets_[s.outs[0]] = static_cast<Let &>(s).value;
      if (s.kind == StmtKind::Loop && static_cast<ir::Loop &>(s).form == ir::Loop::For)
        counters_[static_cast<ir::Loop &>(s).index] = static_cast<ir::Loop &>(s).count;
    }
    std::function<void(ExpP &)> exp = [&](ExpP &e) {
      if (!e) return;
      for (auto &a : e->args) exp(a);
      if (e->kind != Exp::Read || e->checkPos < 0) return;
      const ExpP &arr = e->args[0];
      if (arr->kind != Exp::Var || guards_.count(arr->var) || inner_.count(arr->var)) return;
      need_.clear();
      needKeys_.clear();
      ExpP ok;
      for (size_t a = 1; a < e->args.size(); ++a) {
        Range r;
        if (!range(e->args[a], r)) return;
        ok = andE(ok, binaryExp(BinOp::Ge, r.lo, constLong(0)));
        ok = andE(ok, binaryExp(BinOp::Lt, r.hi, shapeExp(arr, static_cast<int>(a - 1))));
      }
      for (auto &c : need_) conds.push_back(c);
      conds.push_back(ok);
      covered.push_back(e.get());
    };
    for (auto &sp : b.stmts) {
      forEachExp(*sp, exp);
      forEachBlock(*sp, [&](Block &in) { scan(in, covered, conds); });
    }
    for (auto &r : b.results) exp(r);
  }

  // s as an If over its two versions, or null where no read can be covered.
  StmtP version(Stmt &s) {
    bool checked = false;
    forEachBlock(s, [&](const Block &b) { checked = checked || blockMayRaise(b); });
    if (!checked) return nullptr;
    // the copy that loses its checks (a fresh clone: its Exps are its own)
    Block one;
    one.stmts = {cloneStmt(s)};
    for (int o : s.outs) one.results.push_back(varExp(m_, o));
    std::map<int, ExpP> sub;
    Block fast = cloneFresh(m_, one, sub);
    Stmt &f = *fast.stmts[0];
    inner_.clear();
    lets_.clear();
    counters_.clear();
    stmtDefs(f, inner_);
    forEachBlock(f, [&](const Block &b) { blockDefs(b, inner_); });
    if (!indices(f)) return nullptr;
    std::vector<Exp *> covered;
    std::vector<ExpP> conds;
    forEachBlock(f, [&](Block &b) { scan(b, covered, conds); });
    if (covered.empty()) return nullptr;
    for (Exp *r : covered) {
      r->checkPos = -1;
      r->speculable = true; // in range whatever the ifs around it
    }
    ExpP cond;
    std::set<std::string> seen;
    for (auto &c : conds)
      if (seen.insert(expKey(c)).second) cond = andE(cond, c);
    auto x = std::make_shared<ir::If>();
    x->cond = cond;
    x->outs = s.outs;
    x->span = s.span;
    x->note = "versioned: the reads' ranges tested before the parallel statement (VersionChecks.cpp)";
    x->thenB = std::move(fast);
    std::map<int, ExpP> sub2;
    x->elseB = cloneFresh(m_, one, sub2);
    return x;
  }

  // The SOAC's own indices and their counts; false for a SOAC whose index
  // space is not counts fixed for it (expand's inner index).
  bool indices(Stmt &s) {
    auto one = [&](int index, const ExpP &n) {
      if (!fixedExp(n)) return false;
      counters_[index] = n;
      return true;
    };
    switch (s.kind) {
    case StmtKind::Map: {
      auto &x = static_cast<Map &>(s);
      for (size_t d = 0; d < x.dims.size(); ++d)
        if (!one(x.index[d], x.dims[d])) return false;
      return true;
    }
    case StmtKind::Reduce: return one(static_cast<Reduce &>(s).index, static_cast<Reduce &>(s).n);
    case StmtKind::Scan: return one(static_cast<Scan &>(s).index, static_cast<Scan &>(s).n);
    case StmtKind::Filter: return one(static_cast<Filter &>(s).index, static_cast<Filter &>(s).n);
    case StmtKind::Scatter: return one(static_cast<Scatter &>(s).index, static_cast<Scatter &>(s).n);
    case StmtKind::Hist: return one(static_cast<Hist &>(s).index, static_cast<Hist &>(s).n);
    case StmtKind::SegScan: return one(static_cast<SegScan &>(s).index, static_cast<SegScan &>(s).n);
    case StmtKind::SegReduce: return one(static_cast<SegReduce &>(s).index, static_cast<SegReduce &>(s).n);
    case StmtKind::MultiHist: return one(static_cast<MultiHist &>(s).index, static_cast<MultiHist &>(s).n);
    default: return false;
    }
  }
};

} // namespace

void versionChecks(ir::Module &m) {
  for (auto &f : m.functions) Versioner(m).hostBlock(f.body);
}

} // namespace arrc::passes
