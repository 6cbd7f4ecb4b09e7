// The intrinsics (LANGUAGE.md §7) that the type checker declares: SOACs,
// reductions, array reshaping, math. Host code gets SOAC statements; device
// code (inside a SOAC body) gets sequential Loops.
#include "Lower.h"

#include <cmath>

namespace arrc::lower {

using OpFn = std::function<std::vector<ExpP>(const std::vector<ExpP> &, const std::vector<ExpP> &)>;

static Type L1() { return scalarT(ScalarKind::Long); }

static Lambda makeLambda(Lowerer &Lw, const std::vector<ScalarKind> &ks, const OpFn &op) {
  Lambda l;
  std::vector<ExpP> a, b;
  for (auto k : ks) { int p = Lw.newVar("x", scalarT(k)); l.params.push_back(p); a.push_back(varExp(p, scalarT(k))); }
  for (auto k : ks) { int p = Lw.newVar("y", scalarT(k)); l.params.push_back(p); b.push_back(varExp(p, scalarT(k))); }
  l.body = Lw.subBlock(true, [&] { return op(a, b); });
  return l;
}

static OpFn funcOp(Lowerer &Lw, const Val &f, const TypeP &t, const Span &at) {
  return [&Lw, f, t, at](const std::vector<ExpP> &a, const std::vector<ExpP> &b) {
    size_t pa = 0, pb = 0;
    Val va = Lw.rebuild(t, a, pa), vb = Lw.rebuild(t, b, pb);
    return Lw.leaves(Lw.apply(f, {va, vb}, at, t), at);
  };
}

static OpFn binOp(BinOp op) {
  return [op](const std::vector<ExpP> &a, const std::vector<ExpP> &b) { return std::vector<ExpP>{binaryExp(op, a[0], b[0])}; };
}
static OpFn fnOp(const std::string &fn) {
  return [fn](const std::vector<ExpP> &a, const std::vector<ExpP> &b) {
    return std::vector<ExpP>{callExp(fn, {a[0], b[0]}, a[0]->type.elem)};
  };
}

// The value of a floating-point expression of constants (`-1.0f / 0.0f`,
// which simplify folds only later).
static bool floatValue(const ExpP &e, double &v) {
  double a = 0, b = 0;
  switch (e->kind) {
  case Exp::Const: v = isFloatKind(e->type.elem) ? e->fval : double(e->ival); return true;
  case Exp::Convert: return floatValue(e->args[0], v);
  case Exp::Unary:
    if (e->unop != UnOp::Neg || !floatValue(e->args[0], a)) return false;
    v = -a;
    return true;
  case Exp::Binary:
    if (!isFloatKind(e->type.elem) || !floatValue(e->args[0], a) || !floatValue(e->args[1], b)) return false;
    switch (e->binop) {
    case BinOp::Add: v = a + b; return true;
    case BinOp::Sub: v = a - b; return true;
    case BinOp::Mul: v = a * b; return true;
    case BinOp::Div: v = a / b; return true;
    default: return false;
    }
  default: return false;
  }
}

// Whether `ne` is the identity of every component of `op` as written: + 0,
// * 1, min of the largest value, max of the smallest (constants only).
static bool isIdentity(const Lambda &op, const std::vector<ExpP> &ne) {
  for (size_t k = 0; k < ne.size(); ++k) {
    const char *kind = nullptr;
    if (!simpleComponent(op, ne.size(), k, kind)) return false;
    ScalarKind t = ne[k]->type.elem;
    std::string kd = kind;
    if (isFloatKind(t)) {
      double v = 0;
      if (!floatValue(ne[k], v)) return false;
      if (!((kd == "Add" && v == 0) || (kd == "Mul" && v == 1) || (kd == "Min" && v == HUGE_VAL) ||
            (kd == "Max" && v == -HUGE_VAL)))
        return false;
      continue;
    }
    if (ne[k]->kind != Exp::Const) return false;
    int64_t v = ne[k]->ival;
    int64_t lo = t == ScalarKind::Long ? INT64_MIN : INT32_MIN, hi = t == ScalarKind::Long ? INT64_MAX : INT32_MAX;
    if (!((kd == "Add" && v == 0) || (kd == "Mul" && v == 1) || (kd == "Min" && v == hi) || (kd == "Max" && v == lo)))
      return false;
  }
  return true;
}

// Generic reduction of the elements of a rank-1 array-like (fused with its
// producer when it is Delayed).
static std::vector<ExpP> reduceElems(Lowerer &Lw, const Val &arr, const std::vector<ScalarKind> &ks, const OpFn &op,
                                     const std::vector<ExpP> &ne, const Span &at, const std::string &note,
                                     const std::function<std::vector<ExpP>(const Val &)> &proj = nullptr) {
  auto elemLeaves = [&](const Val &item) { return proj ? proj(item) : Lw.leaves(item, at); };
  if (Lw.device) {
    auto r = Lw.foldSeq(arr, ne, [&](const std::vector<ExpP> &acc, const Val &item) { return op(acc, elemLeaves(item)); }, at);
    // the loop that produced the result folds with the reduce's (associative) operator
    if (!Lw.cur->stmts.empty() && Lw.cur->stmts.back()->kind == StmtKind::Loop) {
      auto &l = static_cast<Loop &>(*Lw.cur->stmts.back());
      bool mine = l.outs.size() == r.size();
      for (size_t i = 0; mine && i < r.size(); ++i) mine = r[i]->kind == Exp::Var && r[i]->var == l.outs[i];
      if (mine) l.reassoc = true;
    }
    return r;
  }
  Val a = arr;
  if (a.kind == Val::Seq) Lw.error(at, "internal: sequence at host level");
  auto r = std::make_shared<Reduce>();
  r->n = Lw.extent(a, 0, at);
  r->index = Lw.newVar("i", L1());
  ExpP iv = varExp(r->index, L1());
  r->body = Lw.bodyBlock({r->n}, {r->index}, [&] { return elemLeaves(Lw.elementAt(a.rank() > 1 ? Lw.toDelayed(a) : a, {iv})); });
  r->op = makeLambda(Lw, ks, op);
  r->ne = ne;
  std::vector<ExpP> outs;
  for (auto k : ks) {
    int o = Lw.newVar("red", scalarT(k));
    r->outs.push_back(o);
    outs.push_back(varExp(o, scalarT(k)));
  }
  r->note = note;
  r->span = at;
  Lw.emit(r);
  return outs;
}

// The element at a segment's start folds the neutral element in first (ne
// op x), as the interpreter's segmented fold does; the runtime's segmented
// primitives start a segment with its first element, which is the same
// only where ne is the identity (checked here on the operator as written).
std::vector<ExpP> Lowerer::segmentStart(const ExpP &start, const std::vector<ExpP> &x, const Lambda &opL,
                                        const std::vector<ExpP> &ne, const Val &op, const TypeP &et,
                                        const Span &at) {
  if (isIdentity(opL, ne)) return x;
  OpFn f = funcOp(*this, op, et, at);
  return stepWhere(start, x, [&] { return f(ne, x); });
}

Val Lowerer::reduceWith(const Val &arr, const Val &op, const std::vector<Val> &ne, const Span &at, const TypeP &elemT,
                        const std::string &note) {
  std::vector<ScalarKind> ks;
  typeLeaves(elemT, ks);
  std::vector<ExpP> nl;
  for (auto &n : ne) {
    auto l = leaves(n, at);
    nl.insert(nl.end(), l.begin(), l.end());
  }
  auto r = reduceElems(*this, arr, ks, funcOp(*this, op, elemT, at), nl, at, note);
  size_t pos = 0;
  return rebuild(elemT, r, pos);
}


// ---- sequential forms inside a parallel body (no storage: index functions
// whose elements are computed by Loops over the arguments).

// for j < n: acc = f(j, acc) (device code).
static std::vector<ExpP> seqLoop(Lowerer &Lw, const ExpP &n, const std::vector<ExpP> &init,
                                 const std::function<std::vector<ExpP>(const ExpP &, const std::vector<ExpP> &)> &f,
                                 const Span &at) {
  auto lt = arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Long), 1);
  Val it = mkDelayed(lt, {n}, [](const std::vector<ExpP> &i) { return Val::scalar(i[0], arrc::Type::scalarOf(ScalarKind::Long)); });
  return Lw.foldSeq(it, init, [&](const std::vector<ExpP> &acc, const Val &j) { return f(j.e, acc); }, at);
}

// if c then upd() else acc (an If statement: upd is evaluated only when c).
static std::vector<ExpP> condUpd(Lowerer &Lw, const ExpP &c, const std::vector<ExpP> &acc,
                                 const std::function<std::vector<ExpP>()> &upd) {
  auto s = std::make_shared<If>();
  s->cond = c;
  s->thenB = Lw.condBlock(c, upd);
  s->elseB.results = acc;
  std::vector<ExpP> rs;
  for (auto &r : acc) {
    int o = Lw.newVar("u", r->type);
    s->outs.push_back(o);
    rs.push_back(varExp(o, r->type));
  }
  Lw.emit(s);
  return rs;
}

std::string operandsOf(const std::string &name) {
  if (name == "scatter" || name == "hist") return "the indices and values of " + name;
  if (name == "segmented_scan" || name == "segmented_reduce") return "the flags and values of " + name;
  if (name == "reduce_by_key") return "the keys and values of " + name;
  return "";
}

static Val deviceSegOp(Lowerer &Lw, const std::string &name, const std::vector<Val> &args, const Span &at, const TypeP &rt) {
  auto indexable = [&](const Val &v) {
    if (!v.isArrayLike()) Lw.error(at, "'" + name + "' of a value that is not an array");
    return Lw.indexable(v, at);
  };
  auto zipGuard = [&](const Val &a, const Val &b) {
    ExpP na = Lw.extent(a, 0, at), nb = Lw.extent(b, 0, at);
    return Lw.bindScalar("n", addL(na, Lw.deviceGuard(binaryExp(BinOp::Eq, na, nb), Lw.position(at), Check::ZipSize,
                                                      {na, nb}, operandsOf(name))));
  };
  auto L = [](const ExpP &e) { return toLong(e); };
  if (name == "scatter") {
    // element k: the last vs[j] with is[j] == k, else dest[k].
    Val dest = indexable(args[0]), is = indexable(args[1]), vs = indexable(args[2]);
    ExpP n = zipGuard(is, vs);
    TypeP t = dest.type;
    Val d;
    d.kind = Val::Delayed;
    d.type = t;
    d.dims = {Lw.extent(dest, 0, at)};
    d.fetch = [&Lw, dest, is, vs, n, t, at, L](const std::vector<ExpP> &k) {
      auto init = Lw.leaves(Lw.elementAt(dest, k), at);
      auto r = seqLoop(Lw, n, init, [&](const ExpP &j, const std::vector<ExpP> &acc) {
        ExpP hit = binaryExp(BinOp::Eq, L(Lw.elementAt(is, {j}).e), k[0]);
        return condUpd(Lw, hit, acc, [&] { return Lw.leaves(Lw.elementAt(vs, {j}), at); });
      }, at);
      size_t pos = 0;
      return Lw.rebuild(t->elem, r, pos);
    };
    return d;
  }
  if (name == "hist") {
    Val op = args[0], ne = args[1], is = indexable(args[3]), vs = indexable(args[4]);
    if (args[2].kind != Val::Scalar) Lw.error(at, "hist: the number of bins must be a scalar");
    ExpP bins = Lw.bindScalar("bins", maxL(L(args[2].e), constLong(0)));
    ExpP n = zipGuard(is, vs);
    TypeP et = elemTypeOf(vs.type);
    OpFn f = funcOp(Lw, op, et, at);
    std::vector<ExpP> nel = Lw.leaves(ne, at);
    Val d;
    d.kind = Val::Delayed;
    d.type = rt ? rt : vs.type;
    d.dims = {bins};
    d.fetch = [&Lw, is, vs, n, f, nel, et, at, L](const std::vector<ExpP> &b) {
      auto r = seqLoop(Lw, n, nel, [&](const ExpP &j, const std::vector<ExpP> &acc) {
        ExpP hit = binaryExp(BinOp::Eq, L(Lw.elementAt(is, {j}).e), b[0]);
        return condUpd(Lw, hit, acc, [&] { return f(acc, Lw.leaves(Lw.elementAt(vs, {j}), at)); });
      }, at);
      size_t pos = 0;
      return Lw.rebuild(et, r, pos);
    };
    return d;
  }
  if (name == "sort" || name == "sort_by") {
    // Stable: element j goes to #{i : key_i < key_j} + #{i < j : key_i == key_j};
    // element k of the result is the one whose position is k (quadratic per
    // element read: meant for small per-element arrays).
    Val xs = indexable(name == "sort" ? args[0] : args[1]);
    Val keys = name == "sort" ? xs : indexable(Lw.mapVal(args[0], {xs}, at, nullptr));
    if (name == "sort_by" && keys.kind == Val::Delayed && keys.rank() == 1) {
      // A key running a loop that must be lifted (varying state reading the
      // element; the keys are read inside the sort's folds): the keys made
      // first by a lifted loop (LowerNested.cpp).
      Val lifted;
      auto fetch = keys.fetch;
      if (Lw.liftComprehension(keys, keys.type, [fetch](const ExpP &j) { return fetch({j}); }, at, lifted)) keys = lifted;
    }
    keys = Lw.indexable(keys, at);
    ExpP n = Lw.bindScalar("n", Lw.extent(xs, 0, at));
    TypeP t = xs.type;
    Val d;
    d.kind = Val::Delayed;
    d.type = t;
    d.dims = {n};
    d.fetch = [&Lw, xs, keys, n, t, at](const std::vector<ExpP> &k) {
      auto init = Lw.leaves(Lw.defaultOf(t->elem), at);
      auto r = seqLoop(Lw, n, init, [&](const ExpP &j, const std::vector<ExpP> &acc) {
        ExpP kj = Lw.bindScalar("kj", Lw.leaves(Lw.elementAt(keys, {j}), at).at(0));
        auto p = seqLoop(Lw, n, {constLong(0)}, [&](const ExpP &i, const std::vector<ExpP> &c) {
          ExpP ki = Lw.leaves(Lw.elementAt(keys, {i}), at).at(0);
          ExpP before = binaryExp(BinOp::Or, binaryExp(BinOp::Lt, ki, kj),
                                  binaryExp(BinOp::And, binaryExp(BinOp::Eq, ki, kj), binaryExp(BinOp::Lt, i, j)));
          return std::vector<ExpP>{addL(c[0], selectExp(before, constLong(1), constLong(0)))};
        }, at);
        return condUpd(Lw, binaryExp(BinOp::Eq, p[0], k[0]), acc, [&] { return Lw.leaves(Lw.elementAt(xs, {j}), at); });
      }, at);
      size_t pos = 0;
      return Lw.rebuild(t->elem, r, pos);
    };
    return d;
  }
  // segmented_scan / segmented_reduce
  Val op = args[0], ne = args[1], flags = indexable(args[2]), xs = indexable(args[3]);
  ExpP n = zipGuard(flags, xs);
  TypeP et = elemTypeOf(xs.type);
  OpFn f = funcOp(Lw, op, et, at);
  std::vector<ExpP> nel = Lw.leaves(ne, at);
  bool scan = name == "segmented_scan";
  auto startAt = [&Lw, flags](const ExpP &j) {
    return binaryExp(BinOp::Or, binaryExp(BinOp::Eq, j, constLong(0)), Lw.elementAt(flags, {j}).e);
  };
  Val d;
  d.kind = Val::Delayed;
  d.type = rt ? rt : xs.type;
  if (scan) {
    // element k: fold j <= k, restarting from ne at each segment start.
    d.dims = {n};
    d.fetch = [&Lw, xs, f, nel, et, at, startAt](const std::vector<ExpP> &k) {
      auto r = seqLoop(Lw, addL(k[0], constLong(1)), nel, [&](const ExpP &j, const std::vector<ExpP> &acc) {
        ExpP st = Lw.bindScalar("start", startAt(j));
        std::vector<ExpP> base;
        for (size_t q = 0; q < acc.size(); ++q) base.push_back(Lw.bindScalar("a", selectExp(st, nel[q], acc[q])));
        return f(base, Lw.leaves(Lw.elementAt(xs, {j}), at));
      }, at);
      size_t pos = 0;
      return Lw.rebuild(et, r, pos);
    };
    return d;
  }
  // segmented_reduce: segment s = the elements j with #{0 < i <= j : flag_i} == s.
  auto segs = seqLoop(Lw, n, {constLong(0)}, [&](const ExpP &j, const std::vector<ExpP> &c) {
    return std::vector<ExpP>{addL(c[0], selectExp(startAt(j), constLong(1), constLong(0)))};
  }, at);
  d.dims = {segs[0]};
  d.fetch = [&Lw, xs, n, f, nel, et, at, startAt](const std::vector<ExpP> &s) {
    std::vector<ExpP> init{constLong(-1)};
    init.insert(init.end(), nel.begin(), nel.end());
    auto r = seqLoop(Lw, n, init, [&](const ExpP &j, const std::vector<ExpP> &acc) {
      ExpP seg = Lw.bindScalar("seg", addL(acc[0], selectExp(startAt(j), constLong(1), constLong(0))));
      std::vector<ExpP> a(acc.begin() + 1, acc.end());
      auto na = condUpd(Lw, binaryExp(BinOp::Eq, seg, s[0]), a, [&] { return f(a, Lw.leaves(Lw.elementAt(xs, {j}), at)); });
      na.insert(na.begin(), seg);
      return na;
    }, at);
    r.erase(r.begin());
    size_t pos = 0;
    return Lw.rebuild(et, r, pos);
  };
  return d;
}

Val Lowerer::mapVal(const Val &f, const std::vector<Val> &arrs, const Span &at, const TypeP &resultType) {
  TypeP rt = resultType;
  if (!rt && f.kind == Val::Func && f.fn) {
    // the function's declared result (no dry run of f for the element type,
    // which could run a loop where it cannot be lifted)
    TypeP r = f.fn->type && f.fn->type->kind == arrc::Type::Func ? f.fn->type->elem
              : f.fn->kind == FuncVal::Decl && f.fn->decl && f.fn->decl->typeParams.empty() ? f.fn->decl->result
                                                                                            : nullptr;
    int rank = 0;
    for (auto &a : arrs)
      if (a.isArrayLike()) {
        rank = a.rank();
        break;
      }
    if (r && !r->isArray() && rank > 0) rt = arrayOf(r, rank);
  }
  return elementwise(arrs, rt, at, [this, f, at](const std::vector<Val> &xs) { return apply(f, xs, at); });
}

Val Lowerer::filterVal(const Val &p, const Val &arr, const Span &at) {
  TypeP et = elemTypeOf(arr.type);
  if (device && arr.type && arr.type->isArray() && arr.type->rank == 1) {
    // A predicate running a loop that must be lifted (its state varies in
    // size and reads the element): the flags made first by a lifted loop
    // (one per element, LowerNested.cpp), then the filter reads them.
    TypeP bt = arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Bool), 1);
    bool need = liftNeededFor(bt, p, arr, at);
    if (need) {
      Val src = arr.kind == Val::Seq ? indexable(arr, at) : arr;
      Val flags;
      if (liftComprehension(src, bt, [this, p, src, at](const ExpP &j) { return apply(p, {elementAt(src, {j})}, at); },
                            at, flags, true)) {
        Val ix;
        ix.kind = Val::Delayed;
        ix.type = arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Long), 1);
        ix.dims = {extent(src, 0, at)};
        ix.fetch = [](const std::vector<ExpP> &i) {
          return Val::scalar(i[0], arrc::Type::scalarOf(ScalarKind::Long));
        };
        Val s;
        s.kind = Val::Seq;
        s.type = arr.type;
        tagSeq(s, "filter", at, ix.dims[0]);
        s.fold = [this, ix, src, flags, at](const std::vector<ExpP> &init, const StepFn &step) {
          return foldSeq(ix, init, [&](const std::vector<ExpP> &acc, const Val &jv) {
            Val item = elementAt(src, {jv.e});
            Val c = elementAt(flags, {jv.e});
            return stepWhere(c.e, acc, [&] { return step(acc, item); });
          }, at);
        };
        return s;
      }
    }
  }
  if (device) {
    Val s;
    s.kind = Val::Seq;
    s.type = arr.type;
    tagSeq(s, "filter", at, arr.kind == Val::Seq ? (arr.seq ? arr.seq->bound : nullptr) : extent(arr, 0, at));
    if (arr.kind != Val::Seq) {
      s.seq->filterPred = std::make_shared<Val>(p);
      s.seq->filterSrc = std::make_shared<Val>(arr);
    }
    s.fold = [this, p, arr, at](const std::vector<ExpP> &init, const StepFn &step) {
      return foldSeq(arr, init, [&](const std::vector<ExpP> &acc, const Val &item) {
        Val c = apply(p, {item}, at);
        return stepWhere(c.e, acc, [&] { return step(acc, item); });
      }, at);
    };
    return s;
  }
  std::vector<ScalarKind> ks;
  typeLeaves(et, ks);
  auto f = std::make_shared<Filter>();
  f->n = extent(arr, 0, at);
  f->index = newVar("i", L1());
  ExpP iv = varExp(f->index, L1());
  f->body = bodyBlock({f->n}, {f->index}, [&] {
    Val item = elementAt(arr, {iv});
    Val c = apply(p, {item}, at);
    std::vector<ExpP> r{c.e};
    auto ls = leaves(item, at);
    r.insert(r.end(), ls.begin(), ls.end());
    return r;
  });
  std::vector<ExpP> arrs;
  for (auto k : ks) {
    int o = newVar("filt", arrayT(k, 1));
    f->outs.push_back(o);
    arrs.push_back(varExp(mod, o));
  }
  f->span = at;
  emit(f);
  return arrayFromVars(arr.type, arrs);
}

static bool isMathFn(const std::string &n) {
  static const std::set<std::string> fs = {"sqrt", "exp", "log", "pow", "sin", "cos", "tan", "atan2", "abs",
                                           "min", "max", "floor", "ceil", "round", "erf", "isnan"};
  return fs.count(n) > 0;
}


static ExpP scalarOf(Lowerer &Lw, const Val &v, const Span &at) {
  if (v.kind != Val::Scalar) Lw.error(at, "expected a scalar argument");
  return v.e;
}

Val Lowerer::intrinsic(const std::string &name, const std::vector<Val> &args, const Span &at, const TypeP &resultType) {
  auto need = [&](size_t n) {
    if (args.size() < n) error(at, "'" + name + "' expects " + std::to_string(n) + " arguments");
  };
  auto mat = [&](const Val &v) { return device ? v : materialize(v, at); };
  TypeP rt = resultType;
  // an operator running a loop whose state varies in size: a sequential fold
  if (Val lifted; liftedOperator(name, args, at, rt, lifted)) return lifted;
  // ---- math (scalars, element-wise on arrays)
  if (isMathFn(name)) {
    bool anyArr = false;
    for (auto &a : args) anyArr = anyArr || a.isArrayLike();
    auto f = [name, this, at](const std::vector<Val> &x) {
      std::vector<ExpP> es;
      for (auto &v : x) es.push_back(scalarOf(*this, v, at));
      ScalarKind k = name == "isnan" ? ScalarKind::Bool : es.at(0)->type.elem;
      return Val::scalar(callExp(name, es, k), arrc::Type::scalarOf(k));
    };
    if (anyArr) return elementwise(args, rt && rt->isArray() ? rt : nullptr, at, f);
    return f(args);
  }
  if (name == "iota") {
    need(1);
    ExpP n = toLong(scalarOf(*this, args[0], at));
    if (!device) n = bindScalar("n", n);
    ScalarKind k = args[0].e->type.elem;
    TypeP t = rt ? rt : arrc::Type::array(arrc::Type::scalarOf(k), 1);
    return mkDelayed(t, {maxL(n, constLong(0))}, [k, t](const std::vector<ExpP> &i) { return Val::scalar(convertExp(i[0], k), t->elem); });
  }
  if (name == "replicate") {
    need(2);
    ExpP n = toLong(scalarOf(*this, args[0], at));
    Val v = args[1];
    if (v.kind == Val::Scalar && !device) v = Val::scalar(bindScalar("v", v.e), v.type);
    TypeP t = rt ? rt : arrayOf(v.type, 1);
    if (v.isArrayLike()) {
      // (an irregular array computed in a body is made indexable first)
      Val vd = v.kind == Val::Seq ? toDelayed(indexable(v, at)) : v.kind == Val::Array ? toDelayed(v) : v;
      std::vector<ExpP> dims{n};
      dims.insert(dims.end(), vd.dims.begin(), vd.dims.end());
      return mat(mkDelayed(t, dims, [vd](const std::vector<ExpP> &i) { return vd.fetch(std::vector<ExpP>(i.begin() + 1, i.end())); }));
    }
    return mkDelayed(t, {maxL(n, constLong(0))}, [v](const std::vector<ExpP> &) { return v; });
  }
  if (name == "length") {
    need(1);
    ExpP n = length(args[0], at);
    ScalarKind k = rt && rt->isScalar() ? rt->scalar : ScalarKind::Long;
    return Val::scalar(extentAs(n, k, at), arrc::Type::scalarOf(k));
  }
  if (name == "map") {
    need(2);
    std::vector<Val> arrs(args.begin() + 1, args.end());
    if (device && arrs.size() == 1 && arrs[0].kind == Val::Seq && rt && rt->isArray() && rt->rank == 1 &&
        liftNeeded(rt, [&] {
          foldSeq(arrs[0], {constLong(0)}, [&](const std::vector<ExpP> &acc, const Val &item) {
            leaves(apply(args[0], {item}, at), at);
            return acc;
          }, at);
        }))
      // f runs a loop that must be lifted, over an irregular array: the
      // array made indexable, then f's results made by a lifted loop (below).
      arrs[0] = indexable(arrs[0], at);
    if (device && arrs.size() == 1 && arrs[0].kind == Val::Seq) {
      Val src = arrs[0], f = args[0];
      Val s;
      s.kind = Val::Seq;
      s.type = rt;
      s.fold = [this, src, f, at](const std::vector<ExpP> &init, const StepFn &step) {
        return foldSeq(src, init, [&](const std::vector<ExpP> &acc, const Val &item) { return step(acc, apply(f, {item}, at)); }, at);
      };
      tagSeq(s, "map", at, src.seq ? src.seq->bound : nullptr);
      return s;
    }
    bool rows = false;
    for (auto &a : arrs) rows = rows || a.rank() > 1;
    if (rows && rt && rt->isArray()) {
      // Over rank >= 2 arrays map applies f to rows: the comprehension
      // [f(x0, x1, ...) | x0 <- a0 | x1 <- a1 ...], with its schemes (a nest
      // when f yields arrays of equal extents).
      static int uid = 0;
      std::string tag = std::to_string(uid++);
      Env saved = env;
      auto var = [&](const std::string &n, const TypeP &t) {
        auto v = std::make_shared<VarRef>();
        v->name = n;
        v->ref = VarRef::Ref::Local;
        v->type = t;
        v->span = at;
        return v;
      };
      auto c = std::make_shared<arrc::Comprehension>();
      c->span = at;
      c->type = rt;
      auto call = std::make_shared<arrc::Call>();
      call->span = at;
      call->type = elemTypeOf(rt);
      std::string fname = " map f " + tag;
      bind(fname, args[0]);
      call->callee = var(fname, args[0].type);
      for (size_t k = 0; k < arrs.size(); ++k) {
        std::string an = " map a" + std::to_string(k) + " " + tag, xn = " map x" + std::to_string(k) + " " + tag;
        bind(an, arrs[k]);
        Qualifier q;
        q.kind = Qualifier::Bind;
        q.pattern.kind = Pattern::Var;
        q.pattern.name = xn;
        q.pattern.type = elemTypeOf(arrs[k].type);
        q.pattern.span = at;
        q.expr = var(an, arrs[k].type);
        q.span = at;
        c->branches.push_back({q});
        call->args.push_back(var(xn, q.pattern.type));
      }
      c->head = call;
      ownedAst.push_back(c);
      try {
        Val r = lower(c);
        env = saved;
        return r;
      } catch (...) {
        env = saved;
        throw;
      }
    }
    Val r = mapVal(args[0], arrs, at, rt);
    if (device && r.kind == Val::Delayed && r.rank() == 1) {
      // f runs a loop that must be lifted, where a consumer's fold reads
      // the elements: the elements made by a lifted loop (LowerNested.cpp).
      Val lifted;
      auto fetch = r.fetch;
      if (liftComprehension(r, r.type, [fetch](const ExpP &j) { return fetch({j}); }, at, lifted)) return lifted;
    }
    return r;
  }
  if (name == "filter") { need(2); return filterVal(args[0], args[1], at); }
  if (name == "zip") {
    need(2);
    std::vector<Val> arrs = args;
    std::vector<TypeP> ets;
    for (auto &a : arrs) ets.push_back(elemTypeOf(a.type));
    TypeP t = rt ? rt : arrc::Type::array(arrc::Type::tuple(ets), 1);
    // Arrays of tuples are SoA: zip is free after a size check.
    bool allArr = true;
    for (auto &a : arrs) allArr = allArr && a.kind == Val::Array;
    return elementwise(arrs, t, at, [t](const std::vector<Val> &x) { return Val::tuple(x, t->elem); }, Check::ZipSize);
  }
  if (name == "unzip") {
    need(1);
    Val a = args[0];
    if (a.kind == Val::Seq) a = indexable(a, at);
    if (a.kind == Val::Array) {
      std::vector<Val> parts;
      size_t pos = 0;
      for (auto &et : a.type->elem->elems) {
        std::vector<ScalarKind> ks;
        typeLeaves(et, ks);
        std::vector<ExpP> arrs(a.arrs.begin() + pos, a.arrs.begin() + pos + ks.size());
        pos += ks.size();
        parts.push_back(arrayFromVars(arrc::Type::array(et, a.rank()), arrs));
      }
      return Val::tuple(parts, rt);
    }
    std::vector<Val> parts;
    Val d = a.kind == Val::Delayed ? a : toDelayed(mat(a));
    for (size_t k = 0; k < a.type->elem->elems.size(); ++k) {
      FetchFn f = d.fetch;
      parts.push_back(mat(mkDelayed(arrc::Type::array(a.type->elem->elems[k], a.rank()), d.dims,
                                    [f, k](const std::vector<ExpP> &i) { return f(i).elems.at(k); })));
    }
    return Val::tuple(parts, rt);
  }
  if (name == "reduce") {
    need(3);
    TypeP et = elemTypeOf(args[2].type);
    return reduceWith(args[2], args[0], {args[1]}, at, et);
  }
  if (name == "sum" || name == "product") {
    need(1);
    TypeP et = elemTypeOf(args[0].type);
    ScalarKind k = et->scalar;
    ExpP ne = name == "sum" ? constZero(k) : (isFloatKind(k) ? constFloat(1, k) : constInt(1, k));
    auto r = reduceElems(*this, args[0], {k}, binOp(name == "sum" ? BinOp::Add : BinOp::Mul), {ne}, at, name);
    return Val::scalar(r[0], et);
  }
  if (name == "maximum" || name == "minimum") {
    need(1);
    TypeP et = elemTypeOf(args[0].type);
    ScalarKind k = et->scalar;
    bool mx = name == "maximum";
    ExpP ne;
    if (isFloatKind(k)) ne = constFloat(mx ? -INFINITY : INFINITY, k);
    else if (k == ScalarKind::Int) ne = constInt(mx ? INT32_MIN : INT32_MAX, k);
    else if (k == ScalarKind::Long) ne = constInt(mx ? INT64_MIN : INT64_MAX, k);
    else ne = constBool(!mx);
    if (!device) {
      ExpP n = length(args[0], at);
      auto ch = std::make_shared<Check>();
      ch->code = Check::Empty;
      ch->cond = binaryExp(BinOp::Gt, n, constLong(0));
      ch->pos = position(at);
      ch->message = name + " of an empty array";
      ch->span = at;
      emit(ch);
    }
    OpFn op = k == ScalarKind::Bool ? binOp(mx ? BinOp::Or : BinOp::And) : fnOp(mx ? "max" : "min");
    if (device) {
      // In a body: the fold also counts the elements; an empty array raises
      // through an in-body guard (Check Empty when hoisted).
      auto r = foldSeq(args[0], {ne, constLong(0)}, [&](const std::vector<ExpP> &acc, const Val &item) {
        auto v = op({acc[0]}, leaves(item, at));
        return std::vector<ExpP>{v[0], addL(acc[1], constLong(1))};
      }, at);
      ExpP g = bindScalar("nonempty", deviceGuard(binaryExp(BinOp::Gt, r[1], constLong(0)), position(at), Check::Empty));
      return Val::scalar(bindScalar(name, selectExp(binaryExp(BinOp::Eq, g, constLong(0)), r[0], ne)), et);
    }
    auto r = reduceElems(*this, args[0], {k}, op, {ne}, at, name);
    return Val::scalar(r[0], et);
  }
  if (name == "count" || name == "any" || name == "all") {
    need(2);
    Val p = args[0];
    ScalarKind ck = name == "count" ? (rt && rt->isScalar() ? rt->scalar : ScalarKind::Int) : ScalarKind::Bool;
    auto proj = [this, p, at, name, ck](const Val &item) {
      ExpP c = apply(p, {item}, at).e;
      if (name == "count") return std::vector<ExpP>{selectExp(c, constInt(1, ck), constInt(0, ck))};
      return std::vector<ExpP>{c};
    };
    OpFn op = name == "count" ? binOp(BinOp::Add) : binOp(name == "any" ? BinOp::Or : BinOp::And);
    ExpP ne = name == "count" ? constInt(0, ck) : constBool(name == "all");
    auto r = reduceElems(*this, args[1], {ck}, op, {ne}, at, name, proj);
    return Val::scalar(r[0], arrc::Type::scalarOf(ck));
  }
  if (name == "argmin" || name == "argmax") {
    need(1);
    TypeP et = elemTypeOf(args[0].type);
    ScalarKind k = et->scalar;
    bool mx = name == "argmax";
    ScalarKind ik = rt && rt->isScalar() ? rt->scalar : ScalarKind::Int;
    if (!device) {
      auto ch = std::make_shared<Check>();
      ch->code = Check::Empty;
      ch->cond = binaryExp(BinOp::Gt, length(args[0], at), constLong(0));
      ch->pos = position(at);
      ch->message = name + " of an empty array";
      emit(ch);
    }
    // (value, index) pairs; ties keep the smaller index; index -1 is neutral.
    OpFn op = [mx, this](const std::vector<ExpP> &a, const std::vector<ExpP> &b) {
      ExpP better = binaryExp(mx ? BinOp::Gt : BinOp::Lt, b[0], a[0]);
      ExpP eq = binaryExp(BinOp::Eq, b[0], a[0]);
      ExpP aNone = binaryExp(BinOp::Lt, a[1], constLong(0));
      ExpP bNone = binaryExp(BinOp::Lt, b[1], constLong(0));
      ExpP takeB = binaryExp(BinOp::And, unaryExp(UnOp::Not, bNone),
                             binaryExp(BinOp::Or, aNone, binaryExp(BinOp::Or, better, binaryExp(BinOp::And, eq, binaryExp(BinOp::Lt, b[1], a[1])))));
      ExpP t = bindScalar("take", takeB);
      return std::vector<ExpP>{selectExp(t, b[0], a[0]), selectExp(t, b[1], a[1])};
    };
    Val arr = args[0];
    std::vector<ExpP> r;
    if (device) {
      auto st = foldSeq(arr, {constZero(k), constLong(-1), constLong(0)}, [&](const std::vector<ExpP> &acc, const Val &item) {
        auto nv = op({acc[0], acc[1]}, {item.e, acc[2]});
        return std::vector<ExpP>{nv[0], nv[1], addL(acc[2], constLong(1))};
      }, at);
      r = {st[0], st[1]};
    } else {
      auto red = std::make_shared<Reduce>();
      red->n = extent(arr, 0, at);
      red->index = newVar("i", L1());
      ExpP iv = varExp(red->index, L1());
      red->body = bodyBlock({red->n}, {red->index}, [&] { return std::vector<ExpP>{elementAt(arr, {iv}).e, iv}; });
      red->op = makeLambda(*this, {k, ScalarKind::Long}, op);
      red->ne = {constZero(k), constLong(-1)};
      for (auto kk : {k, ScalarKind::Long}) {
        int o = newVar("arg", scalarT(kk));
        red->outs.push_back(o);
        r.push_back(varExp(o, scalarT(kk)));
      }
      red->note = name;
      emit(red);
    }
    return Val::scalar(convertExp(r[1], ik), arrc::Type::scalarOf(ik));
  }
  if (name == "transpose") { need(1); return transposeVal(args[0], at); }
  if (name == "reverse") { need(1); return reverseVal(args[0], at); }
  if (name == "concat" || name == "++") {
    need(2);
    Val a = args[0], b = args[1];
    if (a.kind == Val::Seq) a = indexable(a, at);
    if (b.kind == Val::Seq) b = indexable(b, at);
    Val da = a.kind == Val::Array ? toDelayed(a) : a, db = b.kind == Val::Array ? toDelayed(b) : b;
    ExpP na = da.dims[0], nb = db.dims[0];
    std::vector<ExpP> dims{addL(na, nb)};
    if (!device && da.dims.size() > 1) {
      ExpP ok = constBool(true);
      for (size_t k = 1; k < da.dims.size(); ++k) ok = binaryExp(BinOp::And, ok, binaryExp(BinOp::Eq, da.dims[k], db.dims[k]));
      auto ch = std::make_shared<Check>();
      ch->code = Check::Shape;
      ch->cond = ok;
      ch->pos = position(at);
      ch->values = {da.dims[1], db.dims[1]};
      emit(ch);
    }
    dims.insert(dims.end(), da.dims.begin() + 1, da.dims.end());
    TypeP t = rt ? rt : a.type;
    Val d = mkDelayed(t, dims, [this, da, db, na, t](const std::vector<ExpP> &i) {
      ExpP inA = bindScalar("inA", binaryExp(BinOp::Lt, i[0], na));
      auto ia = i, ib = i;
      ia[0] = selectExp(inA, i[0], constLong(0));
      ib[0] = selectExp(inA, constLong(0), subL(i[0], na));
      auto st = std::make_shared<If>();
      st->cond = inA;
      st->thenB = condBlock(inA, [&] { return leaves(da.fetch(i), {}); });
      st->elseB = condBlock(unaryExp(UnOp::Not, inA), [&] {
        auto j = i;
        j[0] = subL(i[0], na);
        return leaves(db.fetch(j), {});
      });
      std::vector<ExpP> rs;
      for (auto &r : st->thenB.results) {
        int o = newVar("cat", r->type);
        st->outs.push_back(o);
        rs.push_back(varExp(o, r->type));
      }
      emit(st);
      size_t pos = 0;
      return rebuild(t->elem, rs, pos);
    });
    return mat(d);
  }
  if (name == "take" || name == "drop") {
    need(2);
    ExpP k = toLong(scalarOf(*this, args[0], at));
    Val a = args[1];
    if (a.kind == Val::Seq) a = indexable(a, at);
    ExpP n = extent(a, 0, at);
    if (!device) {
      k = bindScalar("k", k);
      auto ch = std::make_shared<Check>();
      ch->code = Check::Bounds;
      ch->cond = binaryExp(BinOp::And, binaryExp(BinOp::Ge, k, constLong(0)), binaryExp(BinOp::Le, k, n));
      ch->pos = position(at);
      ch->values = {k, n, constLong(0)};
      ch->message = name;
      emit(ch);
    }
    bool take = name == "take";
    ExpP cnt = take ? k : subL(n, k), off = take ? constLong(0) : k;
    if (a.kind == Val::Array && !device)
      return viewOf(a, a.type, [&] {
        std::vector<ExpP> s{cnt};
        for (int x = 1; x < a.rank(); ++x) s.push_back(shapeExp(a.arrs[0], x));
        return s;
      }(), [&](const ExpP &src) {
        std::vector<ExpP> w;
        for (int x = 0; x < a.rank(); ++x) w.push_back(weightExp(src, x));
        w.push_back(addL(weightExp(src, a.rank()), mulL(off, weightExp(src, 0))));
        return w;
      }, at);
    Val d = a.kind == Val::Array ? toDelayed(a) : a;
    Val r = d;
    r.dims[0] = cnt;
    FetchFn f = d.fetch;
    r.fetch = [f, off](const std::vector<ExpP> &i) { auto j = i; j[0] = addL(i[0], off); return f(j); };
    return r;
  }
  if (name == "rotate") {
    need(2);
    ExpP r0 = toLong(scalarOf(*this, args[0], at));
    Val a = args[1];
    if (a.kind == Val::Seq) a = indexable(a, at);
    Val d = a.kind == Val::Array ? toDelayed(a) : a;
    if (d.kind != Val::Delayed) error(at, "unsupported rotate argument");
    ExpP n = d.dims[0];
    FetchFn f = d.fetch;
    Val r = d;
    r.fetch = [this, f, n, r0](const std::vector<ExpP> &i) {
      ExpP nn = selectExp(binaryExp(BinOp::Eq, n, constLong(0)), constLong(1), n);
      ExpP m = bindScalar("m", binaryExp(BinOp::Mod, addL(i[0], binaryExp(BinOp::Mod, r0, nn)), nn));
      ExpP j0 = bindScalar("j", binaryExp(BinOp::Mod, addL(m, nn), nn));
      auto j = i;
      j[0] = j0;
      return f(j);
    };
    return mat(r);
  }
  if (name == "flatten") {
    need(1);
    Val a = args[0];
    if (a.rank() < 2) return a;
    Val d = a.kind == Val::Array ? toDelayed(a) : a;
    ExpP n = constLong(1);
    for (auto &x : d.dims) n = mulL(n, x);
    std::vector<ExpP> dims = d.dims;
    TypeP t = rt ? rt : arrc::Type::array(a.type->elem, 1);
    return mat(mkDelayed(t, {n}, [this, d, dims](const std::vector<ExpP> &i) {
      std::vector<ExpP> idx(dims.size());
      ExpP k = i[0];
      for (int x = int(dims.size()) - 1; x > 0; --x) {
        idx[x] = bindScalar("i", binaryExp(BinOp::Mod, k, dims[x]));
        k = bindScalar("q", binaryExp(BinOp::Div, k, dims[x]));
      }
      idx[0] = k;
      return d.fetch(idx);
    }));
  }
  if (name == "unflatten") {
    need(3);
    ExpP m = toLong(scalarOf(*this, args[0], at)), n = toLong(scalarOf(*this, args[1], at));
    Val a = args[2];
    if (a.kind == Val::Seq) a = indexable(a, at);
    if (!device) {
      m = bindScalar("m", m), n = bindScalar("n", n);
      for (auto &e : {m, n}) {
        auto neg = std::make_shared<Check>();
        neg->code = Check::Negative;
        neg->cond = binaryExp(BinOp::Ge, e, constLong(0));
        neg->pos = position(at);
        neg->values = {e};
        emit(neg);
      }
      auto ch = std::make_shared<Check>();
      ch->code = Check::Shape;
      ch->cond = binaryExp(BinOp::Eq, mulL(m, n), extent(a, 0, at));
      ch->pos = position(at);
      ch->values = {mulL(m, n), extent(a, 0, at)};
      emit(ch);
    }
    Val d = a.kind == Val::Array ? toDelayed(a) : a;
    TypeP t = rt ? rt : arrc::Type::array(a.type->elem, 2);
    return mat(mkDelayed(t, {m, n}, [d, n](const std::vector<ExpP> &i) { return d.fetch({addL(mulL(i[0], n), i[1])}); }));
  }
  if (name == "gather") {
    need(2);
    Val xs = args[0], is = args[1];
    if (xs.kind == Val::Seq) xs = indexable(xs, at);
    int pos = position(at);
    return elementwise({is}, rt, at, [this, xs, pos, at](const std::vector<Val> &i) {
      Val x = xs;
      // a computed source (a range, iota, replicate, a map): checked as indexing it is
      if (x.kind == Val::Delayed) return x.fetch({checkedIndex(toLong(i[0].e), x.dims.at(0), 0, pos)});
      if (x.kind != Val::Array) error(at, "unsupported gather source");
      return elementAt(x, {toLong(i[0].e)}, pos);
    });
  }
  if (name == "scan") {
    need(3);
    Val op = args[0], arr = args[2];
    TypeP et = elemTypeOf(arr.type);
    std::vector<ScalarKind> ks;
    typeLeaves(et, ks);
    if (device) {
      // Sequential inside a parallel body: a Seq whose fold carries the
      // running prefix alongside the consumer's accumulator (no storage; the
      // result can be folded — sum, length, reduce, a nested generator —
      // but not indexed).
      if (!arr.isArrayLike()) error(at, "scan of a value that is not an array");
      OpFn f = funcOp(*this, op, et, at);
      std::vector<ExpP> ne = leaves(args[1], at);
      Val src = arr;
      Val r;
      r.kind = Val::Seq;
      r.type = arr.type;
      r.fold = [this, src, f, ne, et, at](const std::vector<ExpP> &init, const StepFn &step) {
        std::vector<ExpP> all = init;
        all.insert(all.end(), ne.begin(), ne.end());
        size_t K = init.size();
        auto res = foldSeq(src, all, [&](const std::vector<ExpP> &acc, const Val &x) {
          std::vector<ExpP> a(acc.begin(), acc.begin() + K), s(acc.begin() + K, acc.end());
          auto ns = f(s, leaves(x, at));
          std::vector<ExpP> bound;
          for (auto &e : ns) bound.push_back(bindScalar("pre", e));
          size_t pos = 0;
          auto na = step(a, rebuild(et, bound, pos));
          na.insert(na.end(), bound.begin(), bound.end());
          return na;
        }, at);
        res.resize(K);
        return res;
      };
      tagSeq(r, "scan", at, arr.kind == Val::Seq ? (arr.seq ? arr.seq->bound : nullptr) : extent(arr, 0, at));
      r.seq->scanOp = std::make_shared<Val>(op);
      r.seq->scanNe = std::make_shared<Val>(args[1]);
      r.seq->scanSrc = std::make_shared<Val>(arr);
      return r;
    }
    auto s = std::make_shared<Scan>();
    s->n = extent(arr, 0, at);
    s->index = newVar("i", L1());
    ExpP iv = varExp(s->index, L1());
    s->body = bodyBlock({s->n}, {s->index}, [&] { return leaves(elementAt(arr, {iv}), at); });
    s->op = makeLambda(*this, ks, funcOp(*this, op, et, at));
    s->ne = leaves(args[1], at);
    std::vector<ExpP> arrs;
    for (auto k : ks) {
      int o = newVar("scan", arrayT(k, 1));
      s->outs.push_back(o);
      arrs.push_back(varExp(mod, o));
    }
    s->span = at;
    emit(s);
    return arrayFromVars(arr.type, arrs);
  }
  if (name == "expand" || name == "expand_reduce") {
    bool red = name == "expand_reduce";
    need(red ? 5 : 3);
    Val sz = args[0], get = args[1], xs = args[red ? 4 : 2];
    TypeP xt = elemTypeOf(xs.type);
    if (red) {
      // One sequential reduction per element (a Map whose body Loops).
      Val op = args[2], ne = args[3];
      TypeP et = ne.type;
      std::vector<ScalarKind> ks;
      typeLeaves(et, ks);
      OpFn f = funcOp(*this, op, et, at);
      return elementwise({xs}, rt, at, [this, sz, get, f, ne, at](const std::vector<Val> &x) {
        Val n = apply(sz, {x[0]}, at);
        ScalarKind ik = n.e->type.elem;
        Val it = mkDelayed(arrc::Type::array(n.type, 1), {toLong(n.e)}, [ik, n](const std::vector<ExpP> &i) {
          return Val::scalar(convertExp(i[0], ik), n.type);
        });
        auto r = foldSeq(it, leaves(ne, at), [&](const std::vector<ExpP> &acc, const Val &j) {
          return f(acc, leaves(apply(get, {x[0], j}, at), at));
        }, at);
        size_t pos = 0;
        return rebuild(ne.type, r, pos);
      });
    }
    TypeP et = rt && rt->isArray() ? rt->elem : nullptr;
    if (device && xs.type && xs.type->isArray() && xs.type->rank == 1) {
      // A size function running a loop that must be lifted (varying state
      // reading the element; sizes are computed inside a fold): the sizes
      // made first by a lifted loop (LowerNested.cpp), then the expansion
      // reads them.
      TypeP it = arrc::Type::scalarOf(ScalarKind::Int);
      TypeP st = arrc::Type::array(it, 1);
      bool need = liftNeededFor(st, sz, xs, at);
      Val src = need && xs.kind == Val::Seq ? indexable(xs, at) : xs;
      Val sizes;
      if (need && liftComprehension(src, st, [this, sz, src, at](const ExpP &j) { return apply(sz, {elementAt(src, {j})}, at); },
                                    at, sizes, true)) {
        Val ix = mkDelayed(arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Long), 1), {extent(src, 0, at)},
                           [](const std::vector<ExpP> &i) {
                             return Val::scalar(i[0], arrc::Type::scalarOf(ScalarKind::Long));
                           });
        Val s;
        s.kind = Val::Seq;
        s.type = rt;
        s.fold = [this, get, src, sizes, ix, it, at](const std::vector<ExpP> &init, const StepFn &step) {
          return foldSeq(ix, init, [&](const std::vector<ExpP> &acc, const Val &jv) {
            Val x = elementAt(src, {jv.e});
            Val n = elementAt(sizes, {jv.e});
            Val r = mkDelayed(arrc::Type::array(it, 1), {toLong(n.e)}, [it](const std::vector<ExpP> &i) {
              return Val::scalar(convertExp(i[0], ScalarKind::Int), it);
            });
            return foldSeq(r, acc, [&](const std::vector<ExpP> &a, const Val &j) { return step(a, apply(get, {x, j}, at)); }, at);
          }, at);
        };
        tagSeq(s, "expand", at, nullptr);
        return s;
      }
    }
    if (device && rt && rt->isArray() && rt->rank == 1) {
      // A get function running a loop that must be lifted (varying state
      // reading x or j): the pairs (x, j) made indexable, then the elements
      // made by a lifted loop, one per pair (LowerNested.cpp).
      TypeP it = arrc::Type::scalarOf(ScalarKind::Int);
      TypeP pt = arrc::Type::tuple({xt, it});
      Val pairs;
      pairs.kind = Val::Seq;
      pairs.type = arrc::Type::array(pt, 1);
      pairs.fold = [this, sz, xs, pt, it, at](const std::vector<ExpP> &init, const StepFn &step) {
        return foldSeq(xs, init, [&](const std::vector<ExpP> &acc, const Val &x) {
          Val n = apply(sz, {x}, at);
          Val r = mkDelayed(arrc::Type::array(it, 1), {toLong(n.e)}, [it](const std::vector<ExpP> &i) {
            return Val::scalar(convertExp(i[0], ScalarKind::Int), it);
          });
          return foldSeq(r, acc, [&](const std::vector<ExpP> &a, const Val &j) { return step(a, Val::tuple({x, j}, pt)); }, at);
        }, at);
      };
      tagSeq(pairs, "expand", at, nullptr);
      bool need = liftNeeded(rt, [&] {
        foldSeq(pairs, {constLong(0)}, [&](const std::vector<ExpP> &acc, const Val &p) {
          leaves(apply(get, {p.elems.at(0), p.elems.at(1)}, at), at);
          return acc;
        }, at);
      });
      if (need) {
        Val pi = indexable(pairs, at);
        Val out;
        if (liftComprehension(pi, rt, [this, pi, get, at](const ExpP &j) {
              Val p = elementAt(pi, {j});
              return apply(get, {p.elems.at(0), p.elems.at(1)}, at);
            }, at, out, true))
          return out;
      }
    }
    if (device) {
      Val s;
      s.kind = Val::Seq;
      s.type = rt;
      s.fold = [this, sz, get, xs, at](const std::vector<ExpP> &init, const StepFn &step) {
        return foldSeq(xs, init, [&](const std::vector<ExpP> &acc, const Val &x) {
          Val n = apply(sz, {x}, at);
          ScalarKind ik = n.e->type.elem;
          Val it = mkDelayed(arrc::Type::array(n.type, 1), {toLong(n.e)}, [ik, n](const std::vector<ExpP> &i) {
            return Val::scalar(convertExp(i[0], ik), n.type);
          });
          return foldSeq(it, acc, [&](const std::vector<ExpP> &a, const Val &j) { return step(a, apply(get, {x, j}, at)); }, at);
        }, at);
      };
      tagSeq(s, "expand", at, nullptr);
      return s;
    }
    // A get function running a loop whose state varies in size (the
    // Expand's body cannot lift it: j is not an index of its space): the
    // pairs (i, j) expanded first, then a Map over them applies get.
    bool pairsOnly = fnNeedsLift(get, {xt, arrc::Type::scalarOf(ScalarKind::Int)}, et, at);
    auto x = std::make_shared<Expand>();
    x->n = extent(xs, 0, at);
    x->index = newVar("i", L1());
    x->inner = newVar("j", L1());
    ExpP iv = varExp(x->index, L1()), jv = varExp(x->inner, L1());
    ScalarKind ik = ScalarKind::Int;
    deviceVars.insert(x->inner); // per element (i, j): flattening over i < n only
    x->size = bodyBlock({x->n}, {x->index}, [&] {
      Val n = apply(sz, {elementAt(xs, {iv})}, at);
      ik = n.e->type.elem;
      return std::vector<ExpP>{maxL(toLong(n.e), constLong(0))};
    });
    Val sample;
    TypeP pairT = arrc::Type::tuple({arrc::Type::scalarOf(ScalarKind::Long), arrc::Type::scalarOf(ScalarKind::Int)});
    x->body = bodyBlock({x->n}, {x->index}, [&] {
      if (pairsOnly) return std::vector<ExpP>{iv, convertExp(jv, ScalarKind::Int)};
      sample = apply(get, {elementAt(xs, {iv}), Val::scalar(convertExp(jv, ik), arrc::Type::scalarOf(ik))}, at);
      return leaves(sample, at);
    });
    TypeP resultT = rt;
    if (pairsOnly) et = pairT, resultT = arrc::Type::array(pairT, 1);
    if (!et) et = sample.type;
    std::vector<ScalarKind> ks;
    typeLeaves(et, ks);
    std::vector<ExpP> arrs;
    for (auto k : ks) {
      int o = newVar("exp", arrayT(k, 1));
      x->outs.push_back(o);
      arrs.push_back(varExp(mod, o));
    }
    x->note = pairsOnly ? "expand (its pairs: get runs a loop whose state varies in size)" : "expand";
    x->span = at;
    emit(x);
    (void)xt;
    if (pairsOnly) {
      Val pairs = arrayFromVars(resultT, arrs);
      ScalarKind jk = ik;
      Val d = mkDelayed(rt, {extent(pairs, 0, at)}, [this, pairs, xs, get, jk, at](const std::vector<ExpP> &k) {
        Val p = elementAt(pairs, k);
        return apply(get, {elementAt(xs, {p.elems.at(0).e}),
                           Val::scalar(convertExp(p.elems.at(1).e, jk), arrc::Type::scalarOf(jk))}, at);
      });
      return materialize(d, at);
    }
    return arrayFromVars(rt ? rt : arrc::Type::array(et, 1), arrs);
  }
  if (device) {
    // Inside a body: flattened into segmented host SOACs, or sequential index
    // functions, by the cost rule (LowerNested.cpp).
    Val flat;
    if (name == "sort" && args.size() == 1 && flattenSort(nullptr, args[0], at, flat)) return flat;
    // (a key running a loop that must be lifted: the sequential scheme, whose
    // keys a lifted loop makes first, see deviceSegOp)
    auto keyLifts = [&] {
      const Val &xs = args[1];
      if (!xs.type || !xs.type->isArray() || xs.type->rank != 1) return false;
      return liftNeededFor(arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Long), 1), args[0], xs, at);
    };
    if (name == "sort_by" && args.size() == 2 && !keyLifts() && flattenSort(&args[0], args[1], at, flat)) return flat;
    if (name == "hist" && args.size() == 5 && flattenHist(args[0], args[1], args[2], args[3], args[4], at, rt, flat))
      return flat;
    if (name == "reduce_by_key") {
      need(4);
      if (flattenReduceByKey(args[0], args[1], args[2], args[3], at, rt, flat)) return flat;
      return seqReduceByKey(args[0], args[1], args[2], args[3], at, rt);
    }
  }
  if (device && (name == "scatter" || name == "hist" || name == "sort" || name == "sort_by" ||
                 name == "segmented_scan" || name == "segmented_reduce"))
    return deviceSegOp(*this, name, args, at, rt);
  auto zipCheck = [&](const Val &a, const Val &b) {
    auto ch = std::make_shared<Check>();
    ch->code = Check::ZipSize;
    ExpP na = extent(a, 0, at), nb = extent(b, 0, at);
    ch->cond = binaryExp(BinOp::Eq, na, nb);
    ch->pos = position(at);
    ch->values = {na, nb};
    ch->message = operandsOf(name);
    emit(ch);
  };
  if (name == "scatter") {
    need(3);
    Val dest = materialize(args[0], at), is = args[1], vs = args[2];
    zipCheck(is, vs);
    auto sc = std::make_shared<Scatter>();
    sc->dests = dest.arrs;
    sc->n = extent(is, 0, at);
    sc->index = newVar("i", L1());
    ExpP iv = varExp(sc->index, L1());
    sc->body = bodyBlock({sc->n}, {sc->index}, [&] {
      std::vector<ExpP> r{toLong(elementAt(is, {iv}).e)};
      auto ls = leaves(elementAt(vs, {iv}), at);
      r.insert(r.end(), ls.begin(), ls.end());
      return r;
    });
    std::vector<ExpP> arrs;
    for (auto &d : dest.arrs) {
      int o = newVar("scat", d->type);
      sc->outs.push_back(o);
      arrs.push_back(varExp(mod, o));
    }
    sc->span = at;
    emit(sc);
    return arrayFromVars(dest.type, arrs);
  }
  if (name == "hist") {
    need(5);
    Val op = args[0], ne = args[1], is = args[3], vs = args[4];
    ExpP bins = bindScalar("bins", maxL(toLong(scalarOf(*this, args[2], at)), constLong(0)));
    zipCheck(is, vs);
    TypeP et = elemTypeOf(vs.type);
    std::vector<ScalarKind> ks;
    typeLeaves(et, ks);
    auto h = std::make_shared<Hist>();
    h->bins = bins;
    h->n = extent(is, 0, at);
    h->index = newVar("i", L1());
    ExpP iv = varExp(h->index, L1());
    h->body = bodyBlock({h->n}, {h->index}, [&] {
      std::vector<ExpP> r{toLong(elementAt(is, {iv}).e)};
      auto ls = leaves(elementAt(vs, {iv}), at);
      r.insert(r.end(), ls.begin(), ls.end());
      return r;
    });
    h->op = makeLambda(*this, ks, funcOp(*this, op, et, at));
    h->ne = leaves(ne, at);
    std::vector<ExpP> arrs;
    for (auto k : ks) {
      int o = newVar("hist", arrayT(k, 1));
      h->outs.push_back(o);
      arrs.push_back(varExp(mod, o));
    }
    h->span = at;
    emit(h);
    return arrayFromVars(rt ? rt : vs.type, arrs);
  }
  auto sortBy = [&](const Val &keys, const Val &vals) {
    Val k = materialize(keys, at), v = materialize(vals, at);
    auto s = std::make_shared<Sort>();
    s->keys = k.arrs.at(0);
    s->values = v.arrs;
    int ko = newVar("keys", k.arrs[0]->type);
    s->outs.push_back(ko);
    std::vector<ExpP> arrs;
    for (auto &a : v.arrs) {
      int o = newVar("sorted", a->type);
      s->outs.push_back(o);
      arrs.push_back(varExp(mod, o));
    }
    s->span = at;
    emit(s);
    return std::make_pair(arrayFromVars(k.type, {varExp(mod, ko)}), arrayFromVars(v.type, arrs));
  };
  if (name == "sort") {
    need(1);
    Val k = materialize(args[0], at);
    if (k.arrs.size() != 1) error(at, "sort needs an array of scalars (use sort_by)");
    auto s = std::make_shared<Sort>();
    s->keys = k.arrs[0];
    int o = newVar("sorted", k.arrs[0]->type);
    s->outs = {o};
    s->span = at;
    emit(s);
    return arrayFromVars(k.type, {varExp(mod, o)});
  }
  if (name == "sort_by") {
    need(2);
    // (a key running a loop whose state varies in size: the keys made by a
    // Map first, whose body can lift it; the sort's cannot)
    Val keys = mapVal(args[0], {args[1]}, at, nullptr);
    if (keys.type && fnNeedsLift(args[0], {elemTypeOf(args[1].type)}, elemTypeOf(keys.type), at))
      keys = materialize(keys, at);
    return sortBy(keys, args[1]).second;
  }
  if (name == "segmented_scan" || name == "segmented_reduce") {
    need(4);
    Val op = args[0], ne = args[1], flags = args[2], xs = args[3];
    zipCheck(flags, xs);
    TypeP et = elemTypeOf(xs.type);
    std::vector<ScalarKind> ks;
    typeLeaves(et, ks);
    bool scan = name == "segmented_scan";
    StmtP st;
    auto fill = [&](auto &x) {
      x.n = extent(xs, 0, at);
      x.index = newVar("i", L1());
      ExpP iv = varExp(x.index, L1());
      x.op = makeLambda(*this, ks, funcOp(*this, op, et, at));
      x.ne = leaves(ne, at);
      x.body = bodyBlock({x.n}, {x.index}, [&] {
        ExpP flag = elementAt(flags, {iv}).e;
        std::vector<ExpP> r{flag};
        ExpP start = binaryExp(BinOp::Or, binaryExp(BinOp::Eq, iv, constLong(0)), flag);
        auto ls = segmentStart(start, leaves(elementAt(xs, {iv}), at), x.op, x.ne, op, et, at);
        r.insert(r.end(), ls.begin(), ls.end());
        return r;
      });
    };
    if (scan) { auto x = std::make_shared<SegScan>(); fill(*x); st = x; }
    else { auto x = std::make_shared<SegReduce>(); fill(*x); st = x; }
    std::vector<ExpP> arrs;
    for (auto k : ks) {
      int o = newVar(scan ? "sscan" : "sred", arrayT(k, 1));
      st->outs.push_back(o);
      arrs.push_back(varExp(mod, o));
    }
    st->span = at;
    emit(st);
    return arrayFromVars(rt ? rt : xs.type, arrs);
  }
  if (name == "reduce_by_key") {
    need(4);
    Val op = args[0], ne = args[1], keys = args[2], vs = args[3];
    zipCheck(keys, vs);
    TypeP et = elemTypeOf(vs.type);
    std::vector<ScalarKind> ks;
    typeLeaves(et, ks);
    // The sort plan: stable sort by key, a segmented reduce of each run of
    // equal keys, a filter of the runs' keys. Results: keys, then values.
    auto sortPlan = [&](const Val &keysV) {
      auto sorted = sortBy(keysV, vs);
      ExpP kArr = sorted.first.arrs[0];
      Val sv = sorted.second;
      auto flagAt = [&](const ExpP &iv) {
        ExpP prev = selectExp(binaryExp(BinOp::Gt, iv, constLong(0)), subL(iv, constLong(1)), constLong(0));
        return binaryExp(BinOp::Or, binaryExp(BinOp::Eq, iv, constLong(0)),
                         binaryExp(BinOp::Ne, readExp(kArr, {iv}), readExp(kArr, {prev})));
      };
      auto sr = std::make_shared<SegReduce>();
      sr->n = shapeExp(kArr, 0);
      sr->index = newVar("i", L1());
      ExpP iv = varExp(sr->index, L1());
      sr->op = makeLambda(*this, ks, funcOp(*this, op, et, at));
      sr->ne = leaves(ne, at);
      sr->body = bodyBlock({sr->n}, {sr->index}, [&] {
        ExpP start = flagAt(iv);
        std::vector<ExpP> r{start};
        auto ls = segmentStart(start, leaves(elementAt(sv, {iv}), at), sr->op, sr->ne, op, et, at);
        r.insert(r.end(), ls.begin(), ls.end());
        return r;
      });
      std::vector<ExpP> out;
      for (auto k : ks) sr->outs.push_back(newVar("vals", arrayT(k, 1)));
      emit(sr);
      auto f = std::make_shared<Filter>();
      f->n = shapeExp(kArr, 0);
      f->index = newVar("i", L1());
      ExpP fv = varExp(f->index, L1());
      f->body.results = {flagAt(fv), readExp(kArr, {fv})};
      int ko = newVar("keys", kArr->type);
      f->outs = {ko};
      emit(f);
      out.push_back(varExp(mod, ko));
      for (int o : sr->outs) out.push_back(varExp(mod, o));
      return out;
    };
    auto result = [&](const std::vector<ExpP> &r) {
      std::vector<ExpP> vals(r.begin() + 1, r.end());
      return Val::tuple({arrayFromVars(keys.type, {r[0]}), arrayFromVars(vs.type, vals)}, rt);
    };
    // Integer keys, an operator that a histogram applies in any order
    // (component-wise +, *, min, max) and no bool values: where the keys
    // span fewer than max(n, 4096) values and at most the device's
    // group_by_hist_bins(), one histogram of counts and values over
    // [min key, max key] and a filter of the bins that have elements,
    // instead of the sort (LowerGroupByHist.cpp, docs/lowering.md).
    Lambda opL = makeLambda(*this, ks, funcOp(*this, op, et, at));
    TypeP kt = elemTypeOf(keys.type);
    if (!kt || !kt->isScalar() || !groupsByHist(kt->scalar, opL, ks)) return result(sortPlan(keys));
    Val kv = materialize(keys, at);
    ExpP kArr = kv.arrs.at(0);
    ExpP n = bindScalar("n", shapeExp(kArr, 0));
    auto cols = [&] {
      GroupCols g;
      g.n = n;
      g.key = [kArr](const ExpP &i) { return readExp(kArr, {i}); };
      g.values = [this, vs, at](const ExpP &i) { return leaves(elementAt(vs, {i}), at); };
      return g;
    };
    return result(groupByHist(cols, cols, n, nullptr, kt->scalar, opL, leaves(ne, at), ks,
                              [&] { return sortPlan(kv); }, at));
  }
  error(at, "unsupported intrinsic '" + name + "'");
}

} // namespace arrc::lower
