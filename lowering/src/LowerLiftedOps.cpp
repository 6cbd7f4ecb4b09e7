// SOACs whose operator runs a loop with array state of varying size
// (`reduce(\a b -> a + length(loop (w = [b]) … w ++ w), 0, xs)`): the
// operator cannot run inside a kernel (its loop needs memory sized at run
// time), so the SOAC takes its sequential definition, a loop over the
// elements whose body applies the operator. At host level that is a host
// Loop (the operator's own loop a host loop inside it); inside a body, a
// loop lifted out of it (LowerNested.cpp), the operator's loop lifted out of
// that loop's body. Correct, not fast: one step per element (docs/lowering.md,
// "Lifted operators").
#include "Lower.h"

namespace arrc::lower {

static Type L1() { return scalarT(ScalarKind::Long); }
static const char *opWhy = "its operator runs a loop whose state varies in size (no kernel can hold it), so the elements "
                           "are folded in order, one per iteration";
static TypeP longT() { return arrc::Type::scalarOf(ScalarKind::Long); }

bool Lowerer::fnNeedsLift(const Val &f, const std::vector<TypeP> &argTypes, const TypeP &rt, const Span &at) {
  // (inside another probe: that probe decides; inside a lifted loop's
  // probe the lifted form only exposes what it reads)
  if (liftProbe || f.kind != Val::Func) return false;
  for (auto &t : argTypes)
    if (!t) return false;
  return meetsUnliftableLoop([&] {
    std::vector<Val> args;
    for (auto &t : argTypes) {
      std::vector<ScalarKind> ks;
      typeLeaves(t, ks);
      std::vector<ExpP> xs;
      for (auto k : ks) xs.push_back(varExp(newVar("a", scalarT(k)), scalarT(k)));
      size_t p = 0;
      args.push_back(rebuild(t, xs, p));
    }
    leaves(apply(f, args, at, rt), at);
  });
}

Val Lowerer::loopFold(const TypeP &st, const Val &init, const ExpP &n,
                      const std::function<Val(const Val &state, const ExpP &t)> &step, const Span &at,
                      const std::string &what, const std::string &why) {
  if (!device) {
    // A host Loop: its body is host code, where the operator's loop is a
    // host loop too.
    auto loop = std::make_shared<Loop>();
    loop->form = Loop::For;
    loop->init = leaves(init, at);
    std::vector<ExpP> params;
    for (auto &x : loop->init) {
      int p = newVar("s", x->type);
      loop->params.push_back(p);
      params.push_back(varExp(p, x->type));
    }
    loop->count = toLong(n);
    loop->index = newVar("t", L1());
    loop->body = subBlock(false, [&] {
      size_t pos = 0;
      Val r = step(rebuild(st, params, pos), varExp(loop->index, L1()));
      auto rs = leaves(r, at);
      if (rs.size() != params.size()) error(at, "internal: " + what + " state changes shape");
      return rs;
    });
    std::vector<ExpP> outs;
    for (auto &x : loop->init) {
      int o = newVar("s", x->type);
      loop->outs.push_back(o);
      outs.push_back(varExp(o, x->type));
    }
    loop->span = at;
    loop->note = what + " " + locString(sources, at) + ": " + why + " (a host loop)";
    emit(loop);
    size_t pos = 0;
    return rebuild(st, outs, pos);
  }
  LiftSpec sp;
  sp.st = st;
  sp.isFor = true;
  sp.span = sp.initSpan = sp.bodySpan = at;
  sp.what = what;
  sp.why = why + " (a loop lifted out of the body)";
  ExpP nb = bindScalar("n", toLong(n));
  sp.bound = [nb] { return Val::scalar(nb, longT()); };
  auto acc = std::make_shared<Val>();
  auto tt = std::make_shared<ExpP>();
  sp.bindState = [acc, tt](const Val &s, const ExpP &t, const Val &) {
    *acc = s;
    *tt = t;
  };
  sp.body = [this, acc, tt, step] { return step(*acc, bindScalar("t", toLong(*tt))); };
  Val out;
  liftLoop(sp, init, out);
  return out;
}

ExpP Lowerer::sumLong(const Val &arr, const Span &at) {
  if (device)
    return foldSeq(arr, {constLong(0)}, [](const std::vector<ExpP> &acc, const Val &x) {
      return std::vector<ExpP>{addL(acc[0], x.e)};
    }, at)[0];
  auto r = std::make_shared<Reduce>();
  r->n = extent(arr, 0, at);
  r->index = newVar("i", L1());
  ExpP iv = varExp(r->index, L1());
  r->body = bodyBlock({r->n}, {r->index}, [&] { return leaves(elementAt(arr, {iv}), at); });
  int x = newVar("x", L1()), y = newVar("y", L1());
  r->op.params = {x, y};
  r->op.body = subBlock(true, [&] { return std::vector<ExpP>{addL(varExp(x, L1()), varExp(y, L1()))}; });
  r->ne = {constLong(0)};
  int o = newVar("red", L1());
  r->outs = {o};
  r->note = "count";
  r->span = at;
  emit(r);
  return varExp(o, L1());
}

Val Lowerer::setElement(const Val &arr, const ExpP &i, const std::vector<ExpP> &v, const Span &at) {
  TypeP et = elemTypeOf(arr.type);
  return mkDelayed(arr.type, {extent(arr, 0, at)}, [this, arr, i, v, et, at](const std::vector<ExpP> &j) {
    auto old = leaves(elementAt(arr, j), at);
    ExpP here = binaryExp(BinOp::Eq, toLong(j[0]), i);
    std::vector<ExpP> r;
    for (size_t k = 0; k < v.size(); ++k) r.push_back(selectExp(here, v[k], old.at(k)));
    size_t p = 0;
    return rebuild(et, r, p);
  });
}

// ---- the sequential definitions

namespace {
struct LiftedOps {
  Lowerer &L;
  Span at;

  Val item(const Val &xs, const ExpP &t) { return L.elementAt(xs, {t}); }
  std::vector<ExpP> bound(const Val &v) {
    std::vector<ExpP> r;
    for (auto &x : L.leaves(v, at)) r.push_back(L.bindScalar("x", x));
    return r;
  }
  Val pick(const TypeP &t, const ExpP &c, const Val &a, const Val &b) {
    auto la = L.leaves(a, at), lb = L.leaves(b, at);
    std::vector<ExpP> r;
    for (size_t k = 0; k < la.size(); ++k) r.push_back(selectExp(c, la[k], lb[k]));
    size_t p = 0;
    return L.rebuild(t, r, p);
  }
  Val with(const Val &arr, const ExpP &i, const std::vector<ExpP> &v) { return L.setElement(arr, i, v, at); }
  Val filled(const TypeP &arrT, const ExpP &n, const Val &v) {
    return mkDelayed(arrT, {n}, [v](const std::vector<ExpP> &) { return v; });
  }
  Val indexable(const Val &v) { return v.kind == Val::Seq ? L.indexable(v, at) : v; }
  void sameLength(const ExpP &na, const ExpP &nb, const std::string &what) {
    if (L.device) {
      L.bindScalar("zipok", L.deviceGuard(binaryExp(BinOp::Eq, na, nb), L.position(at), Check::ZipSize, {na, nb}, what));
      return;
    }
    auto ch = std::make_shared<Check>();
    ch->code = Check::ZipSize;
    ch->cond = binaryExp(BinOp::Eq, na, nb);
    ch->pos = L.position(at);
    ch->values = {na, nb};
    ch->message = what;
    L.emit(ch);
  }
  // The first n elements of arr.
  Val prefix(const Val &arr, const ExpP &n) {
    Val a = arr;
    if (a.kind == Val::Array) a = L.toDelayed(a);
    a.dims = {n};
    return a;
  }

  Val reduce(const Val &op, const Val &ne, const Val &xs0, const TypeP &et) {
    Val xs = indexable(xs0);
    ExpP n = L.extent(xs, 0, at);
    return L.loopFold(et, ne, n, [this, op, xs, et](const Val &acc, const ExpP &t) {
      return L.apply(op, {acc, item(xs, t)}, at, et);
    }, at, "reduce", opWhy);
  }

  // Inclusive scan; segmented when flags is given (a run restarts from ne
  // where flags[t] holds).
  Val scan(const Val &op, const Val &ne, const Val *flags0, const Val &xs0, const TypeP &et) {
    Val xs = indexable(xs0);
    ExpP n = L.bindScalar("n", toLong(L.extent(xs, 0, at)));
    Val flags;
    if (flags0) {
      flags = indexable(*flags0);
      sameLength(toLong(L.extent(flags, 0, at)), n, operandsOf("segmented_scan"));
    }
    TypeP arrT = arrc::Type::array(et, 1);
    TypeP st = arrc::Type::tuple({et, arrT});
    Val init = Val::tuple({ne, filled(arrT, n, ne)}, st);
    Val r = L.loopFold(st, init, n, [this, op, ne, xs, flags, flags0, et, st](const Val &s, const ExpP &t) {
      Val acc = s.elems.at(0);
      if (flags0) acc = pick(et, item(flags, t).e, ne, acc);
      auto a = bound(L.apply(op, {acc, item(xs, t)}, at, et));
      size_t p = 0;
      Val av = L.rebuild(et, a, p);
      return Val::tuple({av, with(s.elems.at(1), t, a)}, st);
    }, at, flags0 ? "segmented_scan" : "scan", opWhy);
    return r.elems.at(1);
  }

  // One reduction per run (a run starts at 0 and where start(t) holds), in
  // order: the runs' count and an array of length n whose first count
  // elements are the results.
  struct Runs {
    ExpP count;
    Val values;
  };
  Runs runs(const Val &op, const Val &ne, const ExpP &n, const TypeP &et, const std::function<ExpP(const ExpP &)> &start,
            const std::function<Val(const ExpP &)> &value) {
    TypeP arrT = arrc::Type::array(et, 1);
    TypeP st = arrc::Type::tuple({longT(), et, arrT});
    Val s0 = Val::tuple({Val::scalar(constLong(0), longT()), ne, filled(arrT, n, ne)}, st);
    Val r = L.loopFold(st, s0, n, [this, op, ne, et, st, start, value](const Val &s, const ExpP &t) {
      ExpP st0 = L.bindScalar("start", binaryExp(BinOp::Or, binaryExp(BinOp::Eq, t, constLong(0)), start(t)));
      ExpP cnt = L.bindScalar("runs", addL(s.elems.at(0).e, selectExp(st0, constLong(1), constLong(0))));
      Val acc = pick(et, st0, ne, s.elems.at(1));
      auto a = bound(L.apply(op, {acc, value(t)}, at, et));
      size_t p = 0;
      Val av = L.rebuild(et, a, p);
      return Val::tuple({Val::scalar(cnt, longT()), av, with(s.elems.at(2), subL(cnt, constLong(1)), a)}, st);
    }, at, "segmented_reduce", opWhy);
    Runs out;
    out.count = L.bindScalar("runs", r.elems.at(0).e);
    out.values = prefix(r.elems.at(2), out.count);
    return out;
  }

  Val segReduce(const Val &op, const Val &ne, const Val &flags0, const Val &xs0, const TypeP &et) {
    Val xs = indexable(xs0), flags = indexable(flags0);
    ExpP n = L.bindScalar("n", toLong(L.extent(xs, 0, at)));
    sameLength(toLong(L.extent(flags, 0, at)), n, operandsOf("segmented_reduce"));
    auto rs = runs(op, ne, n, et, [this, flags](const ExpP &t) { return item(flags, t).e; },
                   [this, xs](const ExpP &t) { return item(xs, t); });
    return L.device ? rs.values : L.materialize(rs.values, at);
  }

  Val hist(const Val &op, const Val &ne, const Val &bins, const Val &is0, const Val &vs0, const TypeP &et) {
    Val is = indexable(is0), vs = indexable(vs0);
    ExpP n = L.bindScalar("n", toLong(L.extent(is, 0, at)));
    sameLength(n, toLong(L.extent(vs, 0, at)), operandsOf("hist"));
    ExpP nb = L.bindScalar("bins", toLong(bins.e));
    TypeP arrT = arrc::Type::array(et, 1);
    // (no bins: nothing to fold, and no bin to read)
    ExpP steps = L.bindScalar("n", selectExp(binaryExp(BinOp::Gt, nb, constLong(0)), n, constLong(0)));
    ExpP nz = L.bindScalar("bins", selectExp(binaryExp(BinOp::Gt, nb, constLong(0)), nb, constLong(0)));
    Val h = L.loopFold(arrT, filled(arrT, nz, ne), steps, [this, op, ne, is, vs, nz, et](const Val &h, const ExpP &t) {
      ExpP k = L.bindScalar("bin", toLong(item(is, t).e));
      ExpP in = L.bindScalar("inrange", binaryExp(BinOp::And, binaryExp(BinOp::Ge, k, constLong(0)),
                                                  binaryExp(BinOp::Lt, k, nz)));
      ExpP kc = L.bindScalar("bin", selectExp(in, k, constLong(0)));
      // the operator runs only for bins in range (it may check bounds)
      auto v = L.stepWhere(in, L.leaves(ne, at), [&] {
        return L.leaves(L.apply(op, {L.elementAt(h, {kc}), item(vs, t)}, at, et), at);
      });
      size_t p = 0;
      return with(h, selectExp(in, kc, constLong(-1)), bound(L.rebuild(et, v, p)));
    }, at, "hist", opWhy);
    return L.device ? h : L.materialize(h, at);
  }

  // reduce_by_key: distinct keys kept sorted in the state (an insertion per
  // element), each key's values folded in input order.
  Val reduceByKey(const Val &op, const Val &ne, const Val &ks0, const Val &vs0, const TypeP &kt, const TypeP &et,
                  const TypeP &rt) {
    Val ks = indexable(ks0), vs = indexable(vs0);
    ExpP n = L.bindScalar("n", toLong(L.extent(ks, 0, at)));
    sameLength(n, toLong(L.extent(vs, 0, at)), operandsOf("reduce_by_key"));
    TypeP arrK = arrc::Type::array(kt, 1), arrV = arrc::Type::array(et, 1);
    TypeP st = arrc::Type::tuple({longT(), arrK, arrV});
    Val k0 = Val::scalar(constZero(kt->scalar), kt);
    Val init = Val::tuple({Val::scalar(constLong(0), longT()), filled(arrK, n, k0), filled(arrV, n, ne)}, st);
    Val r = L.loopFold(st, init, n, [this, op, ne, ks, vs, kt, et, st](const Val &s, const ExpP &t) {
      ExpP m = s.elems.at(0).e;
      Val keys = s.elems.at(1), vals = s.elems.at(2);
      ExpP k = L.bindScalar("key", item(ks, t).e);
      // j: how many stored keys are smaller (the key's slot)
      Val less = mkDelayed(arrc::Type::array(longT(), 1), {m}, [this, keys, k](const std::vector<ExpP> &i) {
        return Val::scalar(selectExp(binaryExp(BinOp::Lt, L.elementAt(keys, i).e, k), constLong(1), constLong(0)),
                           longT());
      });
      ExpP j = L.bindScalar("slot", L.sumLong(less, at));
      ExpP jc = L.bindScalar("slot", selectExp(binaryExp(BinOp::Lt, j, m), j, constLong(0)));
      ExpP found = L.bindScalar("found", binaryExp(BinOp::And, binaryExp(BinOp::Lt, j, m),
                                                   binaryExp(BinOp::Eq, L.elementAt(keys, {jc}).e, k)));
      Val acc = pick(et, found, L.elementAt(vals, {jc}), ne);
      auto a = bound(L.apply(op, {acc, item(vs, t)}, at, et));
      ExpP m2 = L.bindScalar("keys", addL(m, selectExp(found, constLong(0), constLong(1))));
      // found: vals[j] = a; else both shift right from j and take (k, a) at j
      Lowerer *Lp = &L;
      Span w = at;
      auto shifted = [Lp, j, found, w](const Val &arr, const std::vector<ExpP> &v) {
        TypeP et = elemTypeOf(arr.type);
        return mkDelayed(arr.type, {Lp->extent(arr, 0, w)}, [Lp, arr, j, found, v, et, w](const std::vector<ExpP> &i) {
          ExpP i0 = toLong(i[0]);
          ExpP after = binaryExp(BinOp::And, binaryExp(BinOp::Gt, i0, j), binaryExp(BinOp::Eq, found, constBool(false)));
          ExpP from = selectExp(after, subL(i0, constLong(1)), i0);
          auto old = Lp->leaves(Lp->elementAt(arr, {from}), w);
          ExpP here = binaryExp(BinOp::Eq, i0, j);
          std::vector<ExpP> r;
          for (size_t q = 0; q < v.size(); ++q) r.push_back(selectExp(here, v[q], old.at(q)));
          size_t p = 0;
          return Lp->rebuild(et, r, p);
        });
      };
      return Val::tuple({Val::scalar(m2, longT()), shifted(keys, {k}), shifted(vals, a)}, st);
    }, at, "reduce_by_key", opWhy);
    ExpP m = L.bindScalar("keys", r.elems.at(0).e);
    Val uk = prefix(r.elems.at(1), m), uv = prefix(r.elems.at(2), m);
    if (!L.device) uk = L.materialize(uk, at), uv = L.materialize(uv, at);
    return Val::tuple({uk, uv}, rt);
  }
};
} // namespace

bool Lowerer::liftedOperator(const std::string &name, const std::vector<Val> &args, const Span &at, const TypeP &rt,
                             Val &out) {
  // (operator, neutral element, arity) of the SOACs that take an operator
  size_t arity = 0, opAt = 0, neAt = 1;
  if (name == "reduce" || name == "scan") arity = 3;
  else if (name == "segmented_scan" || name == "segmented_reduce" || name == "reduce_by_key") arity = 4;
  else if (name == "hist") arity = 5;
  else if (name == "expand_reduce") arity = 5, opAt = 2, neAt = 3;
  else return false;
  if (args.size() != arity) return false;
  TypeP et = args[neAt].type;
  if (!et || !fnNeedsLift(args[opAt], {et, et}, et, at)) return false;
  LiftedOps o{*this, at};
  const Val &op = args[opAt], &ne = args[neAt];
  if (name == "reduce") out = o.reduce(op, ne, args[2], et);
  else if (name == "scan") {
    out = o.scan(op, ne, nullptr, args[2], et);
    if (!device) out = materialize(out, at);
  } else if (name == "segmented_scan") {
    out = o.scan(op, ne, &args[2], args[3], et);
    if (!device) out = materialize(out, at);
  } else if (name == "segmented_reduce") out = o.segReduce(op, ne, args[2], args[3], et);
  else if (name == "hist") {
    if (args[2].kind != Val::Scalar) error(at, "'hist' expects a scalar number of bins");
    out = o.hist(op, ne, args[2], args[3], args[4], et);
  } else if (name == "reduce_by_key") {
    TypeP kt = elemTypeOf(args[2].type);
    if (!kt || !kt->isScalar()) return false;
    out = o.reduceByKey(op, ne, args[2], args[3], kt, et, rt);
  } else {
    // expand_reduce(sz, get, op, ne, xs): per x, the reduction of
    // get(x, 0), …, get(x, sz(x) - 1), by a loop over the xs around a loop
    // over each x's elements.
    Val xs = args[4].kind == Val::Seq ? indexable(args[4], at) : args[4];
    ExpP n = bindScalar("n", toLong(extent(xs, 0, at)));
    TypeP arrT = arrc::Type::array(et, 1);
    Val sz = args[0], get = args[1];
    Val r = loopFold(arrT, o.filled(arrT, n, ne), n, [this, &o, xs, sz, get, op, ne, et, at](const Val &acc, const ExpP &t) {
      Val x = elementAt(xs, {t});
      Val s = apply(sz, {x}, at);
      ExpP m = bindScalar("m", toLong(s.e));
      m = bindScalar("m", selectExp(binaryExp(BinOp::Gt, m, constLong(0)), m, constLong(0)));
      ScalarKind ik = s.e->type.elem;
      Val red = loopFold(et, ne, m, [this, x, get, op, et, ik, at](const Val &a, const ExpP &i) {
        Val iv = Val::scalar(convertExp(i, ik), arrc::Type::scalarOf(ik));
        return apply(op, {a, apply(get, {x, iv}, at)}, at, et);
      }, at, "expand_reduce", opWhy);
      return o.with(acc, t, o.bound(red));
    }, at, "expand_reduce", opWhy);
    out = device ? r : materialize(r, at);
  }
  return true;
}

Val Lowerer::liftQualifiers(const std::vector<Qualifier> &qs0, const Val &src00, const ExprP &head, const TypeP &rt,
                            const Span &at) {
  // The rest of the comprehension for one element of qs[0], as source:
  // its lets, then `out ++ [head | qs[i..]]` from the next generator or
  // filter on (or `out ++ [head]`). Its loops that must be
  // lifted read the loop's state and index, so they are lifted out of its body.
  const std::string outName = "out'", srcName = "src'"; // not source names
  auto mk = [&](auto node) {
    node->span = at;
    node->type = rt;
    madeExprs.push_back(node);
    return node;
  };
  // Filters before the next generator are applied to qs[0]'s elements first
  // (`x <- xs, c(x), y <- …` loops over `[x | x <- xs, c(x)]`, whose
  // condition, if it runs such a loop, a lifted loop computes as flags), so
  // no generator's source is lowered inside a fold of the lifted loop's body.
  std::vector<Qualifier> qs = qs0;
  Val srcv = src00;
  size_t nextBind = 1;
  while (nextBind < qs.size() && qs[nextBind].kind != Qualifier::Bind) ++nextBind;
  bool filters = false;
  for (size_t i = 1; i < nextBind; ++i) filters = filters || qs[i].kind == Qualifier::Filter;
  if (filters) {
    std::function<ExprP(const Pattern &)> patExpr = [&](const Pattern &p) -> ExprP {
      if (p.kind == Pattern::Var) {
        auto v = std::make_shared<arrc::VarRef>();
        v->name = p.name, v->ref = arrc::VarRef::Ref::Local, v->span = p.span, v->type = p.type;
        madeExprs.push_back(v);
        return p.type && p.type->isScalar() ? v : nullptr;
      }
      if (p.kind == Pattern::Wildcard) {
        if (!p.type || !p.type->isScalar()) return nullptr;
        ExprP z;
        if (isFloatKind(p.type->scalar)) z = std::make_shared<arrc::FloatLit>();
        else if (p.type->scalar == ScalarKind::Bool) z = std::make_shared<arrc::BoolLit>();
        else {
          auto l = std::make_shared<arrc::IntLit>();
          l->scalar = p.type->scalar;
          z = l;
        }
        if (auto f = std::dynamic_pointer_cast<arrc::FloatLit>(z)) f->scalar = p.type->scalar, f->text = "0";
        z->span = p.span, z->type = p.type;
        madeExprs.push_back(z);
        return z;
      }
      auto t = std::make_shared<arrc::TupleExpr>();
      for (auto &e : p.elems) {
        ExprP x = patExpr(e);
        if (!x) return nullptr;
        t->elems.push_back(x);
      }
      t->span = p.span, t->type = p.type;
      madeExprs.push_back(t);
      return t->type ? t : nullptr;
    };
    if (ExprP pe = patExpr(qs[0].pattern)) {
      auto sv = std::make_shared<arrc::VarRef>();
      sv->name = srcName, sv->ref = arrc::VarRef::Ref::Local, sv->span = qs[0].span, sv->type = src00.type;
      madeExprs.push_back(sv);
      auto c = std::make_shared<arrc::Comprehension>();
      std::vector<Qualifier> pre(qs.begin(), qs.begin() + long(nextBind));
      pre[0].expr = sv;
      c->head = pe, c->branches = {pre}, c->span = qs[0].span, c->type = arrc::Type::array(pe->type, 1);
      madeExprs.push_back(c);
      bind(srcName, src00);
      srcv = lower(c);
      std::vector<Qualifier> kept{qs[0]};
      for (size_t i = 1; i < qs.size(); ++i)
        if (i >= nextBind || qs[i].kind != Qualifier::Filter) kept.push_back(qs[i]);
      qs = kept;
    }
  }
  auto outRef = [&] {
    auto v = mk(std::make_shared<arrc::VarRef>());
    v->name = outName;
    v->ref = arrc::VarRef::Ref::Local;
    return v;
  };
  auto append = [&](ExprP tail) -> ExprP {
    auto b = mk(std::make_shared<arrc::Binary>());
    b->op = BinOp::Concat;
    b->lhs = outRef();
    b->rhs = tail;
    return b;
  };
  std::function<ExprP(size_t)> rest = [&](size_t i) -> ExprP {
    if (i == qs.size()) {
      auto l = mk(std::make_shared<arrc::ArrayLit>());
      l->elems = {head};
      return append(l);
    }
    const Qualifier &q = qs[i];
    if (q.kind == Qualifier::Let) {
      auto l = mk(std::make_shared<arrc::LetIn>());
      l->pattern = q.pattern;
      l->value = q.expr;
      l->body = rest(i + 1);
      return l;
    }
    std::vector<Qualifier> tail(qs.begin() + long(i), qs.end());
    if (q.kind == Qualifier::Filter) {
      // `c, …` becomes `_ <- [0..<(if c then 1 else 0)], …`: no array-valued
      // `if` (whose branches a body re-lowers where nothing can be lifted)
      TypeP intT = arrc::Type::scalarOf(ScalarKind::Int);
      auto lit = [&](int64_t v) {
        auto l = std::make_shared<arrc::IntLit>();
        l->value = v;
        l->span = q.span;
        l->type = intT;
        madeExprs.push_back(l);
        return l;
      };
      auto one = std::make_shared<arrc::If>();
      one->cond = q.expr, one->then = lit(1), one->els = lit(0), one->span = q.span, one->type = intT;
      auto r = std::make_shared<arrc::Range>();
      r->lo = lit(0), r->hi = one, r->span = q.span, r->type = arrc::Type::array(intT, 1);
      madeExprs.push_back(one);
      madeExprs.push_back(r);
      Qualifier g;
      g.kind = Qualifier::Bind;
      g.pattern.kind = Pattern::Wildcard;
      g.pattern.span = q.span;
      g.pattern.type = intT;
      g.expr = r;
      g.span = q.span;
      tail[0] = g;
    }
    auto c = mk(std::make_shared<arrc::Comprehension>());
    c->head = head;
    c->branches = {tail};
    return append(c);
  };
  ExprP body = rest(1);
  Val src0 = srcv.kind == Val::Seq ? indexable(srcv, at) : srcv;
  ExpP n = extent(src0, 0, at);
  std::vector<ScalarKind> ks;
  typeLeaves(rt->elem, ks);
  TypeP et = rt->elem;
  Val empty = mkDelayed(rt, {constLong(0)}, [this, ks, et](const std::vector<ExpP> &) {
    std::vector<ExpP> z;
    for (auto k : ks) z.push_back(constZero(k));
    size_t p = 0;
    return rebuild(et, z, p);
  });
  const Pattern *pat = &qs0[0].pattern;
  Env here = env;
  return loopFold(rt, empty, n, [this, src0, pat, body, here, outName, at](const Val &out, const ExpP &t) {
    Env saved = env;
    env = here;
    bind(outName, out);
    Val x = src0.rank() > 1 ? toDelayed(src0) : src0;
    if (src0.rank() > 1) {
      Val row = x;
      row.type = elemTypeOf(src0.type);
      row.dims.erase(row.dims.begin());
      FetchFn f = x.fetch;
      row.fetch = [f, t](const std::vector<ExpP> &i) {
        std::vector<ExpP> full{t};
        full.insert(full.end(), i.begin(), i.end());
        return f(full);
      };
      bindPattern(*pat, row, true);
    } else {
      bindPattern(*pat, elementAt(src0, {t}), true);
    }
    Val r = lower(body);
    env = saved;
    return r;
  }, at, "comprehension",
                  "a later generator's source or a filter before one runs a loop whose state varies in size and reads "
                  "an earlier variable, so the elements are made by a loop over the first generator's elements, each "
                  "appending its part");
}

} // namespace arrc::lower
