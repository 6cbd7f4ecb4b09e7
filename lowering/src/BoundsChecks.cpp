// Bounds-check elimination (docs/lowering.md, "Bounds checks"): clears
// `checkPos` on the Reads whose indices it proves in range, decides integer
// comparisons with a constant that the same facts settle, replaces by 0 the
// in-body guard reads `guard[select(ok, 0L, 1L)]!pos` whose condition it
// proves, and turns a guard that every element of a SOAC meets first, over
// values fixed for the whole SOAC, into a host Check before the SOAC (which
// then also serves as a fact in the body).
//
// Soundness. Device code does not stop at a failed check: a failed read (a
// guard included) records the error and yields 0, and execution goes on. So
// the facts used here are only ones that hold on every path reaching a read,
// whatever failed before it:
//  * a SOAC index i satisfies 0 <= i < n (its extent; Map: dims[k]; Expand:
//    inner j < size(i)); a `for` loop counter 0 <= k < count;
//  * a Let variable equals its value (SSA); a guard read's value is 0 on
//    every path that goes on (the device yields 0 whether it fails or not, the
//    host and the interpreter stop when it fails). A guard's *condition* is
//    never a fact: after a failing guard the device goes on;
//  * Shape(A, k) >= 0, and the extent of a Map / View / Alloc / Literal /
//    Scan / Hist / Scatter / Sort output is the expression it was made with
//    (the runtime allocates max(0, that), which is no smaller);
//  * a host Check stops the program when it fails: its equalities and
//    inequalities hold in the statements after it (and in nested blocks);
//  * an If's condition holds in its then-branch, its negation in the else.
// Integers wrap (LANGUAGE.md): an int or long operation is taken as exact
// arithmetic only where the interval analysis shows its value in range;
// otherwise it is an opaque value of the type's whole range. So a conversion
// int(x) is x only where x is known in [-2^31, 2^31); else it is a separate
// value that is at most x when x >= 0 (either x < 2^31 and it is x, or it is
// below 2^31 <= x). Integer division and modulo never trap in the IR (x / 0
// == x % 0 == 0).
//
// The prover (`Prover`) decides D >= 0 for a linear form D over "atoms"
// (variables without a linear definition, shapes, max/min/select, products,
// quotients, remainders, int conversions), by interval arithmetic, after
// replacing an atom by a proven upper bound where it has a negative
// coefficient (k <= count - 1 for a loop counter, int(x) <= x for x >= 0,
// x / b <= X - 1 when x < X * b, ...), case splits of max/select, and a split
// of an extent's range at 2^31 where an int conversion of it appears.
#include "Passes.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <map>
#include <memory>
#include <sstream>

namespace arrc::passes {
using namespace ir;

namespace {

// ------------------------------------------------------------------ numbers
// Interval bounds are 128-bit, so that int64 arithmetic on them cannot
// overflow unnoticed; +-2^100 stand for +-infinity.
using Big = __int128;
const Big kInf = Big(1) << 100;
constexpr int64_t kIntMin = INT32_MIN, kIntMax = INT32_MAX;

Big clampB(Big x) { return x > kInf ? kInf : x < -kInf ? -kInf : x; }
Big addB(Big a, Big b) { return clampB(a + b); }
Big mulB(Big a, Big b) {
  if (a == 0 || b == 0) return 0;
  if (a == 1) return b;
  if (b == 1) return a;
  const Big lim = Big(1) << 63; // |a|, |b| <= 2^63: |a * b| <= 2^126, no overflow
  if (a > lim || a < -lim || b > lim || b < -lim) return (a < 0) != (b < 0) ? -kInf : kInf;
  return clampB(a * b);
}

struct Iv {
  Big lo = -kInf, hi = kInf;
  bool empty() const { return lo > hi; }
};
Iv ivAdd(Iv a, Iv b) { return {addB(a.lo, b.lo), addB(a.hi, b.hi)}; }
Iv ivScale(Iv a, int64_t k) {
  Big x = mulB(a.lo, k), y = mulB(a.hi, k);
  return {std::min(x, y), std::max(x, y)};
}
Iv ivMul(Iv a, Iv b) {
  Big p[] = {mulB(a.lo, b.lo), mulB(a.lo, b.hi), mulB(a.hi, b.lo), mulB(a.hi, b.hi)};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}
Iv ivMeet(Iv a, Iv b) { return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)}; }
// All values of a scalar type.
Iv typeRange(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool: return {0, 1};
  case ScalarKind::Int: return {kIntMin, kIntMax};
  default: return {INT64_MIN, INT64_MAX};
  }
}
// A value of this interval is exact in the type (no wrap-around happened).
bool fits(Iv v, ScalarKind k) {
  Iv t = typeRange(k);
  return v.lo >= t.lo && v.hi <= t.hi;
}

// ------------------------------------------------------------ linear forms
struct Atom;
using AtomP = std::shared_ptr<const Atom>;

// c + sum(k * atom), the exact (mathematical) value of an integer expression.
struct Lin {
  int64_t c = 0;
  std::map<std::string, std::pair<int64_t, AtomP>> t; // atom key -> (coefficient, atom)
  bool ok = true; // false: a coefficient overflowed (nothing can be proven)
};

struct Atom {
  enum Kind {
    Leaf,    // a variable (var) or an extent (var = root array, axis)
    Max, Min, Select, // of args[0], args[1]
    Div, Mod, // args[0] / args[1], args[0] % args[1]
    ToInt,   // int(args[0]), args[0] possibly outside the int range
    Mul,     // args[0] * args[1] (no wrap-around)
    Opaque   // anything else: an element read, a wrapped operation (args: its parts, if any)
  } kind = Opaque;
  std::string key;
  ExpP src;               // the IR expression it stands for
  std::vector<Lin> args;
  ScalarKind type = ScalarKind::Long;
  int var = -1, axis = -1;
  // Select of a comparison: when[i] >= 0 holds where it yields args[i]
  // (the condition, then its negation); empty for other conditions.
  std::vector<Lin> when;
};

std::string linKey(const Lin &l) {
  std::string s = std::to_string(l.c);
  for (auto &kv : l.t) s += "+" + std::to_string(kv.second.first) + "*" + kv.first;
  return s;
}
bool isSingle(const Lin &l) { return l.ok && l.c == 0 && l.t.size() == 1 && l.t.begin()->second.first == 1; }
const AtomP &single(const Lin &l) { return l.t.begin()->second.second; }

Lin linConst(int64_t c) {
  Lin l;
  l.c = c;
  return l;
}
Lin linAtom(AtomP a) {
  Lin l;
  l.t[a->key] = {1, a};
  return l;
}
void addTo(Lin &r, const Lin &b, int64_t k) {
  if (!r.ok || !b.ok) {
    r.ok = false;
    return;
  }
  int64_t p;
  if (__builtin_mul_overflow(b.c, k, &p) || __builtin_add_overflow(r.c, p, &r.c)) r.ok = false;
  for (auto &kv : b.t) {
    auto it = r.t.find(kv.first);
    int64_t q;
    if (__builtin_mul_overflow(kv.second.first, k, &q)) r.ok = false;
    if (it == r.t.end()) {
      if (q) r.t[kv.first] = {q, kv.second.second};
    } else {
      if (__builtin_add_overflow(it->second.first, q, &it->second.first)) r.ok = false;
      if (it->second.first == 0) r.t.erase(it);
    }
  }
}
Lin linSum(const Lin &a, const Lin &b, int64_t kb = 1) {
  Lin r = a;
  addTo(r, b, kb);
  return r;
}
// The fact p >= q + off, as p - q - off (>= 0).
Lin linAtLeast(const Lin &p, const Lin &q, int64_t off) { return linSum(linSum(p, q, -1), linConst(off), -1); }
Lin linScale(const Lin &a, int64_t k) {
  Lin r;
  addTo(r, a, k);
  return r;
}
// D with the atom `key` (coefficient k in D) replaced by `by`.
Lin replaceAtom(const Lin &d, const std::string &key, const Lin &by) {
  auto it = d.t.find(key);
  if (it == d.t.end()) return d;
  int64_t k = it->second.first;
  Lin r = d;
  r.t.erase(key);
  addTo(r, by, k);
  return r;
}
bool mentions(const Lin &l, const std::string &key);
bool mentionsAtom(const Atom &a, const std::string &key) {
  if (a.key == key) return true;
  for (auto &x : a.args)
    if (mentions(x, key)) return true;
  return false;
}
bool mentions(const Lin &l, const std::string &key) {
  for (auto &kv : l.t)
    if (mentionsAtom(*kv.second.second, key)) return true;
  return false;
}

// ------------------------------------------------------------------ facts
// What holds where the prover is asked: known extents of index variables and
// facts of the enclosing scope.
struct Scope {
  std::map<std::string, Lin> eq; // atom key -> an equal linear form (host Check equalities)
  std::vector<Lin> assume;       // each >= 0
};

// Refinements made by the prover's case splits.
struct Env {
  std::map<std::string, Iv> refine; // leaf atom key -> a narrower interval
  std::vector<Lin> assume;          // each >= 0
};

class Analysis {
public:
  explicit Analysis(const ir::Module &m) {
    for (auto &g : m.guards) guards_.insert(g.var);
  }

  // Facts about the function's variables (all blocks; variables are defined once).
  void collect(const Block &b) {
    for (auto &s : b.stmts) collectStmt(*s);
  }
  const std::set<int> &guards() const { return guards_; }

  // --- the linear form of an integer expression under a scope and an env
  Lin lin(const ExpP &e, const Scope &sc, const Env &env, int depth = 0) {
    if (depth > 64 || ++work_ > kWorkLimit) return opaque(e, nullptr);
    ScalarKind k = e->type.elem;
    if (isFloatKind(k) || e->type.rank != 0) return opaque(e, nullptr);
    switch (e->kind) {
    case Exp::Const: return linConst(e->ival);
    case Exp::Var: {
      auto d = defs_.find(e->var);
      if (d != defs_.end()) {
        Lin l = lin(d->second, sc, env, depth + 1);
        // a variable bound to an element read (or other opaque value) is its own atom
        if (!(isSingle(l) && single(l)->kind == Atom::Opaque && single(l)->args.empty())) return l;
      }
      auto a = std::make_shared<Atom>();
      a->kind = Atom::Leaf;
      a->var = e->var;
      a->key = "v" + std::to_string(e->var);
      a->src = e;
      a->type = k;
      return atomLin(a, sc);
    }
    case Exp::Shape: {
      int root = arrayRoot(e->args[0]);
      if (root < 0) return opaque(e, nullptr);
      auto x = extents_.find(root);
      if (x != extents_.end() && e->axis < int(x->second.size())) return lin(x->second[e->axis], sc, env, depth + 1);
      auto a = std::make_shared<Atom>();
      a->kind = Atom::Leaf;
      a->var = root;
      a->axis = e->axis;
      a->key = "s" + std::to_string(root) + "." + std::to_string(e->axis);
      a->src = e;
      return atomLin(a, sc);
    }
    case Exp::Read:
      // A guard read is 0 on every path that goes on past it.
      if (e->args[0]->kind == Exp::Var && guards_.count(e->args[0]->var)) return linConst(0);
      return opaque(e, nullptr);
    case Exp::Unary:
      if (e->unop == UnOp::Neg) return exact(e, linScale(lin(e->args[0], sc, env, depth + 1), -1), env);
      return opaque(e, nullptr);
    case Exp::Binary: {
      BinOp op = e->binop;
      if (op != BinOp::Add && op != BinOp::Sub && op != BinOp::Mul && op != BinOp::Div && op != BinOp::Mod)
        return opaque(e, nullptr);
      Lin a = lin(e->args[0], sc, env, depth + 1), b = lin(e->args[1], sc, env, depth + 1);
      if (!a.ok || !b.ok) return opaque(e, nullptr);
      if (op == BinOp::Add) return exact(e, linSum(a, b), env);
      if (op == BinOp::Sub) return exact(e, linSum(a, b, -1), env);
      if (op == BinOp::Mul) {
        if (a.t.empty()) return exact(e, linScale(b, a.c), env);
        if (b.t.empty()) return exact(e, linScale(a, b.c), env);
        auto m = compound(Atom::Mul, e, {a, b}, true);
        Lin ml = linAtom(m);
        if (!fits(interval(*m, env), k)) return opaque(e, &ml); // it may wrap around
        return atomLin(m, sc);
      }
      return atomLin(compound(op == BinOp::Div ? Atom::Div : Atom::Mod, e, {a, b}, false), sc);
    }
    case Exp::Convert: {
      ScalarKind from = e->args[0]->type.elem;
      if (isFloatKind(from) || k == ScalarKind::Bool) return opaque(e, nullptr);
      Lin a = lin(e->args[0], sc, env, depth + 1);
      if (k == ScalarKind::Long || from == ScalarKind::Bool || from == ScalarKind::Int) return a;
      // long -> int: exact where the value is in the int range
      if (a.ok && fits(interval(a, env), ScalarKind::Int)) return a;
      if (!a.ok) return opaque(e, nullptr);
      auto t = compound(Atom::ToInt, e, {a}, false);
      t->type = ScalarKind::Int;
      return atomLin(t, sc);
    }
    case Exp::Call:
      if ((e->fn == "max" || e->fn == "min") && e->args.size() == 2) {
        Lin a = lin(e->args[0], sc, env, depth + 1), b = lin(e->args[1], sc, env, depth + 1);
        if (!a.ok || !b.ok) return opaque(e, nullptr);
        bool mx = e->fn == "max";
        if (linKey(a) == linKey(b)) return a;
        Iv ia = interval(a, env), ib = interval(b, env);
        if (ia.lo >= ib.hi) return mx ? a : b;
        if (ib.lo >= ia.hi) return mx ? b : a;
        return atomLin(compound(mx ? Atom::Max : Atom::Min, e, {a, b}, true), sc);
      }
      return opaque(e, nullptr);
    case Exp::Select: {
      Lin a = lin(e->args[1], sc, env, depth + 1), b = lin(e->args[2], sc, env, depth + 1);
      if (!a.ok || !b.ok) return opaque(e, nullptr);
      if (linKey(a) == linKey(b)) return a;
      auto s = compound(Atom::Select, e, {a, b}, false);
      s->key = "sel@" + nodeKey(e) + "(" + s->key + ")"; // the condition is part of its identity
      const ExpP &c = e->args[0];
      if (c->kind == Exp::Binary && !c->args.empty() && !isFloatKind(c->args[0]->type.elem) &&
          c->args[0]->type.elem != ScalarKind::Bool) {
        // x < y holds in the first case (y - x - 1 >= 0), x >= y in the second
        Lin x = lin(c->args[0], sc, env, depth + 1), y = lin(c->args[1], sc, env, depth + 1);
        if (x.ok && y.ok) switch (c->binop) {
          case BinOp::Lt: s->when = {linAtLeast(y, x, 1), linAtLeast(x, y, 0)}; break;
          case BinOp::Le: s->when = {linAtLeast(y, x, 0), linAtLeast(x, y, 1)}; break;
          case BinOp::Gt: s->when = {linAtLeast(x, y, 1), linAtLeast(y, x, 0)}; break;
          case BinOp::Ge: s->when = {linAtLeast(x, y, 0), linAtLeast(y, x, 1)}; break;
          default: break;
          }
      }
      return atomLin(s, sc);
    }
    default: return opaque(e, nullptr);
    }
  }

  // --- intervals
  Iv interval(const Lin &l, const Env &env) {
    if (!l.ok) return {};
    Iv r{l.c, l.c};
    for (auto &kv : l.t) r = ivAdd(r, ivScale(interval(*kv.second.second, env), kv.second.first));
    return r;
  }
  Iv interval(const Atom &a, const Env &env) {
    Iv r = typeRange(a.type);
    switch (a.kind) {
    case Atom::Leaf:
      if (a.axis >= 0) {
        r = {0, INT64_MAX};
      } else {
        auto c = counts_.find(a.var);
        if (c != counts_.end()) {
          Iv n = interval(lin(c->second, Scope{}, env), env);
          r = ivMeet(r, {0, addB(n.hi, -1)});
        }
      }
      break;
    case Atom::Max: case Atom::Min: {
      Iv x = interval(a.args[0], env), y = interval(a.args[1], env);
      r = a.kind == Atom::Max ? Iv{std::max(x.lo, y.lo), std::max(x.hi, y.hi)} : Iv{std::min(x.lo, y.lo), std::min(x.hi, y.hi)};
      break;
    }
    case Atom::Select: {
      Iv x = interval(a.args[0], env), y = interval(a.args[1], env);
      r = {std::min(x.lo, y.lo), std::max(x.hi, y.hi)};
      break;
    }
    case Atom::Div: {
      Iv x = interval(a.args[0], env), y = interval(a.args[1], env);
      if (x.lo >= 0 && y.lo >= 0) {
        r = {0, x.hi};
        if (y.lo >= 1) r = {x.lo / std::max<Big>(y.hi, 1), x.hi / y.lo};
        Lin q;
        if (quotientBound(a, env, q)) r.hi = std::min(r.hi, interval(q, env).hi);
      }
      break;
    }
    case Atom::Mod: {
      Iv x = interval(a.args[0], env), y = interval(a.args[1], env);
      if (x.lo >= 0 && y.lo >= 0) r = {0, std::max<Big>(0, std::min(x.hi, addB(y.hi, -1)))};
      break;
    }
    case Atom::ToInt: r = typeRange(ScalarKind::Int); break;
    case Atom::Mul: r = ivMul(interval(a.args[0], env), interval(a.args[1], env)); break;
    case Atom::Opaque: break;
    }
    auto f = env.refine.find(a.key);
    if (f != env.refine.end()) r = ivMeet(r, f->second);
    return r;
  }

  // --- upper bounds of an atom: atom <= bound, given the side facts (each >= 0)
  struct Bound {
    Lin bound;
    std::vector<Lin> side;
  };
  std::vector<Bound> upperBounds(const Atom &a, const Scope &sc, const Env &env) {
    std::vector<Bound> out;
    auto nonneg = [&](const Lin &l) { return interval(l, env).lo >= 0; };
    switch (a.kind) {
    case Atom::Leaf: {
      auto c = counts_.find(a.var);
      if (a.axis < 0 && c != counts_.end()) {
        // a loop counter / SOAC index: 0 <= k <= count - 1 (so count - 1 >= 0 too)
        Lin b = linSum(lin(c->second, sc, env), linConst(1), -1);
        out.push_back({b, {b}});
      }
      break;
    }
    case Atom::ToInt:
      // int(x) <= x for x >= 0: x < 2^31 gives x itself, else it is below 2^31 <= x
      if (nonneg(a.args[0])) out.push_back({a.args[0], {}});
      break;
    case Atom::Min:
      out.push_back({a.args[0], {}});
      out.push_back({a.args[1], {}});
      break;
    case Atom::Div: {
      if (!nonneg(a.args[0]) || !nonneg(a.args[1])) break;
      Lin q;
      if (quotientBound(a, env, q)) out.push_back({q, {q}});
      out.push_back({a.args[0], {}}); // x / b <= x for x, b >= 0 (x / 0 == 0)
      break;
    }
    case Atom::Mod: {
      if (!nonneg(a.args[0]) || !nonneg(a.args[1])) break;
      // x % b <= b - 1 for b >= 1: known, or implied by 0 <= x < X * b
      Lin q;
      if (interval(a.args[1], env).lo >= 1 || quotientBound(a, env, q)) {
        Lin b = linSum(a.args[1], linConst(1), -1);
        out.push_back({b, {b}});
      }
      out.push_back({a.args[0], {}}); // x % b <= x for x, b >= 0
      break;
    }
    default: break;
    }
    return out;
  }

  // For a = x / b or x % b with x a counter below count = X * b (X, b >= 0,
  // the product exact): q = X - 1 bounds x / b (x <= X*b - 1 gives
  // x / b <= X - 1; x >= 0 makes X*b >= 1, so b >= 1).
  bool quotientBound(const Atom &a, const Env &env, Lin &q) {
    if (a.args.size() != 2 || !isSingle(a.args[0])) return false;
    const Atom &x = *single(a.args[0]);
    if (x.kind != Atom::Leaf || x.axis >= 0) return false;
    auto c = counts_.find(x.var);
    if (c == counts_.end()) return false;
    Lin n = lin(c->second, Scope{}, env);
    if (!isSingle(n) || single(n)->kind != Atom::Mul) return false;
    const Atom &m = *single(n);
    std::string bk = linKey(a.args[1]);
    for (int i = 0; i < 2; ++i) {
      if (linKey(m.args[i]) != bk) continue;
      const Lin &other = m.args[1 - i];
      if (interval(other, env).lo < 0 || interval(m.args[i], env).lo < 0) return false;
      q = linSum(other, linConst(1), -1);
      return true;
    }
    return false;
  }

  // The root array variable of an array expression (through Lets of arrays).
  int arrayRoot(const ExpP &e) const { return e->kind == Exp::Var ? rootVar(e->var) : -1; }
  int rootVar(int v) const {
    for (int i = 0; i < 64; ++i) {
      auto it = alias_.find(v);
      if (it == alias_.end()) return v;
      v = it->second;
    }
    return v;
  }
  // The position of an in-body guard that e relies on (a guard read in it,
  // in the values of the variables it uses, or in the counts of the counters
  // it uses), or -1.
  int guardDependence(const ExpP &e, int depth = 0) {
    if (depth > 64) return -1;
    if (e->kind == Exp::Read && e->checkPos >= 0 && e->args[0]->kind == Exp::Var && guards_.count(e->args[0]->var))
      return e->checkPos;
    if (e->kind == Exp::Var) {
      auto memo = guardDep_.find(e->var);
      if (memo != guardDep_.end()) return memo->second;
      int pos = -1;
      auto d = defs_.find(e->var);
      if (d != defs_.end()) pos = guardDependence(d->second, depth + 1);
      auto c = counts_.find(e->var);
      if (pos < 0 && c != counts_.end()) pos = guardDependence(c->second, depth + 1);
      guardDep_[e->var] = pos;
      return pos;
    }
    for (auto &a : e->args) {
      int pos = guardDependence(a, depth + 1);
      if (pos >= 0) return pos;
    }
    return -1;
  }
  const ExpP *def(int var) const {
    auto it = defs_.find(var);
    return it == defs_.end() ? nullptr : &it->second;
  }
  void setDef(int var, const ExpP &value) {
    guardDep_.clear();
    if (defs_.count(var)) defs_[var] = value;
  }

private:
  std::map<int, ExpP> defs_;                 // scalar Let: var -> value
  std::map<int, ExpP> counts_;               // counters / indices: 0 <= var < count
  std::map<int, int> alias_;                 // array Let: var -> var
  std::map<int, std::vector<ExpP>> extents_; // array var -> extents
  std::set<int> guards_;
  std::map<int, int> guardDep_; // memo of guardDependence for variables
  std::set<int> written_; // arrays that Write statements store into
  std::map<int, int> defCount_;
  int fresh_ = 0;
  // Expressions linearized for the current question (shared subexpressions
  // are linearized again where they occur): past the limit, nothing more is
  // looked into.
  static constexpr long kWorkLimit = 200000;
  long work_ = 0;

public:
  void newQuestion() { work_ = 0; }

private:

  // The identity of an expression the prover does not look into: the node
  // itself (variables are defined once, so the same node has the same
  // value wherever it is evaluated), unless it reads an array that device
  // code writes (it may change in between): then a fresh key, equal to
  // nothing else.
  std::string nodeKey(const ExpP &e) {
    if (readsWritten(e)) return "#" + std::to_string(fresh_++);
    std::ostringstream o;
    o << static_cast<const void *>(e.get());
    return o.str();
  }
  bool readsWritten(const ExpP &e) const {
    if (e->kind == Exp::Read && e->args[0]->kind == Exp::Var && written_.count(arrayRoot(e->args[0]))) return true;
    for (auto &a : e->args)
      if (readsWritten(a)) return true;
    return false;
  }
  Lin opaque(const ExpP &e, const Lin *parts) {
    auto a = std::make_shared<Atom>();
    a->kind = Atom::Opaque;
    a->src = e;
    a->type = e->type.elem;
    a->key = "@" + nodeKey(e);
    if (parts) a->args = {*parts};
    return linAtom(a);
  }
  // The linear form of an int/long operation whose exact value is l: itself
  // if it cannot wrap around, else an opaque value of the type's range.
  Lin exact(const ExpP &e, const Lin &l, const Env &env) {
    if (!l.ok) return opaque(e, nullptr);
    if (fits(interval(l, env), e->type.elem)) return l;
    return opaque(e, &l);
  }
  std::shared_ptr<Atom> compound(Atom::Kind kind, const ExpP &e, std::vector<Lin> args, bool commutative) {
    auto a = std::make_shared<Atom>();
    a->kind = kind;
    a->src = e;
    a->type = e->type.elem;
    std::vector<std::string> ks;
    for (auto &x : args) ks.push_back(linKey(x));
    if (commutative && ks.size() == 2 && ks[1] < ks[0]) {
      std::swap(ks[0], ks[1]);
      std::swap(args[0], args[1]);
    }
    static const char *names[] = {"leaf", "max", "min", "sel", "div", "mod", "int", "mul", "opq"};
    std::string key = std::string(names[kind]) + "(";
    for (size_t i = 0; i < ks.size(); ++i) key += (i ? "," : "") + ks[i];
    a->key = key + ")";
    a->args = std::move(args);
    return a;
  }
  // An atom, or what a host Check says it equals.
  Lin atomLin(const AtomP &a, const Scope &sc) {
    auto it = sc.eq.find(a->key);
    if (it != sc.eq.end()) return it->second;
    return linAtom(a);
  }

  void collectStmt(const Stmt &s) {
    // the variables this statement itself defines (stmtDefs less nested blocks)
    std::set<int> defs, nested;
    stmtDefs(s, defs);
    forEachBlock(s, [&](const Block &b) { blockDefs(b, nested); });
    for (int v : defs)
      if (!nested.count(v)) defCount_[v]++;
    auto count = [&](int v, const ExpP &n) {
      if (v >= 0 && n) counts_[v] = n;
    };
    switch (s.kind) {
    case StmtKind::Let: {
      auto &l = static_cast<const Let &>(s);
      if (l.value->type.rank == 0) defs_[s.outs[0]] = l.value;
      else if (l.value->kind == Exp::Var) alias_[s.outs[0]] = l.value->var;
      break;
    }
    case StmtKind::Loop: {
      auto &x = static_cast<const ir::Loop &>(s);
      if (x.form == ir::Loop::For) count(x.index, x.count);
      break;
    }
    case StmtKind::Literal: {
      auto &x = static_cast<const Literal &>(s);
      std::vector<ExpP> sh;
      for (int64_t d : x.shape) sh.push_back(constLong(d));
      extents_[s.outs[0]] = sh;
      break;
    }
    case StmtKind::Alloc: extents_[s.outs[0]] = static_cast<const Alloc &>(s).dims; break;
    case StmtKind::Write: written_.insert(rootVar(static_cast<const Write &>(s).array)); break;
    case StmtKind::View: extents_[s.outs[0]] = static_cast<const View &>(s).shape; break;
    case StmtKind::Map: {
      auto &x = static_cast<const Map &>(s);
      for (size_t k = 0; k < x.index.size() && k < x.dims.size(); ++k) count(x.index[k], x.dims[k]);
      for (int o : s.outs) extents_[o] = x.dims;
      break;
    }
    case StmtKind::Reduce: count(static_cast<const Reduce &>(s).index, static_cast<const Reduce &>(s).n); break;
    case StmtKind::Scan: {
      auto &x = static_cast<const Scan &>(s);
      count(x.index, x.n);
      for (int o : s.outs) extents_[o] = {x.n};
      break;
    }
    case StmtKind::Filter: count(static_cast<const Filter &>(s).index, static_cast<const Filter &>(s).n); break;
    case StmtKind::Scatter: {
      auto &x = static_cast<const Scatter &>(s);
      count(x.index, x.n);
      for (size_t k = 0; k < s.outs.size() && k < x.dests.size(); ++k)
        extents_[s.outs[k]] = {shapeExp(x.dests[k], 0)};
      break;
    }
    case StmtKind::Hist: {
      auto &x = static_cast<const Hist &>(s);
      count(x.index, x.n);
      for (int o : s.outs) extents_[o] = {x.bins};
      break;
    }
    case StmtKind::MultiHist: {
      auto &x = static_cast<const MultiHist &>(s);
      count(x.index, x.n);
      for (size_t h = 0; h < s.outs.size() && h < x.bins.size(); ++h) extents_[s.outs[h]] = {x.bins[h]};
      break;
    }
    case StmtKind::Sort: {
      auto &x = static_cast<const Sort &>(s);
      for (int o : s.outs) extents_[o] = {shapeExp(x.keys, 0)};
      break;
    }
    case StmtKind::SegScan: count(static_cast<const SegScan &>(s).index, static_cast<const SegScan &>(s).n); break;
    case StmtKind::SegReduce: count(static_cast<const SegReduce &>(s).index, static_cast<const SegReduce &>(s).n); break;
    case StmtKind::Expand: {
      auto &x = static_cast<const Expand &>(s);
      count(x.index, x.n);
      if (x.size.results.size() == 1) count(x.inner, x.size.results[0]);
      break;
    }
    default: break;
    }
    forEachBlock(s, [&](const Block &b) { collect(b); });
    if (s.kind == StmtKind::If) {
      // an array out of an If: the extents both branches' arrays share
      // (FuseMultiHist's plans by device)
      auto &x = static_cast<const ir::If &>(s);
      for (size_t k = 0; k < s.outs.size() && k < x.thenB.results.size() && k < x.elseB.results.size(); ++k) {
        const ExpP &a = x.thenB.results[k], &b = x.elseB.results[k];
        if (a->kind != Exp::Var || b->kind != Exp::Var) continue;
        auto ea = extents_.find(a->var), eb = extents_.find(b->var);
        if (ea == extents_.end() || eb == extents_.end() || ea->second.size() != eb->second.size()) continue;
        bool same = true;
        for (size_t d = 0; d < ea->second.size(); ++d) same = same && sameExp(ea->second[d], eb->second[d]);
        if (same) extents_[s.outs[k]] = ea->second;
      }
    }
  }

public:
  // Variables defined more than once (never by lowering; then no fact is used).
  void dropAmbiguous() {
    for (auto &kv : defCount_) {
      if (kv.second <= 1) continue;
      defs_.erase(kv.first);
      counts_.erase(kv.first);
      alias_.erase(kv.first);
      extents_.erase(kv.first);
    }
  }
};

// ------------------------------------------------------------------ prover
class Prover {
public:
  Prover(Analysis &a, const Scope &sc) : a_(a), sc_(sc) {}

  // D >= 0 ?
  bool nonneg(const Lin &d) {
    Env env;
    env.assume = sc_.assume;
    steps_ = 0;
    return prove(d, env, 8);
  }
  // a <= b ?
  bool le(const ExpP &x, const ExpP &y) {
    a_.newQuestion();
    Env env;
    return nonneg(linSum(a_.lin(y, sc_, env), a_.lin(x, sc_, env), -1));
  }
  bool lt(const ExpP &x, const ExpP &y) {
    a_.newQuestion();
    Env env;
    return nonneg(linSum(linSum(a_.lin(y, sc_, env), a_.lin(x, sc_, env), -1), linConst(1), -1));
  }
  // A boolean condition always true?
  bool holds(const ExpP &c) {
    int64_t v;
    if (constValue(c, v)) return v != 0;
    if (c->kind == Exp::Unary && c->unop == UnOp::Not) return refutes(c->args[0]);
    if (c->kind != Exp::Binary) return false;
    const ExpP &x = c->args[0], &y = c->args[1];
    switch (c->binop) {
    case BinOp::And: return holds(x) && holds(y);
    case BinOp::Or: return holds(x) || holds(y);
    case BinOp::Lt: return integral(x) && lt(x, y);
    case BinOp::Le: return integral(x) && le(x, y);
    case BinOp::Gt: return integral(x) && lt(y, x);
    case BinOp::Ge: return integral(x) && le(y, x);
    case BinOp::Eq: return integral(x) && le(x, y) && le(y, x);
    default: return false;
    }
  }
  bool refutes(const ExpP &c) {
    int64_t v;
    if (constValue(c, v)) return v == 0;
    if (c->kind == Exp::Unary && c->unop == UnOp::Not) return holds(c->args[0]);
    if (c->kind != Exp::Binary) return false;
    const ExpP &x = c->args[0], &y = c->args[1];
    switch (c->binop) {
    case BinOp::And: return refutes(x) || refutes(y);
    case BinOp::Or: return refutes(x) && refutes(y);
    case BinOp::Lt: return integral(x) && le(y, x);
    case BinOp::Le: return integral(x) && lt(y, x);
    case BinOp::Gt: return integral(x) && le(x, y);
    case BinOp::Ge: return integral(x) && lt(x, y);
    case BinOp::Ne: return integral(x) && le(x, y) && le(y, x);
    default: return false;
    }
  }
  static bool integral(const ExpP &e) { return e->type.rank == 0 && !isFloatKind(e->type.elem) && e->type.elem != ScalarKind::Bool; }

private:
  Analysis &a_;
  const Scope &sc_;
  int steps_ = 0;

  // The linear form again, under the env's refined intervals.
  Lin relin(const Lin &d, const Env &env) {
    Lin r = linConst(d.c);
    r.ok = d.ok;
    for (auto &kv : d.t) addTo(r, a_.lin(kv.second.second->src, sc_, env), kv.second.first);
    return r;
  }

  bool prove(const Lin &d, Env env, int depth) {
    if (!d.ok || ++steps_ > 4000) return false;
    for (auto &kv : env.refine)
      if (kv.second.empty()) return true; // no such value: nothing to prove
    for (auto &f : env.assume)
      if (f.ok && a_.interval(f, env).hi < 0) return true; // contradictory facts: unreachable
    if (a_.interval(d, env).lo >= 0) return true;
    for (auto &f : env.assume)
      if (f.ok && a_.interval(linSum(d, f, -1), env).lo >= 0) return true; // d >= f >= 0
    if (depth == 0) return false;

    // Case split: max / select is one of its arguments.
    for (auto &kv : d.t) {
      const Atom &at = *kv.second.second;
      if (at.kind != Atom::Max && at.kind != Atom::Min && at.kind != Atom::Select) continue;
      bool all = true;
      for (int i = 0; i < 2 && all; ++i) {
        Env e = env;
        for (auto &f : e.assume) f = replaceAtom(f, at.key, at.args[i]);
        if (at.kind == Atom::Max) e.assume.push_back(linSum(at.args[i], at.args[1 - i], -1));
        if (at.kind == Atom::Min) e.assume.push_back(linSum(at.args[1 - i], at.args[i], -1));
        if (at.kind == Atom::Select && at.when.size() == 2) e.assume.push_back(at.when[i]);
        all = prove(replaceAtom(d, at.key, at.args[i]), e, depth - 1);
      }
      if (all) return true;
    }
    // An atom with a negative coefficient: replace it by an upper bound.
    for (auto &kv : d.t) {
      if (kv.second.first >= 0) continue;
      for (auto &b : a_.upperBounds(*kv.second.second, sc_, env)) {
        Env e = env;
        for (auto &s : b.side) e.assume.push_back(s);
        if (prove(replaceAtom(d, kv.first, b.bound), e, depth - 1)) return true;
      }
    }
    // A value x under an int conversion (in D or a fact): split its range at
    // 2^31 (below, the conversion is x itself; above, x exceeds every int).
    std::string leaf;
    for (auto &kv : d.t)
      if (findWrapLeaf(*kv.second.second, env, false, leaf)) break;
    for (auto &f : env.assume)
      for (auto &kv : f.t)
        if (leaf.empty() && findWrapLeaf(*kv.second.second, env, false, leaf)) break;
    if (!leaf.empty()) {
      for (int half = 0; half < 2; ++half) {
        Env e = env;
        e.refine[leaf] = ivMeet(refined(env, leaf), half == 0 ? Iv{-kInf, kIntMax} : Iv{Big(kIntMax) + 1, kInf});
        for (auto &f : e.assume) f = relin(f, e);
        if (!prove(relin(d, e), e, depth - 1)) return false;
      }
      return true;
    }
    return false;
  }
  static Iv refined(const Env &env, const std::string &key) {
    auto it = env.refine.find(key);
    return it == env.refine.end() ? Iv{} : it->second;
  }
  // A leaf (variable or extent) inside an int conversion, not yet split.
  bool findWrapLeaf(const Atom &at, const Env &env, bool underInt, std::string &out) {
    if (at.kind == Atom::Leaf) {
      if (underInt && !env.refine.count(at.key)) {
        out = at.key;
        return true;
      }
      return false;
    }
    for (auto &l : at.args)
      for (auto &kv : l.t)
        if (findWrapLeaf(*kv.second.second, env, underInt || at.kind == Atom::ToInt, out)) return true;
    return false;
  }
};

// ------------------------------------------------------------------ the pass

class Eliminator {
public:
  Eliminator(ir::Module &m, Function &f) : m_(m), f_(f), an_(m) {
    for (auto &g : m.guards) guardCode_[g.var] = g.code;
    an_.collect(f.body);
    an_.dropAmbiguous();
  }

  void run() { host(f_.body, Scope{}); }

private:
  ir::Module &m_;
  Function &f_;
  Analysis an_;
  std::map<int, Check::Code> guardCode_;
  // Facts established by a guard turned into a host Check: they hold in this
  // block (a SOAC body or a loop body reached only where the Check required them).
  std::map<const Block *, std::vector<ExpP>> blockFacts_;
  bool harden_ = false; // also check unproven reads that rely on a guard
  std::vector<Scope> ifBase_; // the scope outside each enclosing if, outermost first
  int hardened_ = 0;

  // --- facts from conditions
  void addFact(Scope &sc, const ExpP &c, bool negated, int depth = 0) {
    if (c->kind == Exp::Unary && c->unop == UnOp::Not) return addFact(sc, c->args[0], !negated, depth);
    if (c->kind == Exp::Var) {
      // a bool variable: its value (the condition as computed where it was bound)
      const ExpP *d = an_.def(c->var);
      if (d && depth < 16) addFact(sc, *d, negated, depth + 1);
      return;
    }
    if (c->kind != Exp::Binary) return;
    const ExpP &x = c->args[0], &y = c->args[1];
    BinOp op = c->binop;
    if ((op == BinOp::And && !negated) || (op == BinOp::Or && negated)) {
      addFact(sc, x, negated, depth);
      addFact(sc, y, negated, depth);
      return;
    }
    if (!Prover::integral(x)) return;
    Env env;
    Lin a = an_.lin(x, sc, env), b = an_.lin(y, sc, env);
    if (!a.ok || !b.ok) return;
    auto ge = [&](const Lin &p, const Lin &q, int64_t off) { sc.assume.push_back(linAtLeast(p, q, off)); };
    if (negated) {
      switch (op) {
      case BinOp::Lt: op = BinOp::Ge; break;
      case BinOp::Le: op = BinOp::Gt; break;
      case BinOp::Gt: op = BinOp::Le; break;
      case BinOp::Ge: op = BinOp::Lt; break;
      case BinOp::Ne: op = BinOp::Eq; break;
      default: return;
      }
    }
    switch (op) {
    case BinOp::Lt: ge(b, a, 1); break;
    case BinOp::Le: ge(b, a, 0); break;
    case BinOp::Gt: ge(a, b, 1); break;
    case BinOp::Ge: ge(a, b, 0); break;
    case BinOp::Eq: {
      ge(a, b, 0);
      ge(b, a, 0);
      // an atom equal to a linear form: use the form wherever the atom appears
      const Lin *atom = nullptr, *other = nullptr;
      if (isSingle(a) && isSingle(b)) {
        bool aFirst = single(a)->key > single(b)->key;
        atom = aFirst ? &a : &b, other = aFirst ? &b : &a;
      } else if (isSingle(a)) {
        atom = &a, other = &b;
      } else if (isSingle(b)) {
        atom = &b, other = &a;
      }
      if (atom && linKey(*atom) != linKey(*other) && !mentions(*other, single(*atom)->key))
        sc.eq[single(*atom)->key] = *other;
      break;
    }
    default: break;
    }
  }

  // --- reads
  bool inRange(const ExpP &read, const Scope &sc) {
    Prover p(an_, sc);
    for (size_t k = 1; k < read->args.size(); ++k) {
      const ExpP &ix = read->args[k];
      if (!Prover::integral(ix)) return false;
      if (!p.le(constLong(0), ix) || !p.lt(ix, shapeExp(read->args[0], int(k) - 1))) return false;
    }
    return true;
  }

  // An unchecked read proven in range without the conditions of the ifs
  // around it (the scope outside the outermost one) is speculable: a copy
  // marked so, or null if nothing changes.
  ExpP markSpeculable(const ExpP &x, const Scope &sc) {
    if (x->speculable || !inRange(x, ifBase_.empty() ? sc : ifBase_.front())) return nullptr;
    auto c = std::make_shared<Exp>(*x);
    c->speculable = true;
    return c;
  }

  // An integer comparison with a constant that the facts decide: true or
  // false (an argmin's `int(k) < 0` for a loop counter k: one select less
  // in the fold's chain; Simplify then drops the select).
  ExpP decideComparison(const ExpP &x, const Scope &sc) {
    // a variable (or its int/long conversion) against a constant or another
    // such variable (a fold's `k < p`: indexStateFacts)
    auto simple = [](const ExpP &e) {
      const ExpP *p = &e;
      while ((*p)->kind == Exp::Convert) p = &(*p)->args[0];
      return (*p)->kind == Exp::Var || isConst(*p);
    };
    if (x->kind != Exp::Binary || x->args.size() != 2 || (isConst(x->args[0]) && isConst(x->args[1])) ||
        !simple(x->args[0]) || !simple(x->args[1]))
      return nullptr;
    switch (x->binop) {
    case BinOp::Lt: case BinOp::Le: case BinOp::Gt: case BinOp::Ge: break;
    default: return nullptr;
    }
    if (isFloatKind(x->args[0]->type.elem) || x->args[0]->type.elem == ScalarKind::Bool) return nullptr;
    Prover p(an_, sc);
    if (p.holds(x)) return constBool(true);
    if (p.refutes(x)) return constBool(false);
    return nullptr;
  }

  ExpP rewriteReads(const ExpP &e, const Scope &sc) {
    return rewriteExp(e, [&](const ExpP &x) -> ExpP {
      if (x->kind == Exp::Binary) return decideComparison(x, sc);
      if (x->kind != Exp::Read || x->args[0]->kind != Exp::Var) return nullptr;
      int arr = x->args[0]->var;
      if (x->checkPos < 0) {
        // Lowering leaves a read unchecked where a guard protects it (the
        // index of a computed array, a zip's other side). A failed guard
        // does not stop the device: unless proven in range anyway, such a
        // read gets a check at the guard's position (the guard, evaluated
        // first, still reports the error).
        if (an_.guards().count(arr)) return nullptr;
        if (harden_) {
          int pos = -1;
          for (size_t k = 1; k < x->args.size() && pos < 0; ++k) pos = an_.guardDependence(x->args[k]);
          if (pos >= 0 && !inRange(x, sc)) {
            auto c = std::make_shared<Exp>(*x);
            c->checkPos = pos;
            c->speculable = false;
            hardened_++;
            return c;
          }
        }
        return markSpeculable(x, sc);
      }
      if (an_.guards().count(arr)) {
        // guard[select(ok, 0L, 1L)]: 0 wherever ok is proven
        const ExpP &ix = x->args.at(1);
        int64_t v0, v1;
        bool ok = (constValue(ix, v0) && v0 == 0) ||
                  (ix->kind == Exp::Select && constValue(ix->args[1], v0) && v0 == 0 &&
                   constValue(ix->args[2], v1) && v1 != 0 && Prover(an_, sc).holds(ix->args[0]));
        return ok ? constZero(x->type.elem) : nullptr;
      }
      if (!inRange(x, sc)) return widenIndices(x, sc);
      auto c = std::make_shared<Exp>(*x);
      c->checkPos = -1;
      c->speculable = ifBase_.empty() || inRange(x, ifBase_.front());
      ExpP w = widenIndices(c, sc);
      return w ? w : c;
    });
  }

  // Indices whose int arithmetic the analysis shows exact (no wrap-around),
  // rebuilt as long arithmetic over their variables: `a[long(int(i) - 1)]`
  // (i <- [1..<n]) becomes `a[(i - 1L)]` for the map's long index i. Device
  // compilers then see that consecutive work-items read consecutive
  // elements (PoCL vectorises the loads instead of gathering them: a
  // 3-point stencil over 10^7 floats 18 -> 2.4 ms). Returns null where
  // nothing changes.
  static bool hasIntArithmetic(const ExpP &e) {
    if (e->kind == Exp::Convert || (e->kind == Exp::Var && e->type.elem != ScalarKind::Long)) return true;
    for (auto &a : e->args)
      if (hasIntArithmetic(a)) return true;
    return false;
  }
  ExpP widenIndex(const ExpP &ix, const Scope &sc) {
    if (ix->type.elem != ScalarKind::Long || ix->type.rank != 0 || !hasIntArithmetic(ix)) return nullptr;
    Env env;
    an_.newQuestion();
    Lin L = an_.lin(ix, sc, env);
    if (!L.ok) return nullptr;
    ExpP r;
    for (auto &[key, term] : L.t) {
      const auto &[coef, atom] = term;
      if (coef == 0) continue;
      if (atom->kind != Atom::Leaf || !atom->src) return nullptr;
      ExpP t = toLong(atom->src);
      if (coef != 1) t = mulL(constLong(coef), t);
      r = r ? addL(r, t) : t;
    }
    if (!r) return constLong(L.c);
    return L.c == 0 ? r : addL(r, constLong(L.c));
  }
  ExpP widenIndices(const ExpP &x, const Scope &sc) {
    ExpP out;
    for (size_t k = 1; k < x->args.size(); ++k) {
      ExpP w = widenIndex(x->args[k], sc);
      if (!w) continue;
      if (!out) out = std::make_shared<Exp>(*x);
      out->args[k] = w;
    }
    return out;
  }

  void exps(Stmt &s, const Scope &sc) {
    forEachExp(s, [&](ExpP &e) { e = rewriteReads(e, sc); });
    if (s.kind == StmtKind::Let && s.outs.size() == 1) an_.setDef(s.outs[0], static_cast<Let &>(s).value);
  }

  // Device code (and host code: the same rules apply; host checks also stop).
  void block(Block &b, Scope sc) {
    auto f = blockFacts_.find(&b);
    if (f != blockFacts_.end())
      for (auto &c : f->second) addFact(sc, c, false);
    for (auto &s : b.stmts) stmt(*s, sc);
    for (auto &r : b.results) r = rewriteReads(r, sc);
  }
  void stmt(Stmt &s, Scope &sc) {
    exps(s, sc);
    if (s.kind == StmtKind::If) {
      auto &x = static_cast<ir::If &>(s);
      Scope t = sc, e = sc;
      addFact(t, x.cond, false);
      addFact(e, x.cond, true);
      ifBase_.push_back(sc);
      block(x.thenB, t);
      block(x.elseB, e);
      ifBase_.pop_back();
      return;
    }
    if (s.kind == StmtKind::Loop && static_cast<ir::Loop &>(s).form == ir::Loop::For) {
      auto &x = static_cast<ir::Loop &>(s);
      Scope in = sc;
      indexStateFacts(x, in);
      block(x.body, in);
      return;
    }
    forEachBlock(s, [&](Block &in) { block(in, sc); });
  }

  // A fold's index state: an int or long state variable p that starts at a
  // negative constant c0 and whose next value is always p itself or the
  // counter k (through selects: argmin's `if .. then k else p`) is, at the
  // start of iteration k, c0 or an earlier counter: c0 <= p < k. So argmin's
  // tie-break `k < p` (the later index wins no tie) is false, and the fold
  // is a plain comparison (docs/lowering.md, "Facts").
  void indexStateFacts(const ir::Loop &x, Scope &sc) {
    if (x.params.size() != x.init.size() || x.body.results.size() != x.params.size()) return;
    Env env;
    an_.newQuestion();
    const std::string kKey = linKey(an_.lin(varExp(m_, x.index), sc, env));
    for (size_t i = 0; i < x.params.size(); ++i) {
      const int p = x.params[i];
      ScalarKind pk = m_.vars.at(static_cast<size_t>(p)).type.elem;
      int64_t c0;
      if ((pk != ScalarKind::Int && pk != ScalarKind::Long) || !constValue(x.init[i], c0) || c0 >= 0) continue;
      // every leaf of the select tree (through the body's Lets) is p or k
      std::function<bool(const ExpP &, int)> leaves = [&](const ExpP &e, int depth) -> bool {
        if (depth > 16) return false;
        if (e->kind == Exp::Select) return leaves(e->args[1], depth + 1) && leaves(e->args[2], depth + 1);
        if (e->kind == Exp::Var && e->var == p) return true;
        if (e->kind == Exp::Var) {
          const ExpP *d = an_.def(e->var);
          if (d && (*d)->kind == Exp::Select) return leaves(*d, depth + 1);
        }
        Env env2;
        an_.newQuestion();
        Lin l = an_.lin(e, sc, env2);
        return l.ok && linKey(l) == kKey;
      };
      if (!leaves(x.body.results[i], 0)) continue;
      ExpP pv = toLong(varExp(m_, p));
      addFact(sc, binaryExp(BinOp::Lt, pv, varExp(m_, x.index)), false);
      addFact(sc, binaryExp(BinOp::Ge, pv, constLong(c0)), false);
    }
  }

  // --- host
  void host(Block &b, Scope sc) {
    std::vector<StmtP> out;
    for (auto &s : b.stmts) {
      if (s->kind >= StmtKind::Map) {
        soac(*s, sc, out);
        out.push_back(s);
        continue;
      }
      if (s->kind == StmtKind::If) {
        auto &x = static_cast<ir::If &>(*s);
        exps(*s, sc);
        Scope t = sc, e = sc;
        addFact(t, x.cond, false);
        addFact(e, x.cond, true);
        ifBase_.push_back(sc);
        host(x.thenB, t);
        host(x.elseB, e);
        for (auto *blk : {&x.thenB, &x.elseB})
          for (auto &r : blk->results) r = rewriteReads(r, blk == &x.thenB ? t : e);
        ifBase_.pop_back();
      } else if (s->kind == StmtKind::Loop) {
        exps(*s, sc);
        forEachBlock(*s, [&](Block &in) {
          host(in, sc);
          for (auto &r : in.results) r = rewriteReads(r, sc);
        });
      } else {
        exps(*s, sc);
      }
      // a host Check stops the program when it fails
      if (s->kind == StmtKind::Check) addFact(sc, static_cast<Check &>(*s).cond, false);
      out.push_back(s);
    }
    b.stmts = std::move(out);
  }

  void soac(Stmt &s, Scope &sc, std::vector<StmtP> &out) {
    exps(s, sc);
    for (int round = 0; round < 8; ++round) {
      forEachBlock(s, [&](Block &in) { block(in, sc); });
      std::vector<StmtP> checks;
      promote(s, sc, checks);
      if (checks.empty()) break;
      for (auto &c : checks) out.push_back(c);
    }
    harden_ = true;
    forEachBlock(s, [&](Block &in) { block(in, sc); });
    harden_ = false;
  }

  // --- guards that every element meets first become host Checks
  // A loop on the walk's path: its count fixed for the SOAC.
  struct LoopAt {
    ir::Loop *loop;
    ExpP count; // the count as a host expression
  };

  struct BodyOf {
    Block *body = nullptr;
    std::vector<ExpP> nonEmpty; // the SOAC has elements iff all are > 0
    std::vector<int> index;     // the SOAC's index variables, one per nonEmpty
  };
  template <class T> static void one(BodyOf &r, T &x) { r.body = &x.body, r.nonEmpty = {x.n}, r.index = {x.index}; }
  static BodyOf bodyOf(Stmt &s) {
    BodyOf r;
    switch (s.kind) {
    case StmtKind::Map:
      r.body = &static_cast<Map &>(s).body, r.nonEmpty = static_cast<Map &>(s).dims, r.index = static_cast<Map &>(s).index;
      break;
    case StmtKind::Reduce: one(r, static_cast<Reduce &>(s)); break;
    case StmtKind::Scan: one(r, static_cast<Scan &>(s)); break;
    case StmtKind::Filter: one(r, static_cast<Filter &>(s)); break;
    case StmtKind::Scatter: one(r, static_cast<Scatter &>(s)); break;
    case StmtKind::Hist: one(r, static_cast<Hist &>(s)); break;
    case StmtKind::SegScan: one(r, static_cast<SegScan &>(s)); break;
    case StmtKind::SegReduce: one(r, static_cast<SegReduce &>(s)); break;
    case StmtKind::MultiHist: one(r, static_cast<MultiHist &>(s)); break;
    default: break;
    }
    return r;
  }

  // The SOAC's elements are evaluated in index order (device: all of them,
  // each from the start of the body). A guard that is the first thing in the
  // body that can raise, reached in every element (through `for` loops whose
  // counts are fixed for the SOAC: then exactly when those counts are > 0),
  // whose condition uses only values fixed for the SOAC, raises in the first
  // element before anything else can, or never. So it is the same as a host
  // Check just before the SOAC, of `no element || some count <= 0 || ok`,
  // with the guard's code and position; and ok holds in the blocks where the
  // guard was (a guard of a code whose device message is not the host one,
  // Irregular or Other, stays).
  void promote(Stmt &s, const Scope &sc, std::vector<StmtP> &checks) {
    BodyOf bo = bodyOf(s);
    if (!bo.body) return;
    bool headerRaises = false;
    forEachExp(s, [&](ExpP &e) { headerRaises = headerRaises || hasCheckedRead(e); });
    forEachBlock(s, [&](const Block &b) {
      if (&b == bo.body) return;
      for (auto &t : b.stmts) headerRaises = headerRaises || mayRaise(*t);
      for (auto &r : b.results) headerRaises = headerRaises || hasCheckedRead(r);
    });
    if (headerRaises) return;
    std::set<int> inner; // defined in the SOAC: not fixed for it
    stmtDefs(s, inner);
    blockDefs(*bo.body, inner);
    if (promoteIndexRead(bo, inner, sc, checks)) return;
    std::map<int, ExpP> pure; // body Lets of values fixed for the SOAC, for the host condition
    std::vector<ExpP> path;
    for (auto &d : bo.nonEmpty) path.push_back(d);
    std::vector<LoopAt> loops;
    walkFirst(*bo.body, inner, pure, path, loops, sc, checks);
  }

  // Whether e (through `pure` Lets) uses only values fixed for the SOAC;
  // if so, `fixed` is it with those Lets substituted.
  bool fixedValue(const ExpP &e, const std::set<int> &inner, const std::map<int, ExpP> &pure, ExpP &fixed) {
    if (hasCheckedRead(e)) return false;
    std::set<int> vs;
    expVars(e, vs);
    for (int v : vs)
      if (inner.count(v) && !pure.count(v)) return false;
    fixed = substitute(e, pure);
    return true;
  }

  // Returns false where something that may raise (and is not turned into a
  // host Check) was met: the walk stops there.
  bool walkFirst(Block &b, const std::set<int> &inner, std::map<int, ExpP> &pure, std::vector<ExpP> &path,
                 std::vector<LoopAt> &loops, const Scope &sc, std::vector<StmtP> &checks) {
    for (auto &s : b.stmts) {
      if (s->kind == StmtKind::Let) {
        auto &l = static_cast<Let &>(*s);
        if (!hasCheckedRead(l.value)) {
          ExpP fx;
          if (l.value->type.rank == 0 && fixedValue(l.value, inner, pure, fx)) pure[s->outs[0]] = fx;
          continue;
        }
        if (!promoteLet(l, b, inner, pure, path, checks)) {
          // the walk stops at the read either way (its check, if moved, is
          // proven in the next round; after a guard moved this round, the
          // read is tried again once the guard's facts are in)
          if (checks.empty() && !loops.empty() && &b == &loops.back().loop->body)
            promoteLoopRead({l.value}, &l, loops.back(), inner, pure, path, sc, checks);
          return false;
        }
        ExpP fx;
        if (l.value->type.rank == 0 && fixedValue(l.value, inner, pure, fx)) pure[s->outs[0]] = fx;
        continue;
      }
      if (s->kind == StmtKind::Loop && static_cast<ir::Loop &>(*s).form == ir::Loop::For) {
        auto &lp = static_cast<ir::Loop &>(*s);
        bool initRaises = false;
        for (auto &e : lp.init) initRaises = initRaises || hasCheckedRead(e);
        ExpP count;
        if (initRaises || !fixedValue(lp.count, inner, pure, count)) {
          if (mayRaise(*s)) return false;
          continue;
        }
        path.push_back(count);
        loops.push_back({&lp, count});
        bool on = walkFirst(lp.body, inner, pure, path, loops, sc, checks);
        loops.pop_back();
        path.pop_back();
        if (!on) return false;
        for (auto &r : lp.body.results)
          if (hasCheckedRead(r)) {
            if (!checks.empty()) return false;
            // the loop's read in its results (a sum's `acc + A[i, k] * B[k, j]`)
            LoopAt self{&lp, count};
            std::vector<ExpP> inLoop = path;
            inLoop.push_back(count);
            promoteLoopRead(lp.body.results, nullptr, self, inner, pure, inLoop, sc, checks);
            return false;
          }
        continue;
      }
      // a while loop might not end: what follows it may never be reached
      if (s->kind == StmtKind::Loop || mayRaise(*s)) return false;
    }
    return true;
  }

  // A Let of the innermost loop on the walk's path (`for k < count`, count
  // fixed) whose one checked read R is the only thing in the loop that can
  // raise, reading an array fixed for the SOAC at, on one axis, base + k
  // (exactly: the linear form shows no wrap-around for any k < count; base
  // fixed) and, on every other axis, at a fixed index or one proven in
  // range (R may be written several times, at other positions: the first
  // in evaluation order raises first). Every element then evaluates R for
  // the same indices, in the same order, before anything else can raise:
  // R raises in the first element or
  // never, at k = 0 if an index is out of range there (the first such axis),
  // else at the first k with base + k == extent. So a host Check before the
  // SOAC of `no element || some count <= 0 || base >= 0 && base + count <=
  // extent && (fixed indices in range)`, reporting that index, is the same,
  // and in the loop the indices are in range (dgemm written as
  // sum([A[i, k] * B[k, j] | k <- ..]): B[k, j] checked once; the CPU tile
  // schedule's loop then vectorises).
  // `values`: the Let's value (`self`), or the loop's results (self null).
  bool promoteLoopRead(const std::vector<ExpP> &values, const Stmt *self, const LoopAt &at,
                       const std::set<int> &inner, const std::map<int, ExpP> &pure, const std::vector<ExpP> &path,
                       const Scope &sc, std::vector<StmtP> &checks) {
    std::vector<ExpP> reads;
    for (auto &v : values) checkedReads(v, reads);
    // one read, or the same one written twice (`(x - C[c, j]) * (x - C[c, j])`):
    // the first in evaluation order raises first
    if (reads.empty()) return false;
    for (size_t r = 1; r < reads.size(); ++r)
      if (!sameExp(reads[r], reads[0])) return false;
    const ExpP R = reads[0];
    if (R->args[0]->kind != Exp::Var || an_.guards().count(R->args[0]->var) || inner.count(R->args[0]->var))
      return false;
    // nothing else in the loop can raise
    const ir::Loop &lp = *at.loop;
    if (lp.form != ir::Loop::For) return false;
    for (auto &t : lp.body.stmts)
      if (t.get() != self && mayRaise(*t)) return false;
    if (self)
      for (auto &r : lp.body.results)
        if (hasCheckedRead(r)) return false;
    // the loop body's Lets, substituted in its indices
    std::map<int, ExpP> lets;
    for (auto &t : lp.body.stmts)
      if (t->kind == StmtKind::Let && t->outs.size() == 1) lets[t->outs[0]] = static_cast<Let &>(*t).value;
    ReadForm f;
    if (!readForm(R, {lp.index}, lets, inner, pure, sc, f)) return false;
    checkRangeBefore(R, f.at0, f.ext, f.fixedAxis, f.vAxis, at.count, path,
                     "a loop's read checked before the parallel statement (bounds-check elimination)",
                     &at.loop->body, checks);
    return true;
  }
  // A checked read R that is the only thing in the SOAC's body that can
  // raise (written once or several times), evaluated in every element (in a
  // Let of the body or in its results, not in a select's branches or the
  // right side of && / ||, after no while loop), of an array fixed for the
  // SOAC at, on one axis, base + i for a SOAC index i (exactly: coefficient
  // 1, base fixed) and, on every other axis, at a fixed index or one proven
  // in range. The elements run in index order (row-major for a map nest) and
  // nothing else raises, so R raises first at the first element if an index
  // is out of range there, else at the first i with base + i == extent, or
  // never. So a host Check before the SOAC of `no element || base >= 0 &&
  // base + n <= extent && (fixed indices in range)`, reporting that index, is
  // the same, and in the body the indices are in range
  // (`sum([a[i] * b[i] | i <- iota(length(a))])`: b's check leaves the
  // reduce, whose loop then vectorises on CPUs).
  bool promoteIndexRead(const BodyOf &bo, const std::set<int> &inner, const Scope &sc,
                        std::vector<StmtP> &checks) {
    std::vector<ExpP> reads;
    bool always = false, whileBefore = false;
    std::function<bool(const ExpP &, const ExpP &)> evaluated = [&](const ExpP &e, const ExpP &R) {
      if (e == R) return true;
      if (e->kind == Exp::Select) return evaluated(e->args[0], R);
      if (e->kind == Exp::Binary && (e->binop == BinOp::And || e->binop == BinOp::Or)) return evaluated(e->args[0], R);
      for (auto &a : e->args)
        if (evaluated(a, R)) return true;
      return false;
    };
    auto collect = [&](const ExpP &e) {
      size_t from = reads.size();
      checkedReads(e, reads);
      for (size_t r = from; r < reads.size(); ++r)
        if (!whileBefore && evaluated(e, reads[r])) always = true;
    };
    for (auto &t : bo.body->stmts) {
      if (t->kind == StmtKind::Let) {
        collect(static_cast<Let &>(*t).value);
        continue;
      }
      if (mayRaise(*t)) return false;
      if (t->kind == StmtKind::Loop && static_cast<ir::Loop &>(*t).form != ir::Loop::For) whileBefore = true;
    }
    for (auto &r : bo.body->results) collect(r);
    if (reads.empty() || !always) return false;
    for (size_t r = 1; r < reads.size(); ++r)
      if (!sameExp(reads[r], reads[0])) return false;
    const ExpP R = reads[0];
    if (R->args[0]->kind != Exp::Var || an_.guards().count(R->args[0]->var) || inner.count(R->args[0]->var))
      return false;
    // the body's Lets, substituted in the read's indices
    std::map<int, ExpP> lets;
    for (auto &t : bo.body->stmts)
      if (t->kind == StmtKind::Let && t->outs.size() == 1) lets[t->outs[0]] = static_cast<Let &>(*t).value;
    ReadForm f;
    if (!readForm(R, bo.index, lets, inner, {}, sc, f)) return false;
    checkRangeBefore(R, f.at0, f.ext, f.fixedAxis, f.vAxis, bo.nonEmpty[f.var], bo.nonEmpty,
                     "a read at the parallel index checked before the parallel statement (bounds-check elimination)",
                     bo.body, checks);
    return true;
  }

  // A read's indices as the promotions need them: on one axis exactly
  // base + v for one of `vars` (coefficient 1, v nowhere else in it, no
  // wrap-around; base fixed for the SOAC), on every other axis an index
  // fixed for the SOAC or one proven in range. at0: each index at v = 0,
  // `lets` substituted. False where the read has another form.
  struct ReadForm {
    int vAxis = -1;
    size_t var = 0; // which of vars
    std::vector<ExpP> at0, ext;
    std::vector<bool> fixedAxis;
  };
  bool readForm(const ExpP &R, const std::vector<int> &vars, const std::map<int, ExpP> &lets,
                const std::set<int> &inner, const std::map<int, ExpP> &pure, const Scope &sc, ReadForm &f) {
    std::function<ExpP(const ExpP &, int, int)> atZero = [&](const ExpP &e, int v, int depth) -> ExpP {
      return rewriteExp(e, [&](const ExpP &x) -> ExpP {
        if (x->kind != Exp::Var) return nullptr;
        if (x->var == v) return constZero(x->type.elem);
        auto it = lets.find(x->var);
        return it != lets.end() && depth < 32 ? atZero(it->second, v, depth + 1) : nullptr;
      });
    };
    Prover prover(an_, sc);
    const size_t rank = R->args.size() - 1;
    f = ReadForm{};
    f.at0.resize(rank);
    f.ext.resize(rank);
    f.fixedAxis.assign(rank, false);
    for (size_t a = 0; a < rank; ++a) {
      const ExpP &ix = R->args[1 + a];
      if (!Prover::integral(ix)) return false;
      f.ext[a] = shapeExp(R->args[0], static_cast<int>(a));
      Env env;
      an_.newQuestion();
      Lin L = an_.lin(ix, sc, env);
      int found = -1;
      for (size_t d = 0; L.ok && d < vars.size(); ++d)
        if (L.t.count("v" + std::to_string(vars[d]))) {
          if (found >= 0) return false;
          found = static_cast<int>(d);
        }
      if (found >= 0) {
        const std::string key = "v" + std::to_string(vars[found]);
        Lin rest = L;
        rest.t.erase(key);
        if (f.vAxis >= 0 || L.t.at(key).first != 1 || mentions(rest, key)) return false;
        if (!fixedValue(atZero(ix, vars[found], 0), inner, pure, f.at0[a])) return false;
        f.vAxis = static_cast<int>(a);
        f.var = static_cast<size_t>(found);
        continue;
      }
      bool varFree = true;
      for (int v : vars) varFree = varFree && !mentionsVar(ix, v, lets);
      if (varFree && fixedValue(atZero(ix, -1, 0), inner, pure, f.at0[a])) {
        f.fixedAxis[a] = true;
        continue;
      }
      // any other index: proven in range, so it never fails
      if (!(prover.le(constLong(0), ix) && prover.lt(ix, f.ext[a]))) return false;
    }
    return f.vAxis >= 0;
  }

  // The host Check of a read R that promoteLoopRead or promoteIndexRead
  // moves before the SOAC: `some guard <= 0 || base >= 0 && base + count <=
  // extent (axis vAxis) && the fixed indices in range`, reporting the first
  // axis out of range at the first element, else vAxis at its extent (at0:
  // the indices there; guards: the counts whose being <= 0 means R is not
  // reached, outermost first). Then R's indices are facts in `body`.
  void checkRangeBefore(const ExpP &R, const std::vector<ExpP> &at0, const std::vector<ExpP> &ext,
                        const std::vector<bool> &fixedAxis, int vAxis, const ExpP &count,
                        const std::vector<ExpP> &guards, const char *note, Block *body,
                        std::vector<StmtP> &checks) {
    const size_t rank = at0.size();
    auto in = [&](size_t a) {
      ExpP x = toLong(at0[a]);
      return binaryExp(BinOp::And, binaryExp(BinOp::Ge, x, constLong(0)), binaryExp(BinOp::Lt, x, ext[a]));
    };
    ExpP ok = binaryExp(BinOp::Le, addL(toLong(at0[vAxis]), toLong(count)), ext[vAxis]);
    ok = binaryExp(BinOp::And, binaryExp(BinOp::Ge, toLong(at0[vAxis]), constLong(0)), ok);
    for (size_t a = rank; a-- > 0;)
      if (fixedAxis[a]) ok = binaryExp(BinOp::And, in(a), ok);
    ExpP cond = ok;
    for (auto it = guards.rbegin(); it != guards.rend(); ++it)
      cond = binaryExp(BinOp::Or, binaryExp(BinOp::Le, *it, constZero((*it)->type.elem)), cond);
    ExpP index = ext[vAxis], extent = ext[vAxis], axis = constLong(vAxis);
    for (size_t a = rank; a-- > 0;) {
      if (!fixedAxis[a] && static_cast<int>(a) != vAxis) continue;
      ExpP bad = unaryExp(UnOp::Not, in(a));
      index = selectExp(bad, toLong(at0[a]), index);
      extent = selectExp(bad, ext[a], extent);
      axis = selectExp(bad, constLong(static_cast<int64_t>(a)), axis);
    }
    auto c = std::make_shared<Check>();
    c->code = Check::Bounds;
    c->cond = cond;
    c->pos = R->checkPos;
    c->values = {index, extent, axis};
    c->note = note;
    checks.push_back(c);
    for (size_t a = 0; a < rank; ++a)
      if (fixedAxis[a] || static_cast<int>(a) == vAxis) {
        const ExpP &ix = R->args[1 + a];
        blockFacts_[body].push_back(binaryExp(BinOp::Ge, ix, constZero(ix->type.elem)));
        blockFacts_[body].push_back(binaryExp(BinOp::Lt, toLong(ix), ext[a]));
      }
  }

  // The checked reads in e, in evaluation order.
  static void checkedReads(const ExpP &e, std::vector<ExpP> &out) {
    if (e->kind == Exp::Read && e->checkPos >= 0) out.push_back(e);
    for (auto &a : e->args) checkedReads(a, out);
  }
  // Whether e mentions var v, directly or through the Lets in `lets`.
  static bool mentionsVar(const ExpP &e, int v, const std::map<int, ExpP> &lets, int depth = 0) {
    if (!e) return false;
    if (e->kind == Exp::Var) {
      if (e->var == v) return true;
      auto it = lets.find(e->var);
      return it != lets.end() && depth < 32 && mentionsVar(it->second, v, lets, depth + 1);
    }
    for (auto &a : e->args)
      if (mentionsVar(a, v, lets, depth)) return true;
    return false;
  }

  // A Let whose value's only checked read is a guard over fixed values: the
  // guard becomes a host Check; false if it cannot.
  bool promoteLet(Let &l, Block &where, const std::set<int> &inner, const std::map<int, ExpP> &pure,
                  const std::vector<ExpP> &path, std::vector<StmtP> &checks) {
    std::vector<ExpP> reads;
    checkedReads(l.value, reads);
    if (reads.size() != 1) return false;
    const ExpP &g = reads[0];
    if (g->args[0]->kind != Exp::Var || !an_.guards().count(g->args[0]->var)) return false;
    auto code = guardCode_.find(g->args[0]->var);
    if (code == guardCode_.end() || code->second == Check::Irregular || code->second == Check::Other) return false;
    const ExpP &ix = g->args.at(1);
    int64_t v0, v1;
    if (!(ix->kind == Exp::Select && constValue(ix->args[1], v0) && v0 == 0 && constValue(ix->args[2], v1) && v1 != 0))
      return false;
    ExpP ok;
    if (!fixedValue(ix->args[0], inner, pure, ok)) return false;
    // The host Check: no element, or a loop around the guard runs no
    // iteration, or ok. It reports the guard's values where they are fixed
    // too (else -1: unknown).
    ExpP cond = ok;
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      const ExpP &n = *it;
      cond = binaryExp(BinOp::Or, binaryExp(BinOp::Le, n, constZero(n->type.elem)), cond);
    }
    auto c = std::make_shared<Check>();
    c->code = code->second;
    c->cond = cond;
    c->pos = g->checkPos;
    c->values = {constLong(-1), constLong(-1)};
    if (c->code == Check::Bounds) c->values.push_back(constLong(0));
    {
      std::vector<ExpP> vs;
      for (size_t k = 2; k < g->args.size(); ++k) {
        ExpP v;
        if (!fixedValue(g->args[k], inner, pure, v)) break;
        vs.push_back(v);
      }
      if (vs.size() == g->args.size() - 2 && vs.size() >= c->values.size()) c->values = vs;
    }
    c->note = "in-body guard checked before the parallel statement (bounds-check elimination)";
    checks.push_back(c);
    blockFacts_[&where].push_back(ok);
    l.value = rewriteExp(l.value, [&](const ExpP &x) -> ExpP { return x == g ? constZero(g->type.elem) : nullptr; });
    an_.setDef(l.outs[0], l.value);
    return true;
  }
};

} // namespace

void boundsChecks(ir::Module &m) {
  for (auto &f : m.functions) Eliminator(m, f).run();
}

} // namespace arrc::passes
