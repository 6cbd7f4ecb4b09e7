// Multiarrays (Moreira et al.): every array is (buffer, shape, weights).
// Indexing is a Read; sections, transpose and reverse are View statements
// (weight arithmetic, no copy); `new`, literals, ranges and `with`.
#include "Lower.h"

namespace arrc::lower {

static ExpP L(const Val &v) { return toLong(v.e); }

Val Lowerer::lowerRange(const arrc::Range &e) {
  Val lo = lower(e.lo), hi = lower(e.hi);
  if (lo.kind != Val::Scalar || hi.kind != Val::Scalar) error(e.span, "unsupported range bounds");
  ExpP l = bindScalar("lo", lo.e), h = bindScalar("hi", hi.e);
  ExpP n = subL(toLong(h), toLong(l));
  if (e.inclusive) n = addL(n, constLong(1));
  n = maxL(n, constLong(0));
  if (!device) n = bindScalar("n", n);
  Val d;
  d.kind = Val::Delayed;
  d.type = e.type ? e.type : arrc::Type::array(lo.type, 1);
  d.dims = {n};
  ScalarKind k = lo.e->type.elem;
  TypeP et = lo.type;
  d.fetch = [l, k, et](const std::vector<ExpP> &idx) {
    ExpP i = convertExp(idx[0], k);
    int64_t c;
    if (constValue(l, c) && c == 0) return Val::scalar(i, et);
    return Val::scalar(binaryExp(BinOp::Add, l, i), et);
  };
  return d;
}

namespace {
struct AxisPlan {
  IndexArg::Kind kind;
  ExpP i;           // Single
  ExpP f, s, cnt;   // Triplet / All (f = 0, s = 1)
};
} // namespace

static std::vector<AxisPlan> planSection(Lowerer &Lw, const Val &a, const std::vector<IndexArg> &args, const Span &at,
                                         bool emitChecks) {
  std::vector<AxisPlan> plan;
  int pos = Lw.position(at);
  for (size_t k = 0; k < args.size(); ++k) {
    const IndexArg &ia = args[k];
    AxisPlan p;
    p.kind = ia.kind;
    ExpP n = Lw.extent(a, int(k), at);
    if (ia.kind == IndexArg::Single) {
      p.i = toLong(Lw.lower(ia.index).e);
      if (!emitChecks && Lw.device) {
        p.i = Lw.bindScalar("ix", p.i);
        ExpP ok = binaryExp(BinOp::And, binaryExp(BinOp::Ge, p.i, constLong(0)), binaryExp(BinOp::Lt, p.i, n));
        p.i = Lw.bindScalar("ix", addL(p.i, Lw.deviceGuard(ok, pos, Check::Bounds, {p.i, n, constLong(int64_t(k))})));
      }
      if (emitChecks) {
        p.i = Lw.bindScalar("ix", p.i);
        auto ch = std::make_shared<Check>();
        ch->code = Check::Bounds;
        ch->cond = binaryExp(BinOp::And, binaryExp(BinOp::Ge, p.i, constLong(0)), binaryExp(BinOp::Lt, p.i, n));
        ch->pos = pos;
        ch->values = {p.i, n, constLong(int64_t(k))};
        ch->span = ia.span;
        Lw.emit(ch);
      }
    } else if (ia.kind == IndexArg::All) {
      p.f = constLong(0);
      p.s = constLong(1);
      p.cnt = n;
    } else {
      p.f = toLong(Lw.lower(ia.first).e);
      ExpP l = toLong(Lw.lower(ia.last).e);
      p.s = ia.step ? toLong(Lw.lower(ia.step).e) : constLong(1);
      if (!Lw.device) {
        p.f = Lw.bindScalar("f", p.f);
        l = Lw.bindScalar("l", l);
        p.s = Lw.bindScalar("s", p.s);
      }
      int64_t sc;
      bool constStep = constValue(p.s, sc);
      if (emitChecks && !(constStep && sc != 0)) {
        auto ch = std::make_shared<Check>();
        ch->code = Check::Other;
        ch->cond = binaryExp(BinOp::Ne, p.s, constLong(0));
        ch->pos = pos;
        ch->message = "section step is zero";
        Lw.emit(ch);
      }
      ExpP d = subL(l, p.f);
      ExpP ok;
      if (constStep && sc > 0) ok = binaryExp(BinOp::Ge, d, constLong(0));
      else if (constStep && sc < 0) ok = binaryExp(BinOp::Le, d, constLong(0));
      else ok = binaryExp(BinOp::Ge, mulL(d, p.s), constLong(0));
      ExpP s1 = p.s;
      if (!(constStep && sc != 0)) s1 = selectExp(binaryExp(BinOp::Eq, p.s, constLong(0)), constLong(1), p.s);
      p.cnt = selectExp(ok, addL(binaryExp(BinOp::Div, d, s1), constLong(1)), constLong(0));
      if (constStep && sc == 1) p.cnt = maxL(addL(d, constLong(1)), constLong(0));
      if (!Lw.device) p.cnt = Lw.bindScalar("cnt", p.cnt);
      if (!emitChecks && Lw.device) {
        // In-body section check: first and last touched index in range.
        p.f = Lw.bindScalar("f", p.f);
        p.s = Lw.bindScalar("s", p.s);
        ExpP cnt = Lw.bindScalar("cnt", p.cnt);
        ExpP last = addL(p.f, mulL(subL(cnt, constLong(1)), p.s));
        auto inr = [&](ExpP x) {
          return binaryExp(BinOp::And, binaryExp(BinOp::Ge, x, constLong(0)), binaryExp(BinOp::Lt, x, n));
        };
        ExpP ok = binaryExp(BinOp::And, binaryExp(BinOp::Ne, p.s, constLong(0)),
                            binaryExp(BinOp::Or, binaryExp(BinOp::Eq, cnt, constLong(0)),
                                      binaryExp(BinOp::And, inr(p.f), inr(last))));
        p.cnt = Lw.bindScalar("cnt", addL(cnt, Lw.deviceGuard(ok, pos, Check::Bounds)));
      }
      if (emitChecks) {
        ExpP last = addL(p.f, mulL(subL(p.cnt, constLong(1)), p.s));
        auto inr = [&](ExpP x) {
          return binaryExp(BinOp::And, binaryExp(BinOp::Ge, x, constLong(0)), binaryExp(BinOp::Lt, x, n));
        };
        auto ch = std::make_shared<Check>();
        ch->code = Check::Bounds;
        ch->cond = binaryExp(BinOp::Or, binaryExp(BinOp::Eq, p.cnt, constLong(0)),
                             binaryExp(BinOp::And, inr(p.f), inr(last)));
        ch->pos = pos;
        ch->values = {selectExp(inr(p.f), last, p.f), n, constLong(int64_t(k))};
        ch->message = "section";
        ch->span = ia.span;
        Lw.emit(ch);
      }
    }
    plan.push_back(p);
  }
  return plan;
}

// Composes a section over a Delayed array (device code, ranges).
static Val delayedSection(Lowerer &Lw, const Val &a, const std::vector<AxisPlan> &plan, const TypeP &t, int checkPos) {
  Val base = a;
  if (base.kind == Val::Array) {
    Val arr = a;
    base = Lw.toDelayed(a);
    base.fetch = [&Lw, arr, checkPos](const std::vector<ExpP> &idx) { return Lw.elementAt(arr, idx, checkPos); };
  }
  Val d;
  d.kind = Val::Delayed;
  d.type = t;
  for (auto &p : plan)
    if (p.kind != IndexArg::Single) d.dims.push_back(p.cnt);
  FetchFn f = base.fetch;
  d.fetch = [f, plan](const std::vector<ExpP> &idx) {
    std::vector<ExpP> full;
    size_t j = 0;
    for (auto &p : plan) {
      if (p.kind == IndexArg::Single) full.push_back(p.i);
      else full.push_back(addL(p.f, mulL(idx[j++], p.s)));
    }
    return f(full);
  };
  return d;
}

ExpP Lowerer::checkedIndex(const ExpP &index, const ExpP &extent, int axis, int pos) {
  ExpP ix = bindScalar("ix", index);
  ExpP ok = binaryExp(BinOp::And, binaryExp(BinOp::Ge, ix, constLong(0)), binaryExp(BinOp::Lt, ix, extent));
  std::vector<ExpP> values{ix, extent, constLong(axis)};
  if (device) return bindScalar("ix", addL(ix, deviceGuard(ok, pos, Check::Bounds, values)));
  auto ch = std::make_shared<Check>();
  ch->code = Check::Bounds;
  ch->cond = ok;
  ch->pos = pos;
  ch->values = values;
  emit(ch);
  return ix;
}

Val Lowerer::lowerIndex(const arrc::Index &e) {
  Val a = lower(e.array);
  if (!a.isArrayLike()) error(e.span, "indexing a value that is not an array");
  if (int(e.args.size()) != a.rank())
    error(e.span, "expected " + std::to_string(a.rank()) + " subscripts, got " + std::to_string(e.args.size()));
  if (a.kind == Val::Seq) a = indexable(a, e.span);
  int pos = position(e.span);
  if (!e.isSection()) {
    std::vector<ExpP> idx;
    for (auto &ia : e.args) {
      Val i = lower(ia.index);
      if (i.kind != Val::Scalar) error(ia.span, "index is not a scalar");
      idx.push_back(L(i));
    }
    if (a.kind == Val::Delayed) {
      // Indexing a computed array: check the bounds against its extents
      // (in a body: an in-body guard folded into the index).
      for (size_t k = 0; k < idx.size(); ++k) idx[k] = checkedIndex(idx[k], a.dims[k], int(k), pos);
      return a.fetch(idx);
    }
    return elementAt(a, idx, pos);
  }
  TypeP t = e.type;
  int outRank = 0;
  for (auto &ia : e.args) outRank += ia.kind != IndexArg::Single;
  if (!t || !t->isArray()) t = arrc::Type::array(a.type->elem, outRank);
  auto plan = planSection(*this, a, e.args, e.span, !device);
  if (device || a.kind == Val::Delayed) return delayedSection(*this, a, plan, t, pos);
  // Host: a View per component (weight arithmetic, no copy).
  std::vector<ExpP> arrs;
  for (auto &src : a.arrs) {
    auto v = std::make_shared<View>();
    v->source = src;
    ExpP off = weightExp(src, a.rank());
    for (size_t k = 0; k < plan.size(); ++k) {
      ExpP w = weightExp(src, int(k));
      if (plan[k].kind == IndexArg::Single) off = addL(off, mulL(plan[k].i, w));
      else {
        v->shape.push_back(plan[k].cnt);
        v->weights.push_back(mulL(plan[k].s, w));
        off = addL(off, mulL(plan[k].f, w));
      }
    }
    v->weights.push_back(off);
    int o = newVar("sec", arrayT(src->type.elem, outRank));
    v->outs = {o};
    v->span = e.span;
    v->note = "section " + locString(sources, e.span);
    emit(v);
    arrs.push_back(varExp(mod, o));
  }
  return arrayFromVars(t, arrs);
}

Val Lowerer::transposeVal(const Val &a, const Span &at) {
  int r = a.rank();
  if (a.kind == Val::Array && !device) {
    std::vector<ExpP> arrs;
    for (auto &src : a.arrs) {
      auto v = std::make_shared<View>();
      v->source = src;
      for (int k = r - 1; k >= 0; --k) {
        v->shape.push_back(shapeExp(src, k));
        v->weights.push_back(weightExp(src, k));
      }
      v->weights.push_back(weightExp(src, r));
      int o = newVar("tr", src->type);
      v->outs = {o};
      v->span = at;
      v->note = "transpose " + locString(sources, at);
      emit(v);
      arrs.push_back(varExp(mod, o));
    }
    return arrayFromVars(a.type, arrs);
  }
  Val d = toDelayed(a.kind == Val::Seq ? indexable(a, at) : a);
  Val t = d;
  t.dims.assign(d.dims.rbegin(), d.dims.rend());
  FetchFn f = d.fetch;
  t.fetch = [f](const std::vector<ExpP> &idx) { return f(std::vector<ExpP>(idx.rbegin(), idx.rend())); };
  return t;
}

Val Lowerer::reverseVal(const Val &a, const Span &at) {
  int r = a.rank();
  if (a.kind == Val::Array && !device) {
    std::vector<ExpP> arrs;
    for (auto &src : a.arrs) {
      auto v = std::make_shared<View>();
      v->source = src;
      for (int k = 0; k < r; ++k) {
        v->shape.push_back(shapeExp(src, k));
        v->weights.push_back(k == 0 ? binaryExp(BinOp::Sub, constLong(0), weightExp(src, 0)) : weightExp(src, k));
      }
      v->weights.push_back(addL(weightExp(src, r), mulL(subL(shapeExp(src, 0), constLong(1)), weightExp(src, 0))));
      int o = newVar("rev", src->type);
      v->outs = {o};
      v->span = at;
      v->note = "reverse " + locString(sources, at);
      emit(v);
      arrs.push_back(varExp(mod, o));
    }
    return arrayFromVars(a.type, arrs);
  }
  Val d = toDelayed(a.kind == Val::Seq ? indexable(a, at) : a);
  Val t = d;
  FetchFn f = d.fetch;
  ExpP n = d.dims[0];
  t.fetch = [f, n](const std::vector<ExpP> &idx) {
    auto j = idx;
    j[0] = subL(subL(n, constLong(1)), idx[0]);
    return f(j);
  };
  return t;
}

Val Lowerer::viewOf(const Val &a, const TypeP &t, std::vector<ExpP> shape,
                    const std::function<std::vector<ExpP>(const ExpP &)> &weights, const Span &at) {
  Val m = materialize(a, at);
  std::vector<ExpP> arrs;
  for (auto &src : m.arrs) {
    auto v = std::make_shared<View>();
    v->source = src;
    v->shape = shape;
    v->weights = weights(src);
    int o = newVar("view", arrayT(src->type.elem, int(shape.size())));
    v->outs = {o};
    v->span = at;
    emit(v);
    arrs.push_back(varExp(mod, o));
  }
  return arrayFromVars(t, arrs);
}

Val Lowerer::lowerNew(const arrc::New &e) {
  if (device) {
    // Inside a body: a Delayed array of zeros (no storage).
    std::vector<ExpP> dims;
    ExpP ok = constBool(true);
    for (auto &d : e.dims) {
      Val v = lower(d);
      ExpP n = bindScalar("n", toLong(v.e));
      ok = binaryExp(BinOp::And, ok, binaryExp(BinOp::Ge, n, constLong(0)));
      dims.push_back(n);
    }
    ExpP g = bindScalar("newok", deviceGuard(ok, position(e.span), Check::Other));
    for (auto &d : dims) d = addL(d, g);
    TypeP t = e.type ? e.type : arrc::Type::array(e.elemType, int(dims.size()));
    Val z;
    z.kind = Val::Delayed;
    z.type = t;
    z.dims = dims;
    z.fetch = [this, t](const std::vector<ExpP> &) { return defaultOf(t->elem); };
    return z;
  }
  std::vector<ExpP> dims;
  for (auto &d : e.dims) {
    Val v = lower(d);
    dims.push_back(bindScalar("n", toLong(v.e)));
    // a negative extent: a positioned error (not the runtime's allocation's)
    auto ch = std::make_shared<Check>();
    ch->code = Check::Negative;
    ch->cond = binaryExp(BinOp::Ge, dims.back(), constLong(0));
    ch->pos = position(d->span);
    ch->values = {dims.back()};
    ch->span = d->span;
    emit(ch);
  }
  TypeP t = e.type ? e.type : arrc::Type::array(e.elemType, int(dims.size()));
  std::vector<ScalarKind> ks;
  typeLeaves(t->elem, ks);
  std::vector<ExpP> arrs;
  for (auto k : ks) {
    auto a = std::make_shared<Alloc>();
    a->dims = dims;
    a->zero = true;
    int o = newVar("new", arrayT(k, int(dims.size())));
    a->outs = {o};
    a->span = e.span;
    emit(a);
    arrs.push_back(varExp(mod, o));
  }
  return arrayFromVars(t, arrs);
}

static void gatherLit(const Expr &e, int depth, std::vector<int64_t> &shape, std::vector<const Expr *> &leavesOut,
                      Lowerer &Lw) {
  auto &lit = static_cast<const ArrayLit &>(e);
  if (int(shape.size()) <= depth) shape.push_back(int64_t(lit.elems.size()));
  else if (shape[depth] != int64_t(lit.elems.size())) Lw.error(e.span, "array literal is not rectangular");
  for (auto &x : lit.elems) {
    if (x->kind == ExprKind::ArrayLit && x->type && x->type->isArray()) gatherLit(*x, depth + 1, shape, leavesOut, Lw);
    else leavesOut.push_back(x.get());
  }
}

// [a, b, ...] whose elements are arrays (not literals): a rank r+d array
// whose item k (over the literal's own d axes) is the k-th element; the
// elements' shapes must be equal (a Shape check, or an in-body guard).
Val Lowerer::arrayLitOfArrays(const arrc::ArrayLit &e, const std::vector<int64_t> &shape,
                              const std::vector<const Expr *> &items) {
  TypeP t = e.type;
  std::vector<Val> els;
  for (auto *it : items) {
    Val v = lower(std::shared_ptr<Expr>(std::shared_ptr<Expr>{}, const_cast<Expr *>(it)));
    if (v.kind == Val::Seq) v = indexable(v, it->span);
    if (!v.isArrayLike()) error(it->span, "internal: array literal element is not an array");
    els.push_back(v.kind == Val::Array ? toDelayed(v) : v);
  }
  int r = els[0].rank();
  std::vector<ExpP> inner;
  for (int k = 0; k < r; ++k) inner.push_back(bindScalar("n", extent(els[0], k, e.span)));
  int pos = position(e.span);
  for (size_t q = 1; q < els.size(); ++q) {
    ExpP ok = constBool(true);
    std::vector<ExpP> vals;
    for (int k = 0; k < r; ++k) {
      ExpP nk = extent(els[q], k, e.span);
      ok = binaryExp(BinOp::And, ok, binaryExp(BinOp::Eq, inner[k], nk));
      vals.push_back(inner[k]);
      vals.push_back(nk);
    }
    if (device) {
      ExpP g = bindScalar("shapeok", deviceGuard(ok, pos, Check::Shape, vals));
      for (auto &d : inner) d = bindScalar("n", addL(d, g));
    } else {
      auto ch = std::make_shared<Check>();
      ch->code = Check::Shape;
      ch->cond = ok;
      ch->pos = pos;
      ch->values = vals;
      ch->span = e.span;
      emit(ch);
    }
  }
  Val d;
  d.kind = Val::Delayed;
  d.type = t;
  for (auto s : shape) d.dims.push_back(constLong(s));
  d.dims.insert(d.dims.end(), inner.begin(), inner.end());
  size_t outer = shape.size();
  d.fetch = [this, els, shape, outer, t](const std::vector<ExpP> &idx) {
    ExpP flat = constLong(0);
    for (size_t k = 0; k < outer; ++k) flat = addL(mulL(flat, constLong(shape[k])), idx[k]);
    flat = bindScalar("item", flat);
    std::vector<ExpP> rest(idx.begin() + long(outer), idx.end());
    // item k: an If chain, so that only the chosen element is evaluated
    std::function<std::vector<ExpP>(size_t)> pick = [&](size_t k) -> std::vector<ExpP> {
      if (k + 1 == els.size()) return leaves(els[k].fetch(rest), {});
      auto st = std::make_shared<If>();
      st->cond = binaryExp(BinOp::Eq, flat, constLong(int64_t(k)));
      st->thenB = condBlock(st->cond, [&] { return leaves(els[k].fetch(rest), {}); });
      st->elseB = condBlock(unaryExp(UnOp::Not, st->cond), [&] { return pick(k + 1); });
      std::vector<ExpP> rs;
      for (auto &x : st->thenB.results) {
        int o = newVar("el", x->type);
        st->outs.push_back(o);
        rs.push_back(varExp(o, x->type));
      }
      emit(st);
      return rs;
    };
    auto ls = pick(0);
    size_t p = 0;
    return rebuild(t->elem, ls, p);
  };
  if (device) return d;
  return materialize(d, e.span);
}

// Nested literals all the way down to scalars ([[1, 2], [3, x]]).
static bool pureLit(const Expr &e) {
  auto &lit = static_cast<const ArrayLit &>(e);
  for (auto &x : lit.elems) {
    if (x->kind == ExprKind::ArrayLit && x->type && x->type->isArray()) {
      if (!pureLit(*x)) return false;
    } else if (x->type && x->type->isArray()) {
      return false;
    }
  }
  return true;
}

Val Lowerer::lowerArrayLit(const arrc::ArrayLit &e) {
  std::vector<int64_t> shape;
  std::vector<const Expr *> items;
  if (!pureLit(e)) {
    // elements that are arrays: items of the outer axis only
    shape = {int64_t(e.elems.size())};
    for (auto &x : e.elems) items.push_back(x.get());
    return arrayLitOfArrays(e, shape, items);
  }
  gatherLit(e, 0, shape, items, *this);
  TypeP t = e.type;
  if (!t || !t->isArray()) error(e.span, "internal: array literal without a type");
  std::vector<ScalarKind> ks;
  typeLeaves(t->elem, ks);
  std::vector<std::vector<ExpP>> comps(ks.size());
  bool allConst = true;
  if (!items.empty() && items[0]->type && items[0]->type->isArray()) return arrayLitOfArrays(e, shape, items);
  for (auto *it : items) {
    Val v = lower(std::shared_ptr<Expr>(std::shared_ptr<Expr>{}, const_cast<Expr *>(it)));
    if (v.isArrayLike()) error(it->span, "internal: an array in an array literal of scalars");
    auto ls = leaves(v, it->span);
    for (size_t k = 0; k < ks.size(); ++k) {
      ExpP x = device ? ls.at(k) : bindScalar("el", ls.at(k));
      allConst = allConst && isConst(x);
      comps[k].push_back(x);
    }
  }
  if (allConst && !device) {
    std::vector<ExpP> arrs;
    for (size_t k = 0; k < ks.size(); ++k) {
      auto l = std::make_shared<Literal>();
      l->shape = shape;
      for (auto &x : comps[k]) {
        if (isFloatKind(ks[k])) l->fvals.push_back(x->fval);
        else l->ivals.push_back(x->ival);
      }
      int o = newVar("lit", arrayT(ks[k], int(shape.size())));
      l->outs = {o};
      l->span = e.span;
      emit(l);
      arrs.push_back(varExp(mod, o));
    }
    return arrayFromVars(t, arrs);
  }
  Val d;
  d.kind = Val::Delayed;
  d.type = t;
  for (auto s : shape) d.dims.push_back(constLong(s));
  d.fetch = [comps, shape, t, this](const std::vector<ExpP> &idx) {
    ExpP flat = constLong(0);
    for (size_t k = 0; k < idx.size(); ++k) flat = addL(mulL(flat, constLong(shape[k])), idx[k]);
    std::vector<ExpP> ls;
    for (auto &c : comps) {
      if (c.empty()) { ls.push_back(constZero(ScalarKind::Int)); continue; }
      ExpP r = c.back();
      for (int64_t j = int64_t(c.size()) - 2; j >= 0; --j)
        r = selectExp(binaryExp(BinOp::Eq, flat, constLong(j)), c[j], r);
      ls.push_back(r);
    }
    size_t pos = 0;
    return rebuild(t->elem, ls, pos);
  };
  if (device) return d;
  return materialize(d, e.span);
}

Val Lowerer::lowerWith(const arrc::With &e) {
  // Inside a body the result is a Delayed array (old element or new value
  // per index; no storage) with in-body guards for the indices and shapes.
  Val a = lower(e.array);
  if (!a.isArrayLike()) error(e.span, "`with` on a value that is not an array");
  if (a.kind == Val::Seq) a = indexable(a, e.span);
  if (int(e.args.size()) != a.rank()) error(e.span, "wrong number of subscripts in `with`");
  auto plan = planSection(*this, a, e.args, e.span, !device);
  Val v = lower(e.value);
  bool section = false;
  for (auto &p : plan) section = section || p.kind != IndexArg::Single;
  if (!section && v.kind == Val::Scalar) v = Val::scalar(bindScalar("v", v.e), v.type);
  if (section && v.isArrayLike() && device) {
    if (v.kind == Val::Seq) v = indexable(v, e.value->span);
    ExpP ok = constBool(true);
    int j = 0;
    for (auto &p : plan) {
      if (p.kind == IndexArg::Single) continue;
      ok = binaryExp(BinOp::And, ok, binaryExp(BinOp::Eq, p.cnt, extent(v, j++, e.span)));
    }
    ExpP g = bindScalar("shapeok", deviceGuard(ok, position(e.span), Check::Shape));
    for (auto &p : plan)
      if (p.kind != IndexArg::Single) p.cnt = addL(p.cnt, g);
  } else if (section && v.isArrayLike()) {
    v = materialize(v, e.value->span);
    // The value's shape must equal the section's.
    ExpP ok = constBool(true);
    auto ch = std::make_shared<Check>();
    int j = 0;
    for (auto &p : plan) {
      if (p.kind == IndexArg::Single) continue;
      ExpP ext = extent(v, j++, e.span);
      ok = binaryExp(BinOp::And, ok, binaryExp(BinOp::Eq, p.cnt, ext));
      ch->values.push_back(p.cnt);
      ch->values.push_back(ext);
    }
    ch->code = Check::Shape;
    ch->cond = ok;
    ch->pos = position(e.span);
    ch->span = e.span;
    emit(ch);
  }
  Val src = a.kind == Val::Array || device ? a : materialize(a, e.span);
  Val d;
  d.kind = Val::Delayed;
  d.type = e.type ? e.type : a.type;
  for (int k = 0; k < a.rank(); ++k) d.dims.push_back(extent(src, k, e.span));
  d.fetch = [this, src, v, plan, section, at = e.span](const std::vector<ExpP> &idx) {
    ExpP in = constBool(true);
    std::vector<ExpP> vidx;
    for (size_t k = 0; k < plan.size(); ++k) {
      const AxisPlan &p = plan[k];
      if (p.kind == IndexArg::Single) {
        in = binaryExp(BinOp::And, in, binaryExp(BinOp::Eq, idx[k], p.i));
      } else if (p.kind == IndexArg::All) {
        vidx.push_back(idx[k]);
      } else {
        ExpP dd = bindScalar("d", subL(idx[k], p.f));
        ExpP s1 = selectExp(binaryExp(BinOp::Eq, p.s, constLong(0)), constLong(1), p.s);
        ExpP q = bindScalar("q", binaryExp(BinOp::Div, dd, s1));
        in = binaryExp(BinOp::And, in, binaryExp(BinOp::Eq, binaryExp(BinOp::Mod, dd, s1), constLong(0)));
        in = binaryExp(BinOp::And, in, binaryExp(BinOp::Ge, q, constLong(0)));
        in = binaryExp(BinOp::And, in, binaryExp(BinOp::Lt, q, p.cnt));
        vidx.push_back(q);
      }
    }
    Val old = elementAt(src, idx);
    auto oldL = leaves(old, at);
    if (!section || !v.isArrayLike()) {
      auto nv = leaves(v, at);
      std::vector<ExpP> rs;
      for (size_t k = 0; k < oldL.size(); ++k) rs.push_back(selectExp(in, nv[k], oldL[k]));
      size_t pos = 0;
      return rebuild(src.type->elem, rs, pos);
    }
    auto s = std::make_shared<If>();
    s->cond = bindScalar("in", in);
    s->thenB = condBlock(s->cond, [&] { return leaves(elementAt(v, vidx), at); });
    s->elseB.results = oldL;
    std::vector<ExpP> rs;
    for (auto &r : oldL) {
      int o = newVar("w", r->type);
      s->outs.push_back(o);
      rs.push_back(varExp(o, r->type));
    }
    emit(s);
    size_t pos = 0;
    return rebuild(src.type->elem, rs, pos);
  };
  if (device) return d;
  Val r = materialize(d, e.span);
  return r;
}

} // namespace arrc::lower
