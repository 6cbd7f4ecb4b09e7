#include "arrc/IRBuilder.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <sstream>

namespace arrc::ir {

bool isFloatKind(ScalarKind k) { return k == ScalarKind::Float || k == ScalarKind::Double; }

std::string typeName(const Type &t) {
  std::string s = toString(t.elem);
  if (t.rank > 0) {
    s += "[[";
    for (int i = 0; i < t.rank; ++i) s += i ? ",*" : "*";
    s += "]]";
  }
  return s;
}

static ExpP mk(Exp::Kind k, Type t) {
  auto e = std::make_shared<Exp>();
  e->kind = k;
  e->type = t;
  return e;
}

ExpP constInt(int64_t v, ScalarKind k) {
  auto e = mk(Exp::Const, scalarT(k));
  if (isFloatKind(k)) e->fval = double(v);
  else if (k == ScalarKind::Bool) e->ival = v != 0;
  else if (k == ScalarKind::Int) e->ival = int32_t(uint32_t(uint64_t(v)));
  else e->ival = v;
  return e;
}
ExpP constLong(int64_t v) { return constInt(v, ScalarKind::Long); }
ExpP constBool(bool v) { return constInt(v, ScalarKind::Bool); }
ExpP constFloat(double v, ScalarKind k) {
  auto e = mk(Exp::Const, scalarT(k));
  e->fval = k == ScalarKind::Float ? double(float(v)) : v;
  return e;
}
ExpP constZero(ScalarKind k) { return isFloatKind(k) ? constFloat(0, k) : constInt(0, k); }
ExpP varExp(int var, Type t) {
  auto e = mk(Exp::Var, t);
  e->var = var;
  return e;
}
ExpP varExp(const Module &m, int var) { return varExp(var, m.vars.at(var).type); }
ExpP unaryExp(UnOp op, ExpP a) {
  auto e = mk(Exp::Unary, scalarT(a->type.elem));
  e->unop = op;
  e->args = {a};
  return e;
}
static bool isCompare(BinOp op) {
  switch (op) {
  case BinOp::Eq: case BinOp::Ne: case BinOp::Lt: case BinOp::Le: case BinOp::Gt: case BinOp::Ge:
  case BinOp::And: case BinOp::Or: return true;
  default: return false;
  }
}
ExpP binaryExp(BinOp op, ExpP a, ExpP b) {
  auto e = mk(Exp::Binary, scalarT(isCompare(op) ? ScalarKind::Bool : a->type.elem));
  e->binop = op;
  e->args = {a, b};
  return e;
}
int64_t saturatingInt(double f, ScalarKind to) {
  if (std::isnan(f)) return 0;
  if (to == ScalarKind::Int) return int64_t(std::max(-2147483648.0, std::min(2147483647.0, std::trunc(f))));
  if (f >= 9223372036854775807.0) return INT64_MAX; // 2^63, the first double past the range
  if (f <= -9223372036854775808.0) return INT64_MIN;
  return int64_t(f);
}

ExpP convertExp(ExpP a, ScalarKind to) {
  if (a->type.elem == to && a->type.rank == 0) return a;
  int64_t v;
  if (a->kind == Exp::Const) {
    if (isFloatKind(a->type.elem)) {
      if (isFloatKind(to)) return constFloat(a->fval, to);
      if (to == ScalarKind::Bool) return constBool(a->fval != 0);
      return constInt(saturatingInt(a->fval, to), to);
    }
    if (constValue(a, v)) return isFloatKind(to) ? constFloat(double(v), to) : constInt(v, to);
  }
  auto e = mk(Exp::Convert, scalarT(to));
  e->args = {a};
  return e;
}
StmtP letStmt(int var, ExpP value, const Span &span) {
  auto l = std::make_shared<Let>();
  l->outs = {var};
  l->value = std::move(value);
  l->span = span;
  return l;
}
ExpP selectExp(ExpP c, ExpP a, ExpP b) {
  auto e = mk(Exp::Select, a->type);
  e->args = {c, a, b};
  return e;
}
ExpP callExp(const std::string &fn, std::vector<ExpP> args, ScalarKind result) {
  auto e = mk(Exp::Call, scalarT(result));
  e->fn = fn;
  e->args = std::move(args);
  return e;
}
ExpP readExp(ExpP array, std::vector<ExpP> idx, int checkPos) {
  auto e = mk(Exp::Read, scalarT(array->type.elem));
  e->args.push_back(array);
  for (auto &i : idx) e->args.push_back(i);
  e->checkPos = checkPos;
  return e;
}
ExpP shapeExp(ExpP array, int axis) {
  auto e = mk(Exp::Shape, scalarT(ScalarKind::Long));
  e->args = {array};
  e->axis = axis;
  return e;
}
ExpP weightExp(ExpP array, int axis) {
  auto e = mk(Exp::Weight, scalarT(ScalarKind::Long));
  e->args = {array};
  e->axis = axis;
  return e;
}
ExpP toLong(ExpP a) { return convertExp(a, ScalarKind::Long); }
ExpP addL(ExpP a, ExpP b) {
  a = toLong(a), b = toLong(b);
  int64_t x, y;
  bool ca = constValue(a, x), cb = constValue(b, y);
  if (ca && cb) return constLong(x + y);
  if (ca && x == 0) return b;
  if (cb && y == 0) return a;
  return binaryExp(BinOp::Add, a, b);
}
ExpP subL(ExpP a, ExpP b) {
  a = toLong(a), b = toLong(b);
  int64_t x, y;
  bool ca = constValue(a, x), cb = constValue(b, y);
  if (ca && cb) return constLong(x - y);
  if (cb && y == 0) return a;
  if (sameExp(a, b)) return constLong(0);
  return binaryExp(BinOp::Sub, a, b);
}
ExpP mulL(ExpP a, ExpP b) {
  a = toLong(a), b = toLong(b);
  int64_t x, y;
  bool ca = constValue(a, x), cb = constValue(b, y);
  if (ca && cb) return constLong(x * y);
  if (ca && x == 1) return b;
  if (cb && y == 1) return a;
  if ((ca && x == 0) || (cb && y == 0)) return constLong(0);
  return binaryExp(BinOp::Mul, a, b);
}
ExpP maxL(ExpP a, ExpP b) {
  a = toLong(a), b = toLong(b);
  int64_t x, y;
  if (constValue(a, x) && constValue(b, y)) return constLong(std::max(x, y));
  return callExp("max", {a, b}, ScalarKind::Long);
}

bool isVar(const ExpP &e, int var) { return e && e->kind == Exp::Var && e->var == var; }

bool isConst(const ExpP &e) { return e && e->kind == Exp::Const; }
bool constValue(const ExpP &e, int64_t &out) {
  if (!isConst(e) || isFloatKind(e->type.elem)) return false;
  out = e->ival;
  return true;
}

bool sameExp(const ExpP &a, const ExpP &b) {
  if (a == b) return true;
  if (!a || !b) return false;
  if (a->kind != b->kind || a->type != b->type || a->args.size() != b->args.size()) return false;
  switch (a->kind) {
  case Exp::Const:
    if (a->ival != b->ival) return false;
    if (a->fval != b->fval && !(a->fval != a->fval && b->fval != b->fval)) return false;
    break;
  case Exp::Var: if (a->var != b->var) return false; break;
  case Exp::Unary: if (a->unop != b->unop) return false; break;
  case Exp::Binary: if (a->binop != b->binop) return false; break;
  case Exp::Call: if (a->fn != b->fn) return false; break;
  case Exp::Shape: case Exp::Weight: if (a->axis != b->axis) return false; break;
  default: break;
  }
  for (size_t i = 0; i < a->args.size(); ++i)
    if (!sameExp(a->args[i], b->args[i])) return false;
  return true;
}

std::string expKey(const ExpP &e) {
  std::ostringstream o;
  o << int(e->kind) << ':' << int(e->type.elem) << ':' << e->type.rank << ':';
  switch (e->kind) {
  case Exp::Const: o << e->ival << ',' << e->fval; break;
  case Exp::Var: o << 'v' << e->var; break;
  case Exp::Unary: o << int(e->unop); break;
  case Exp::Binary: o << int(e->binop); break;
  case Exp::Call: o << e->fn; break;
  case Exp::Shape: case Exp::Weight: o << e->axis; break;
  default: break;
  }
  o << '(';
  for (auto &a : e->args) o << expKey(a) << ';';
  o << ')';
  return o.str();
}

bool simpleComponent(const Lambda &op, size_t K, size_t k, const char *&kind) {
  if (!op.body.stmts.empty()) return false;
  const ExpP &e = op.body.results.at(k);
  if (e->args.size() != 2) return false;
  int a = op.params.at(k), b = op.params.at(K + k);
  auto isVar = [](const ExpP &v, int id) { return v && v->kind == Exp::Var && v->var == id; };
  if (!((isVar(e->args[0], a) && isVar(e->args[1], b)) || (isVar(e->args[0], b) && isVar(e->args[1], a))))
    return false;
  if (e->kind == Exp::Binary && e->binop == BinOp::Add) kind = "Add";
  else if (e->kind == Exp::Binary && e->binop == BinOp::Mul) kind = "Mul";
  else if (e->kind == Exp::Call && e->fn == "min") kind = "Min";
  else if (e->kind == Exp::Call && e->fn == "max") kind = "Max";
  else return false;
  return true;
}

bool neutralIsIdentity(const Lambda &op, const std::vector<ExpP> &ne) {
  size_t K = ne.size();
  for (size_t k = 0; k < K; ++k) {
    const char *kind = nullptr;
    if (!simpleComponent(op, K, k, kind) || ne[k]->kind != Exp::Const) return false;
    double v = isFloatKind(ne[k]->type.elem) ? ne[k]->fval : static_cast<double>(ne[k]->ival);
    std::string kd = kind;
    // min and max are idempotent: any neutral element folds in harmlessly
    if ((kd == "Add" && v != 0) || (kd == "Mul" && v != 1)) return false;
  }
  return true;
}

void expVars(const ExpP &e, std::set<int> &out) {
  if (!e) return;
  if (e->kind == Exp::Var) out.insert(e->var);
  for (auto &a : e->args) expVars(a, out);
}

template <class S, class F> static void eachBlockT(S &s, F &&f) {
  switch (s.kind) {
  case StmtKind::If: { auto &x = static_cast<std::conditional_t<std::is_const_v<S>, const If, If> &>(s); f(x.thenB); f(x.elseB); break; }
  case StmtKind::Loop: { auto &x = static_cast<std::conditional_t<std::is_const_v<S>, const Loop, Loop> &>(s); if (x.form == Loop::While) f(x.cond); f(x.body); break; }
  case StmtKind::Map: f(static_cast<std::conditional_t<std::is_const_v<S>, const Map, Map> &>(s).body); break;
  case StmtKind::Reduce: { auto &x = static_cast<std::conditional_t<std::is_const_v<S>, const Reduce, Reduce> &>(s); f(x.body); f(x.op.body); break; }
  case StmtKind::Scan: { auto &x = static_cast<std::conditional_t<std::is_const_v<S>, const Scan, Scan> &>(s); f(x.body); f(x.op.body); break; }
  case StmtKind::Filter: f(static_cast<std::conditional_t<std::is_const_v<S>, const Filter, Filter> &>(s).body); break;
  case StmtKind::Scatter: f(static_cast<std::conditional_t<std::is_const_v<S>, const Scatter, Scatter> &>(s).body); break;
  case StmtKind::Hist: { auto &x = static_cast<std::conditional_t<std::is_const_v<S>, const Hist, Hist> &>(s); f(x.body); f(x.op.body); break; }
  case StmtKind::SegScan: { auto &x = static_cast<std::conditional_t<std::is_const_v<S>, const SegScan, SegScan> &>(s); f(x.body); f(x.op.body); break; }
  case StmtKind::SegReduce: { auto &x = static_cast<std::conditional_t<std::is_const_v<S>, const SegReduce, SegReduce> &>(s); f(x.body); f(x.op.body); break; }
  case StmtKind::Expand: { auto &x = static_cast<std::conditional_t<std::is_const_v<S>, const Expand, Expand> &>(s); f(x.size); f(x.body); if (x.into == Expand::Reduce) f(x.op.body); break; }
  case StmtKind::MultiHist: { auto &x = static_cast<std::conditional_t<std::is_const_v<S>, const MultiHist, MultiHist> &>(s); f(x.body); for (auto &op : x.ops) f(op.body); break; }
  default: break;
  }
}
void forEachBlock(Stmt &s, const std::function<void(Block &)> &f) { eachBlockT(s, f); }
void forEachBlock(const Stmt &s, const std::function<void(const Block &)> &f) { eachBlockT(s, f); }

void forEachExp(Stmt &s, const std::function<void(ExpP &)> &f) {
  auto all = [&](std::vector<ExpP> &v) { for (auto &e : v) f(e); };
  switch (s.kind) {
  case StmtKind::Let: f(static_cast<Let &>(s).value); break;
  case StmtKind::If: f(static_cast<If &>(s).cond); break;
  case StmtKind::Loop: { auto &x = static_cast<Loop &>(s); all(x.init); if (x.form == Loop::For) f(x.count); break; }
  case StmtKind::Write: { auto &x = static_cast<Write &>(s); all(x.indices); f(x.value); break; }
  case StmtKind::Alloc: all(static_cast<Alloc &>(s).dims); break;
  case StmtKind::View: { auto &x = static_cast<View &>(s); f(x.source); all(x.shape); all(x.weights); break; }
  case StmtKind::Check: { auto &x = static_cast<Check &>(s); f(x.cond); all(x.values); break; }
  case StmtKind::Map: all(static_cast<Map &>(s).dims); break;
  case StmtKind::Reduce: { auto &x = static_cast<Reduce &>(s); f(x.n); all(x.ne); break; }
  case StmtKind::Scan: { auto &x = static_cast<Scan &>(s); f(x.n); all(x.ne); break; }
  case StmtKind::Filter: f(static_cast<Filter &>(s).n); break;
  case StmtKind::Scatter: { auto &x = static_cast<Scatter &>(s); all(x.dests); f(x.n); break; }
  case StmtKind::Hist: { auto &x = static_cast<Hist &>(s); f(x.bins); f(x.n); all(x.ne); break; }
  case StmtKind::Sort: { auto &x = static_cast<Sort &>(s); f(x.keys); all(x.values); break; }
  case StmtKind::SegScan: { auto &x = static_cast<SegScan &>(s); f(x.n); all(x.ne); break; }
  case StmtKind::SegReduce: { auto &x = static_cast<SegReduce &>(s); f(x.n); all(x.ne); break; }
  case StmtKind::Expand: { auto &x = static_cast<Expand &>(s); f(x.n); all(x.ne); break; }
  case StmtKind::MultiHist: { auto &x = static_cast<MultiHist &>(s); f(x.n); all(x.bins); all(x.ne); break; }
  case StmtKind::HistAdd: { auto &x = static_cast<HistAdd &>(s); f(x.bin); f(x.value); break; }
  default: break;
  }
}

bool hasCheckedRead(const ExpP &e) {
  if (!e) return false;
  if (e->kind == Exp::Read && e->checkPos >= 0) return true;
  for (auto &a : e->args)
    if (hasCheckedRead(a)) return true;
  return false;
}
bool mayRaise(const Stmt &s) {
  bool r = false;
  forEachExp(const_cast<Stmt &>(s), [&](ExpP &e) { r = r || hasCheckedRead(e); });
  forEachBlock(s, [&](const Block &b) { r = r || blockMayRaise(b); });
  return r;
}
bool blockMayRaise(const Block &b) {
  for (auto &t : b.stmts)
    if (mayRaise(*t)) return true;
  for (auto &x : b.results)
    if (hasCheckedRead(x)) return true;
  return false;
}

bool blockHasKind(const Block &b, StmtKind k) {
  for (auto &s : b.stmts) {
    if (s->kind == k) return true;
    bool found = false;
    forEachBlock(static_cast<const Stmt &>(*s), [&](const Block &in) { found = found || blockHasKind(in, k); });
    if (found) return true;
  }
  return false;
}

bool blockWrites(const Block &b) { return blockHasKind(b, StmtKind::Write); }

// inMultiHist: a HistAdd only fills the enclosing MultiHist's outputs.
static bool hasEffectIn(const Stmt &s, bool inMultiHist) {
  if (s.kind == StmtKind::Check || s.kind == StmtKind::Write) return true;
  if (s.kind == StmtKind::HistAdd) return !inMultiHist;
  if (s.kind == StmtKind::Map && s.outs.empty()) return true;
  bool in = inMultiHist || s.kind == StmtKind::MultiHist;
  bool eff = false;
  forEachBlock(s, [&](const Block &b) {
    for (auto &t : b.stmts) eff = eff || hasEffectIn(*t, in);
  });
  return eff;
}
bool hasEffect(const Stmt &s) { return hasEffectIn(s, false); }

void forEachDeviceBlock(Block &host, const std::function<void(Block &)> &f) {
  for (auto &s : host.stmts) {
    if (s->kind >= StmtKind::Map) forEachBlock(*s, f);
    else if (s->kind == StmtKind::If || s->kind == StmtKind::Loop)
      forEachBlock(*s, [&](Block &in) { forEachDeviceBlock(in, f); });
  }
}

void stmtUses(const Stmt &s, std::set<int> &out) {
  forEachExp(const_cast<Stmt &>(s), [&](ExpP &e) { expVars(e, out); });
  if (s.kind == StmtKind::Write) out.insert(static_cast<const Write &>(s).array);
  forEachBlock(s, [&](const Block &b) { blockUses(b, out); });
}
void collectLets(const Block &b, std::map<int, ExpP> &lets) {
  for (auto &s : b.stmts) {
    if (s->kind == StmtKind::Let) lets[s->outs[0]] = static_cast<const Let &>(*s).value;
    forEachBlock(static_cast<const Stmt &>(*s), [&](const Block &in) { collectLets(in, lets); });
  }
}
void blockUses(const Block &b, std::set<int> &out) {
  for (auto &s : b.stmts) stmtUses(*s, out);
  for (auto &r : b.results) expVars(r, out);
}
void stmtDefs(const Stmt &s, std::set<int> &out) {
  for (int v : s.outs) out.insert(v);
  auto lam = [&](const Lambda &l) { for (int p : l.params) out.insert(p); };
  switch (s.kind) {
  case StmtKind::Loop: { auto &x = static_cast<const Loop &>(s); for (int p : x.params) out.insert(p); if (x.index >= 0) out.insert(x.index); break; }
  case StmtKind::Map: for (int i : static_cast<const Map &>(s).index) out.insert(i); break;
  case StmtKind::Reduce: { auto &x = static_cast<const Reduce &>(s); out.insert(x.index); lam(x.op); break; }
  case StmtKind::Scan: { auto &x = static_cast<const Scan &>(s); out.insert(x.index); lam(x.op); break; }
  case StmtKind::Filter: out.insert(static_cast<const Filter &>(s).index); break;
  case StmtKind::Scatter: out.insert(static_cast<const Scatter &>(s).index); break;
  case StmtKind::Hist: { auto &x = static_cast<const Hist &>(s); out.insert(x.index); lam(x.op); break; }
  case StmtKind::SegScan: { auto &x = static_cast<const SegScan &>(s); out.insert(x.index); lam(x.op); break; }
  case StmtKind::SegReduce: { auto &x = static_cast<const SegReduce &>(s); out.insert(x.index); lam(x.op); break; }
  case StmtKind::Expand: { auto &x = static_cast<const Expand &>(s); out.insert(x.index); out.insert(x.inner); lam(x.op); break; }
  case StmtKind::MultiHist: { auto &x = static_cast<const MultiHist &>(s); out.insert(x.index); for (auto &op : x.ops) lam(op); break; }
  default: break;
  }
  forEachBlock(s, [&](const Block &b) { blockDefs(b, out); });
}
void blockDefs(const Block &b, std::set<int> &out) {
  for (auto &s : b.stmts) stmtDefs(*s, out);
}

ExpP rewriteExp(const ExpP &e, const std::function<ExpP(const ExpP &)> &f) {
  if (!e) return e;
  bool changed = false;
  std::vector<ExpP> args;
  for (auto &a : e->args) {
    args.push_back(rewriteExp(a, f));
    changed = changed || args.back() != a;
  }
  ExpP cur = e;
  if (changed) {
    auto c = std::make_shared<Exp>(*e);
    c->args = std::move(args);
    cur = c;
  }
  ExpP r = f(cur);
  return r ? r : cur;
}

void rewriteBlock(Block &b, const std::function<ExpP(const ExpP &)> &f) {
  for (auto &s : b.stmts) {
    forEachExp(*s, [&](ExpP &e) { e = rewriteExp(e, f); });
    forEachBlock(*s, [&](Block &in) { rewriteBlock(in, f); });
  }
  for (auto &r : b.results) r = rewriteExp(r, f);
}

ExpP substitute(const ExpP &e, const std::map<int, ExpP> &sub) {
  if (sub.empty()) return e;
  return rewriteExp(e, [&](const ExpP &x) -> ExpP {
    if (x->kind == Exp::Var) {
      auto it = sub.find(x->var);
      if (it != sub.end()) return it->second;
    }
    return nullptr;
  });
}
void substituteBlock(Block &b, const std::map<int, ExpP> &sub) {
  if (sub.empty()) return;
  rewriteBlock(b, [&](const ExpP &x) -> ExpP {
    if (x->kind == Exp::Var) {
      auto it = sub.find(x->var);
      if (it != sub.end()) return it->second;
    }
    return nullptr;
  });
  // Write targets are var ids, not expressions.
  std::function<void(Block &)> fixWrites = [&](Block &blk) {
    for (auto &s : blk.stmts) {
      if (s->kind == StmtKind::Write) {
        auto &w = static_cast<Write &>(*s);
        auto it = sub.find(w.array);
        if (it != sub.end() && it->second->kind == Exp::Var) w.array = it->second->var;
      }
      forEachBlock(*s, fixWrites);
    }
  };
  fixWrites(b);
}

StmtP cloneStmt(const Stmt &s) {
  switch (s.kind) {
#define C(K) case StmtKind::K: return std::make_shared<K>(static_cast<const K &>(s));
  C(Let) C(If) C(Loop) C(Write) C(Alloc) C(View) C(Literal) C(Check) C(Map) C(Reduce) C(Scan)
  C(Filter) C(Scatter) C(Hist) C(Sort) C(SegScan) C(SegReduce) C(Expand) C(MultiHist) C(HistAdd)
#undef C
  }
  return nullptr;
}

static void deepCloneBlock(Block &b) {
  for (auto &s : b.stmts) {
    s = cloneStmt(*s);
    forEachBlock(*s, [](Block &in) { deepCloneBlock(in); });
  }
}

Block cloneFresh(Module &m, const Block &b, std::map<int, ExpP> &sub) {
  Block c = b;
  deepCloneBlock(c);
  std::set<int> defs;
  blockDefs(c, defs);
  std::map<int, int> ren;
  for (int v : defs) {
    int nv = m.newVar(m.vars[v].name, m.vars[v].type);
    ren[v] = nv;
    sub[v] = varExp(m, nv);
  }
  substituteBlock(c, sub);
  auto rn = [&](int &v) { auto it = ren.find(v); if (it != ren.end()) v = it->second; };
  std::function<void(Block &)> fix = [&](Block &blk) {
    for (auto &s : blk.stmts) {
      for (int &o : s->outs) rn(o);
      switch (s->kind) {
      case StmtKind::Loop: { auto &x = static_cast<Loop &>(*s); for (int &p : x.params) rn(p); rn(x.index); break; }
      case StmtKind::Map: for (int &i : static_cast<Map &>(*s).index) rn(i); break;
      case StmtKind::Reduce: { auto &x = static_cast<Reduce &>(*s); rn(x.index); for (int &p : x.op.params) rn(p); break; }
      case StmtKind::Scan: { auto &x = static_cast<Scan &>(*s); rn(x.index); for (int &p : x.op.params) rn(p); break; }
      case StmtKind::Filter: rn(static_cast<Filter &>(*s).index); break;
      case StmtKind::Scatter: rn(static_cast<Scatter &>(*s).index); break;
      case StmtKind::Hist: { auto &x = static_cast<Hist &>(*s); rn(x.index); for (int &p : x.op.params) rn(p); break; }
      case StmtKind::SegScan: { auto &x = static_cast<SegScan &>(*s); rn(x.index); for (int &p : x.op.params) rn(p); break; }
      case StmtKind::SegReduce: { auto &x = static_cast<SegReduce &>(*s); rn(x.index); for (int &p : x.op.params) rn(p); break; }
      case StmtKind::Expand: { auto &x = static_cast<Expand &>(*s); rn(x.index); rn(x.inner); for (int &p : x.op.params) rn(p); break; }
      case StmtKind::MultiHist: { auto &x = static_cast<MultiHist &>(*s); rn(x.index); for (auto &op : x.ops) for (int &p : op.params) rn(p); break; }
      default: break;
      }
      forEachBlock(*s, fix);
    }
  };
  fix(c);
  return c;
}

std::shared_ptr<Loop> mergeLoops(const Module &m, const Loop &a, const Loop &b) {
  auto r = std::make_shared<Loop>(a);
  Block second = b.body;
  substituteBlock(second, {{b.index, varExp(m, a.index)}});
  r->params.insert(r->params.end(), b.params.begin(), b.params.end());
  r->init.insert(r->init.end(), b.init.begin(), b.init.end());
  r->outs.insert(r->outs.end(), b.outs.begin(), b.outs.end());
  r->body.stmts.insert(r->body.stmts.end(), second.stmts.begin(), second.stmts.end());
  r->body.results.insert(r->body.results.end(), second.results.begin(), second.results.end());
  r->reassoc = a.reassoc && b.reassoc;
  if (r->note.empty()) r->note = b.note;
  return r;
}

} // namespace arrc::ir
