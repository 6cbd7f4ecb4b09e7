// The analysis behind the distributed overloads (Distributed.h): which rows
// of its block-distributed arrays a SOAC body reads. Each read's axis-0
// index becomes interval code that the overload evaluates at run time over
// the rank's part of the index space (arrc::dist::Iv in arrc/cluster.h):
// own index (i), neighbours (i - 1, select(i > 0, i - 1, 0)), flattened
// rows (i / d) and guards all give bounded intervals, so the rank fetches
// at most a few rows it does not hold; an index computed from array values
// (CSR's x[col[j]]) cannot be bounded, and the array is replicated.
#include "Distributed.h"

namespace arrc::cg {

DistEmitter::Body DistEmitter::bodyOf(const std::vector<const Block *> &blocks, int index, int inner,
                                      ExpP innerSize) const {
  Body b;
  b.index = index;
  b.inner = inner;
  b.innerSize = std::move(innerSize);
  std::function<void(const Block &)> walk = [&](const Block &blk) {
    for (auto &s : blk.stmts) {
      std::set<int> d;
      stmtDefs(*s, d);
      b.defined.insert(d.begin(), d.end());
      if (s->kind == StmtKind::Let) b.lets[s->outs.at(0)] = static_cast<const Let &>(*s).value;
      if (s->kind == StmtKind::Loop) {
        auto &l = static_cast<const ir::Loop &>(*s);
        if (l.form == ir::Loop::For) b.loops[l.index] = l.count;
      }
      forEachBlock(static_cast<const Stmt &>(*s), walk);
    }
  };
  for (auto *blk : blocks) walk(*blk);
  if (index >= 0) b.defined.insert(index);
  if (inner >= 0) b.defined.insert(inner);
  return b;
}

// Whether the blocks read arrays: block-distributed ones (anyArray = false)
// or any besides guards (anyArray = true).
bool DistEmitter::readsArrays(const std::vector<const Block *> &blocks, bool anyArray) const {
  std::set<int> u, d;
  for (auto *b : blocks) usesBlock(*b, u, d);
  for (int v : u) {
    if (!isArray(v) || isGuard(v)) continue;
    if (anyArray || formOf(v) == Form::B) return true;
  }
  return false;
}

// The value of an index expression with lets, integer conversions and
// guard additions looked through (what an anchor read looks like).
ExpP DistEmitter::strip(const ExpP &e, const Body &b, int depth) const {
  if (!e || depth > 64) return e;
  switch (e->kind) {
  case Exp::Var: {
    auto it = b.lets.find(e->var);
    return it != b.lets.end() ? strip(it->second, b, depth + 1) : e;
  }
  case Exp::Convert: {
    const ExpP &a = e->args.at(0);
    bool integral = [](ScalarKind k) { return k == ScalarKind::Int || k == ScalarKind::Long; }(a->type.elem);
    if (integral && (e->type.elem == ScalarKind::Int || e->type.elem == ScalarKind::Long)) return strip(a, b, depth + 1);
    return e;
  }
  case Exp::Binary:
    if (e->binop == BinOp::Add) {
      auto isGuardRead = [&](const ExpP &x) {
        ExpP s = strip(x, b, depth + 1);
        return s && s->kind == Exp::Read && s->args[0]->kind == Exp::Var && isGuard(s->args[0]->var);
      };
      if (isGuardRead(e->args[1])) return strip(e->args[0], b, depth + 1);
      if (isGuardRead(e->args[0])) return strip(e->args[1], b, depth + 1);
    }
    return e;
  default: return e;
  }
}

// An expression the host can evaluate before the SOAC (nothing the blocks define).
bool DistEmitter::hostOnly(const ExpP &e, const Body &b) const {
  std::set<int> vs;
  expVars(e, vs);
  for (int v : vs) {
    if (b.defined.count(v)) return false;
    if (isArray(v)) return false;
  }
  std::function<bool(const ExpP &)> noRead = [&](const ExpP &x) {
    if (!x) return true;
    if (x->kind == Exp::Read) return false;
    for (auto &a : x->args)
      if (!noRead(a)) return false;
    return true;
  };
  return noRead(e);
}

DistEmitter::Reads DistEmitter::readsOf(const std::vector<const Block *> &blocks, const Body &b) const {
  Reads r;
  int anchorFactorOne = -1, anchorDiv = -1;
  ExpP divFactor;
  std::function<void(const ExpP &)> exp = [&](const ExpP &e) {
    if (!e) return;
    if ((e->kind == Exp::Read || e->kind == Exp::Weight || e->kind == Exp::Shape) && e->args[0]->kind == Exp::Var) {
      int a = e->args[0]->var;
      if (isArray(a) && !isGuard(a) && formOf(a) == Form::B) {
        r.rows[a]; // every use (a Shape too) goes through a window: kernels never see a DistArray
        if (e->kind == Exp::Weight) r.whole.insert(a);
        if (e->kind == Exp::Read) {
          r.rows[a].push_back(e->args.at(1));
          bool any = false;
          iv(e->args.at(1), b, any, false);
          if (any) r.whole.insert(a);
          ExpP s = strip(e->args.at(1), b);
          if (s && s->kind == Exp::Var && s->var == b.index && b.index >= 0) {
            if (anchorFactorOne < 0) anchorFactorOne = a;
          } else if (s && s->kind == Exp::Binary && s->binop == BinOp::Div && anchorDiv < 0) {
            ExpP num = strip(s->args[0], b);
            if (num && num->kind == Exp::Var && num->var == b.index && b.index >= 0) {
              // the divisor with the body's lets substituted, if the host can compute it
              ExpP d = s->args[1];
              for (int k = 0; k < 8; ++k) {
                std::set<int> vs;
                expVars(d, vs);
                std::map<int, ExpP> sub;
                for (int v : vs)
                  if (b.lets.count(v)) sub[v] = b.lets.at(v);
                if (sub.empty()) break;
                d = substitute(d, sub);
              }
              if (hostOnly(d, b) && (d->type.elem == ScalarKind::Long || d->type.elem == ScalarKind::Int)) {
                anchorDiv = a;
                divFactor = d;
              }
            }
          }
        }
      }
    }
    for (auto &x : e->args) exp(x);
  };
  std::function<void(const Block &)> walk = [&](const Block &blk) {
    for (auto &s : blk.stmts) {
      forEachExp(const_cast<Stmt &>(*s), [&](ExpP &e) { exp(e); });
      forEachBlock(static_cast<const Stmt &>(*s), walk);
    }
    for (auto &e : blk.results) exp(e);
  };
  for (auto *blk : blocks) walk(*blk);
  if (anchorFactorOne >= 0) {
    r.anchor = anchorFactorOne;
  } else if (anchorDiv >= 0) {
    r.anchor = anchorDiv;
    r.factor = divFactor;
  }
  return r;
}

// Interval code of an integer index expression (see the file comment).
std::string DistEmitter::iv(const ExpP &e, const Body &b, bool &any, bool named, int depth) const {
  const std::string ns = "arrc::dist::";
  auto anyText = [&]() {
    any = true;
    return ns + "Iv::any()";
  };
  if (!e || depth > 40) return anyText();
  auto sub = [&](size_t k) { return iv(e->args.at(k), b, any, named, depth + 1); };
  auto integral = [](ScalarKind k) { return k == ScalarKind::Int || k == ScalarKind::Long || k == ScalarKind::Bool; };
  switch (e->kind) {
  case Exp::Const:
    if (!integral(e->type.elem)) return anyText();
    return ns + "Iv(int64_t(" + std::to_string(e->ival) + "LL))";
  case Exp::Var: {
    int v = e->var;
    if (v == b.index) return "arrc_I";
    if (v == b.inner) {
      if (!b.innerSize) return anyText();
      bool a2 = false;
      std::string t = ns + "upto(" + iv(b.innerSize, b, a2, named, depth + 1) + ")";
      if (a2) return anyText();
      return t;
    }
    if (auto it = b.lets.find(v); it != b.lets.end()) return iv(it->second, b, any, named, depth + 1);
    if (auto it = b.loops.find(v); it != b.loops.end()) {
      bool a2 = false;
      std::string t = ns + "upto(" + iv(it->second, b, a2, named, depth + 1) + ")";
      if (a2) return anyText();
      return t;
    }
    if (b.defined.count(v) || isArray(v) || !integral(typeOf(v).elem)) return anyText();
    return ns + "Iv(int64_t(" + (named ? N(v) : std::string("x")) + "))";
  }
  case Exp::Unary:
    if (e->unop == UnOp::Neg) return "(-" + sub(0) + ")";
    if (e->unop == UnOp::Not) return ns + "of(" + ns + "not_(" + ns + "truth(" + sub(0) + ")))";
    return anyText();
  case Exp::Binary: {
    std::string a = sub(0), c = sub(1);
    switch (e->binop) {
    case BinOp::Add: return "(" + a + " + " + c + ")";
    case BinOp::Sub: return "(" + a + " - " + c + ")";
    case BinOp::Mul: return "(" + a + " * " + c + ")";
    case BinOp::Div: return ns + "div(" + a + ", " + c + ")";
    case BinOp::Mod: return ns + "mod(" + a + ", " + c + ")";
    case BinOp::Lt: return ns + "of(" + ns + "lt(" + a + ", " + c + "))";
    case BinOp::Le: return ns + "of(" + ns + "le(" + a + ", " + c + "))";
    case BinOp::Gt: return ns + "of(" + ns + "lt(" + c + ", " + a + "))";
    case BinOp::Ge: return ns + "of(" + ns + "le(" + c + ", " + a + "))";
    case BinOp::Eq: return ns + "of(" + ns + "eq(" + a + ", " + c + "))";
    case BinOp::Ne: return ns + "of(" + ns + "not_(" + ns + "eq(" + a + ", " + c + ")))";
    case BinOp::And: return ns + "of(" + ns + "and_(" + ns + "truth(" + a + "), " + ns + "truth(" + c + ")))";
    case BinOp::Or: return ns + "of(" + ns + "or_(" + ns + "truth(" + a + "), " + ns + "truth(" + c + ")))";
    default: return anyText();
    }
  }
  case Exp::Convert: {
    const ExpP &a = e->args.at(0);
    if (!integral(a->type.elem)) return anyText();
    if (e->type.elem == ScalarKind::Int) return ns + "fit(" + sub(0) + ", 32)";
    if (e->type.elem == ScalarKind::Long) return sub(0);
    return anyText();
  }
  case Exp::Select: {
    // only the side the condition takes is read: a side that cannot be
    // bounded spoils the result only when the condition may take it
    bool ac = false, aa = false, ab = false;
    std::string c = iv(e->args[0], b, ac, named, depth + 1);
    std::string x = iv(e->args[1], b, aa, named, depth + 1);
    std::string y = iv(e->args[2], b, ab, named, depth + 1);
    if ((aa || ab) && ac) return anyText();
    if (aa && ab) return anyText();
    // one side unbounded: bounded at run time where the condition is known
    return ns + "select(" + ns + "truth(" + c + "), " + x + ", " + y + ")";
  }
  case Exp::Call: {
    if (e->fn == "min" || e->fn == "max") {
      if (!integral(e->type.elem)) return anyText();
      return ns + e->fn + "(" + sub(0) + ", " + sub(1) + ")";
    }
    if (e->fn == "abs" && integral(e->type.elem)) return ns + "abs(" + sub(0) + ")";
    return anyText();
  }
  case Exp::Read: {
    // a lowering guard reads 0 (or raises its check's error)
    const ExpP &a = e->args.at(0);
    if (a->kind == Exp::Var && isGuard(a->var)) return ns + "Iv(int64_t(0))";
    return anyText();
  }
  case Exp::Shape: {
    const ExpP &a = e->args.at(0);
    if (a->kind != Exp::Var || b.defined.count(a->var)) return anyText();
    return ns + "Iv(int64_t(" + (named ? N(a->var) : std::string("x")) + ".shape(" + std::to_string(e->axis) + ")))";
  }
  case Exp::Weight: return anyText();
  }
  return anyText();
}

} // namespace arrc::cg
