// Simplification: constant folding, copy propagation, shape propagation
// (the extent of a Map's output is its dims, of a View its shape), and CSE
// of pure scalar Lets (repeated subexpressions: CSE.cpp).
#include "Passes.h"

#include <limits>

#include <map>

namespace arrc::passes {
using namespace ir;
using ir::Module;
using ir::Lambda;
using ir::If;
using ir::Loop;

// pow(x, c) for a constant c of 1, 2, 3, -1, 0.5, 1.5, -0.5 or -1.5 as
// multiplications and a square root, with pow's values at -0 and -inf (C99
// Annex F) kept by `sqrt(x) + 0` and a select (test/e2e/programs/
// math_pow.arr). N-body's pow(r, 3.0f) or pow(r2, 1.5f) then vectorises on
// CPUs (a pow call there costs 5-90 ns) and saves a log and an exp on GPUs.
// Results are within 1.5 ulp of pow's; -2 and -3 stay pow (1 / (x * x)
// would flush results that pow keeps subnormal).
static ExpP powByConstant(const ExpP &e) {
  const ExpP &x = e->args[0], &y = e->args[1];
  const ScalarKind k = e->type.elem;
  if (!isFloatKind(k) || y->kind != Exp::Const || !isFloatKind(y->type.elem) || x->type.elem != k) return nullptr;
  const double c = y->fval, inf = std::numeric_limits<double>::infinity();
  auto mul = [](ExpP a, ExpP b) { return binaryExp(BinOp::Mul, std::move(a), std::move(b)); };
  auto recip = [&](ExpP a) { return binaryExp(BinOp::Div, constFloat(1.0, k), std::move(a)); };
  // sqrt(-0) is -0 where pow(-0, 0.5) is +0; x * sqrt(x) is +0 there already
  auto root = [&]() { return binaryExp(BinOp::Add, callExp("sqrt", {x}, k), constFloat(0.0, k)); };
  auto xroot = [&]() { return mul(x, callExp("sqrt", {x}, k)); };
  auto atMinusInf = [&](double v, ExpP other) {
    return selectExp(binaryExp(BinOp::Eq, x, constFloat(-inf, k)), constFloat(v, k), std::move(other));
  };
  if (c == 1) return x;
  if (c == 2) return mul(x, x);
  if (c == 3) return mul(mul(x, x), x);
  if (c == -1) return recip(x);
  if (c == 0.5) return atMinusInf(inf, root());
  if (c == 1.5) return atMinusInf(inf, xroot());
  if (c == -0.5) return atMinusInf(0.0, recip(root()));
  if (c == -1.5) return atMinusInf(0.0, recip(xroot()));
  return nullptr;
}


static ExpP fold(const ExpP &e) {
  int64_t a, b;
  switch (e->kind) {
  case Exp::Binary: {
    const ExpP &x = e->args[0], &y = e->args[1];
    if (isConst(x) && isConst(y)) {
      bool fl = isFloatKind(x->type.elem);
      if (fl) {
        double p = x->fval, q = y->fval;
        switch (e->binop) {
        case BinOp::Add: return constFloat(p + q, e->type.elem);
        case BinOp::Sub: return constFloat(p - q, e->type.elem);
        case BinOp::Mul: return constFloat(p * q, e->type.elem);
        // IEEE division (x / 0.0 is an infinity or NaN, as on the device);
        // rounding the double quotient of two floats gives the float one
        case BinOp::Div: return constFloat(p / q, e->type.elem);
        case BinOp::Lt: return constBool(p < q);
        case BinOp::Le: return constBool(p <= q);
        case BinOp::Gt: return constBool(p > q);
        case BinOp::Ge: return constBool(p >= q);
        case BinOp::Eq: return constBool(p == q);
        case BinOp::Ne: return constBool(p != q);
        default: return nullptr;
        }
      }
      constValue(x, a), constValue(y, b);
      ScalarKind k = e->type.elem;
      switch (e->binop) {
      case BinOp::Add: return constInt(int64_t(uint64_t(a) + uint64_t(b)), k);
      case BinOp::Sub: return constInt(int64_t(uint64_t(a) - uint64_t(b)), k);
      case BinOp::Mul: return constInt(int64_t(uint64_t(a) * uint64_t(b)), k);
      case BinOp::Div: return b == 0 || b == -1 ? nullptr : constInt(a / b, k);
      case BinOp::Mod: return b == 0 || b == -1 ? nullptr : constInt(a % b, k);
      case BinOp::Lt: return constBool(a < b);
      case BinOp::Le: return constBool(a <= b);
      case BinOp::Gt: return constBool(a > b);
      case BinOp::Ge: return constBool(a >= b);
      case BinOp::Eq: return constBool(a == b);
      case BinOp::Ne: return constBool(a != b);
      case BinOp::And: return constBool(a && b);
      case BinOp::Or: return constBool(a || b);
      default: return nullptr;
      }
    }
    // x && false, x || true: x goes only where it cannot raise
    if (e->binop == BinOp::And) {
      if (constValue(x, a)) return a ? y : constBool(false);
      if (constValue(y, b) && b) return x;
      if (constValue(y, b) && !b && !hasCheckedRead(x)) return constBool(false);
    }
    if (e->binop == BinOp::Or) {
      if (constValue(x, a)) return a ? constBool(true) : y;
      if (constValue(y, b) && !b) return x;
      if (constValue(y, b) && b && !hasCheckedRead(x)) return constBool(true);
    }
    if (!isFloatKind(e->type.elem)) {
      if (e->binop == BinOp::Add && constValue(y, b) && b == 0) return x;
      if (e->binop == BinOp::Add && constValue(x, a) && a == 0) return y;
      if (e->binop == BinOp::Mul && constValue(y, b) && b == 1) return x;
      if (e->binop == BinOp::Mul && constValue(x, a) && a == 1) return y;
      if (e->binop == BinOp::Sub && constValue(y, b) && b == 0) return x;
    }
    if (e->binop == BinOp::Eq && sameExp(x, y) && !isFloatKind(x->type.elem)) return constBool(true);
    return nullptr;
  }
  case Exp::Unary:
    if (constValue(e->args[0], a)) {
      if (e->unop == UnOp::Not) return constBool(!a);
      if (e->unop == UnOp::Neg) return constInt(-a, e->type.elem);
    }
    return nullptr;
  case Exp::Select:
    if (constValue(e->args[0], a)) return a ? e->args[1] : e->args[2];
    if (sameExp(e->args[1], e->args[2])) return e->args[1];
    if (e->type.elem == ScalarKind::Bool && constValue(e->args[1], a) && constValue(e->args[2], b))
      return a ? e->args[0] : unaryExp(UnOp::Not, e->args[0]); // select(c, true, false) = c
    return nullptr;
  case Exp::Convert:
    if (isConst(e->args[0]) || e->args[0]->type.elem == e->type.elem) return convertExp(e->args[0], e->type.elem);
    return nullptr;
  case Exp::Call:
    if (e->fn == "max" && e->args.size() == 2 && constValue(e->args[0], a) && constValue(e->args[1], b))
      return constInt(std::max(a, b), e->type.elem);
    if (e->fn == "pow" && e->args.size() == 2) return powByConstant(e);
    return nullptr;
  default: return nullptr;
  }
}

namespace {
struct Simplifier {
  ir::Module &m;
  std::map<int, ExpP> sub;             // copy propagation
  std::map<int, std::vector<ExpP>> mapDims; // Map / View outs -> extents

  ExpP rw(const ExpP &e) {
    return rewriteExp(e, [&](const ExpP &x) -> ExpP {
      if (x->kind == Exp::Var) {
        auto it = sub.find(x->var);
        if (it != sub.end()) return it->second;
        return nullptr;
      }
      if (x->kind == Exp::Shape && x->args[0]->kind == Exp::Var) {
        auto it = mapDims.find(x->args[0]->var);
        if (it != mapDims.end() && x->axis < int(it->second.size())) return it->second[x->axis];
      }
      return fold(x);
    });
  }

  // An If whose branches only yield scalar variables or constants becomes
  // one Select per output (both sides are safe to evaluate).
  bool selectIf(If &x, std::vector<StmtP> &out) {
    if (!x.thenB.stmts.empty() || !x.elseB.stmts.empty()) return false;
    // Both branches yield the same scalars (a segment start's `ne op x`
    // where op ignores its left side): those, whatever the condition.
    // (Nothing that can raise: the condition goes, and sameExp ignores
    // the positions of checks.)
    bool same = !hasCheckedRead(x.cond);
    for (size_t k = 0; same && k < x.outs.size(); ++k)
      same = x.thenB.results[k]->type.rank == 0 && !hasCheckedRead(x.thenB.results[k]) &&
             sameExp(x.thenB.results[k], x.elseB.results[k]);
    if (same) {
      for (size_t k = 0; k < x.outs.size(); ++k) {
        auto let = std::make_shared<Let>();
        let->outs = {x.outs[k]};
        let->value = x.thenB.results[k];
        out.push_back(let);
      }
      return true;
    }
    for (auto *blk : {&x.thenB, &x.elseB})
      for (auto &r : blk->results)
        if ((r->kind != Exp::Var && r->kind != Exp::Const) || r->type.rank != 0) return false;
    ExpP cond = x.cond;
    if (cond->kind != Exp::Var && cond->kind != Exp::Const && x.outs.size() > 1) {
      // One condition for all the Selects.
      auto let = std::make_shared<Let>();
      let->outs = {m.newVar("c", cond->type)};
      let->value = cond;
      out.push_back(let);
      cond = varExp(m, let->outs[0]);
    }
    for (size_t k = 0; k < x.outs.size(); ++k) {
      ExpP v = rw(selectExp(cond, x.thenB.results[k], x.elseB.results[k]));
      if (v->kind == Exp::Var || v->kind == Exp::Const) {
        sub[x.outs[k]] = v;
        continue;
      }
      auto let = std::make_shared<Let>();
      let->outs = {x.outs[k]};
      let->value = v;
      out.push_back(let);
    }
    return true;
  }

  // Host Maps that copy a rank-1 array element by element (`[x | x <- xs]`,
  // sort_by's keys for `\x -> x`): output -> the array copied.
  std::map<int, int> copyOf;
  void noteCopy(const Map &m) {
    if (m.dims.size() != 1 || m.outs.size() != 1 || !m.body.stmts.empty() || m.body.results.size() != 1) return;
    const ExpP &r = m.body.results[0];
    if (r->kind == Exp::Read && r->checkPos < 0 && r->args.size() == 2 && r->args[0]->kind == Exp::Var &&
        r->args[0]->type.rank == 1 && r->args[1]->kind == Exp::Var && r->args[1]->var == m.index[0] &&
        m.dims[0]->kind == Exp::Shape && m.dims[0]->args[0]->kind == Exp::Var &&
        m.dims[0]->args[0]->var == r->args[0]->var && m.dims[0]->axis == 0)
      copyOf[m.outs[0]] = r->args[0]->var;
  }
  // A Sort whose keys are one of its value arrays (or a copy of it):
  // sort_by(\x -> x, xs). Those values, permuted like their keys, are the
  // sorted keys: sorted once, as keys alone (the runtime's sort of keys
  // without values: PoCL, 10^6 ints, 3.2 -> 1.6 ms).
  void sortByItself(Sort &x) {
    if (x.keys->kind != Exp::Var) return;
    int k = x.keys->var;
    auto c = copyOf.find(k);
    int src = c == copyOf.end() ? k : c->second;
    for (size_t j = 0; j < x.values.size(); ++j) {
      const ExpP v = x.values[j]; // a copy: erased below
      if (v->kind != Exp::Var || (v->var != k && v->var != src)) continue;
      sub[x.outs[1 + j]] = varExp(x.outs[0], m.vars.at(static_cast<size_t>(x.outs[0])).type);
      x.values.erase(x.values.begin() + static_cast<long>(j));
      x.outs.erase(x.outs.begin() + static_cast<long>(1 + j));
      if (src != k) x.keys = v;
      return;
    }
  }

  void block(Block &b, std::map<std::string, ExpP> cse, bool host) {
    std::vector<StmtP> out;
    for (auto &s : b.stmts) {
      forEachExp(*s, [&](ExpP &e) { e = rw(e); });
      if (s->kind == StmtKind::Write) {
        auto &w = static_cast<Write &>(*s);
        auto it = sub.find(w.array);
        if (it != sub.end() && it->second->kind == Exp::Var) w.array = it->second->var;
      }
      if (s->kind == StmtKind::Let && s->note.empty()) {
        auto &l = static_cast<Let &>(*s);
        if (l.value->kind == Exp::Var || l.value->kind == Exp::Const) {
          sub[s->outs[0]] = l.value;
          continue;
        }
        if (l.value->type.rank == 0) {
          std::string key = expKey(l.value);
          auto it = cse.find(key);
          if (it != cse.end()) {
            sub[s->outs[0]] = it->second;
            continue;
          }
          cse[key] = varExp(s->outs[0], l.value->type);
        }
      }
      if (s->kind == StmtKind::If) {
        auto &x = static_cast<If &>(*s);
        int64_t c;
        if (constValue(x.cond, c)) {
          // Inline the taken branch.
          Block &taken = c ? x.thenB : x.elseB;
          block(taken, cse, host);
          for (auto &t : taken.stmts) out.push_back(t);
          for (size_t k = 0; k < s->outs.size(); ++k) sub[s->outs[k]] = rw(taken.results[k]);
          continue;
        }
      }
      bool soac = s->kind >= StmtKind::Map;
      forEachBlock(*s, [&](Block &in) { block(in, soac ? std::map<std::string, ExpP>{} : cse, host && !soac); });
      if (s->kind == StmtKind::Map && host) {
        auto &m = static_cast<Map &>(*s);
        for (int o : s->outs) mapDims[o] = m.dims;
      }
      if (s->kind == StmtKind::View && host) mapDims[s->outs[0]] = static_cast<View &>(*s).shape;
      if (s->kind == StmtKind::Map && host) noteCopy(static_cast<Map &>(*s));
      if (s->kind == StmtKind::Sort && host) sortByItself(static_cast<Sort &>(*s));
      if (s->kind == StmtKind::If && selectIf(static_cast<If &>(*s), out)) continue;
      out.push_back(s);
    }
    b.stmts = std::move(out);
    for (auto &r : b.results) r = rw(r);
  }
};
} // namespace

void simplify(ir::Module &m) {
  for (auto &f : m.functions) {
    Simplifier s{m, {}, {}, {}};
    s.block(f.body, {}, true);
  }
}

} // namespace arrc::passes
