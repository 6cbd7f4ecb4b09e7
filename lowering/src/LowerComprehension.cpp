// Comprehensions by flattening-by-expansion (Elsman & Larsen, Fig. 2-3):
// the first binding is the source array; each further binding is
//  - regular (Size independent of the bound variables): one more dimension of
//    a map nest (one Map, or one Filter over the flattened product);
//  - irregular with Size/Fetch: an Expand over the context materialised so far;
//  - otherwise: the general fallback (count per element, exclusive scan, fill
//    with an Alloc and a for-each Map whose body Loops and Writes).
// Filters become Filter (stable compaction), zips lock-step with a ZipSize
// Check, `let` qualifiers extend the context. Inside a SOAC body everything
// becomes sequential code (Loops folding the elements).
#include "Lower.h"

#include <map>

namespace arrc::lower {

static void patNames(const Pattern &p, std::set<std::string> &out) {
  if (p.kind == Pattern::Var) out.insert(p.name);
  for (auto &e : p.elems) patNames(e, out);
}

static const VarRef *calleeRef(const Expr &e, const char *name) {
  if (e.kind != ExprKind::Call) return nullptr;
  auto &c = static_cast<const arrc::Call &>(e);
  if (c.callee->kind != ExprKind::Var) return nullptr;
  auto &r = static_cast<const VarRef &>(*c.callee);
  if (r.ref == VarRef::Ref::Local || r.ref == VarRef::Ref::Param) return nullptr;
  return r.name == name ? &r : nullptr;
}

// Size dependencies (Fig. 3, extended): the variables the *size* of the
// array e depends on.
static void sizeDeps(const ExprP &e, std::set<std::string> &out) {
  switch (e->kind) {
  case ExprKind::Range: {
    auto &r = static_cast<const Range &>(*e);
    freeVars(r.lo, out);
    freeVars(r.hi, out);
    return;
  }
  case ExprKind::Call: {
    auto &c = static_cast<const arrc::Call &>(*e);
    if ((calleeRef(*e, "iota") || calleeRef(*e, "replicate")) && !c.args.empty()) return freeVars(c.args[0], out);
    if ((calleeRef(*e, "map") && c.args.size() >= 2)) return sizeDeps(c.args[1], out);
    if ((calleeRef(*e, "zip") || calleeRef(*e, "reverse")) && !c.args.empty()) return sizeDeps(c.args[0], out);
    break;
  }
  case ExprKind::Comprehension: {
    auto &c = static_cast<const arrc::Comprehension &>(*e);
    if (c.branches.size() == 1 && !c.branches[0].empty() && c.branches[0][0].kind == Qualifier::Bind) {
      bool simple = true;
      for (size_t i = 1; i < c.branches[0].size(); ++i) simple = simple && c.branches[0][i].kind == Qualifier::Let;
      if (simple) return sizeDeps(c.branches[0][0].expr, out);
    }
    break;
  }
  case ExprKind::Index: {
    auto &x = static_cast<const Index &>(*e);
    freeVars(x.array, out);
    for (auto &a : x.args) {
      freeVars(a.first, out);
      freeVars(a.last, out);
      freeVars(a.step, out);
    }
    return;
  }
  default: break;
  }
  freeVars(e, out);
}

namespace {
struct Level {
  enum Kind { Gen, Let, Filter } kind;
  const Qualifier *q;
  int dim = -1;          // Gen: its dimension
  bool hasHost = false;  // Gen: source lowered once at host level
  Val host;
};

struct Space {
  Span at;
  std::string where;                     // "comprehension L:C"
  bool hasBase = false;
  std::vector<std::pair<std::string, Val>> base; // name -> rank-1 column(s)
  std::vector<ExpP> dims;                // dims[0] = base length when hasBase
  std::vector<Level> levels;
  bool hasFilter = false;
  std::set<std::string> bound;
  Env env;                               // the environment outside the comprehension
  // Generator variables bound to rows of a host array (rank >= 2): their
  // columns hold the row index, rebinding the row from the source.
  std::map<std::string, Val> rowSrc;
  // Generator variables bound to rows of a source that depends on earlier
  // variables (`r <- f(x)` of rank >= 2): their columns hold the row index;
  // each body re-lowers the source (earlier variables bound) and takes the row.
  std::map<std::string, std::pair<const Qualifier *, TypeP>> rowExpr;
};
} // namespace

static ExpP product(const std::vector<ExpP> &dims) {
  ExpP p = constLong(1);
  for (auto &d : dims) p = mulL(p, d);
  return p;
}

// Decodes a flat index into the product space (row-major).
static std::vector<ExpP> decode(Lowerer &Lw, const ExpP &flat, const std::vector<ExpP> &dims) {
  std::vector<ExpP> idx(dims.size());
  ExpP k = flat;
  for (int d = int(dims.size()) - 1; d >= 0; --d) {
    if (d == 0) idx[0] = k;
    else {
      idx[d] = Lw.bindScalar("i", binaryExp(BinOp::Mod, k, dims[d]));
      k = Lw.bindScalar("q", binaryExp(BinOp::Div, k, dims[d]));
    }
  }
  return idx;
}

static Val itemOf(Lowerer &Lw, const Val &src, const ExpP &i) {
  if (src.rank() <= 1) return Lw.elementAt(src, {i});
  Val d = Lw.toDelayed(src);
  Val r;
  r.kind = Val::Delayed;
  r.type = elemTypeOf(src.type);
  r.dims.assign(d.dims.begin() + 1, d.dims.end());
  FetchFn f = d.fetch;
  r.fetch = [f, i](const std::vector<ExpP> &idx) {
    std::vector<ExpP> full{i};
    full.insert(full.end(), idx.begin(), idx.end());
    return f(full);
  };
  return r;
}

// In the current (device) block: binds the point idx of the space and runs
// the levels from `from`; returns [keep, final...] (keep only if withKeep).
static std::vector<ExpP> runLevels(Lowerer &Lw, Space &sp, const std::vector<ExpP> &idx, size_t from,
                                   const std::function<std::vector<ExpP>()> &final, bool withKeep) {
  if (from == 0) {
    Lw.env = sp.env;
    if (sp.hasBase)
      for (auto &b : sp.base) {
        auto rx = sp.rowExpr.find(b.first);
        if (rx != sp.rowExpr.end()) {
          ExpP r = Lw.bindScalar("row", readExp(b.second.arrs.at(0), {idx[0]}));
          Val src = Lw.lower(rx->second.first->expr);
          if (src.kind == Val::Seq) src = Lw.indexable(src, rx->second.first->span);
          Val v = itemOf(Lw, src, r);
          v.rowIdx = r;
          v.rowSrc = std::make_shared<Val>(src);
          Lw.bind(b.first, v);
          continue;
        }
        auto rs = sp.rowSrc.find(b.first);
        if (rs == sp.rowSrc.end()) {
          Lw.bind(b.first, Lw.elementAt(b.second, {idx[0]}));
          continue;
        }
        ExpP r = Lw.bindScalar("row", readExp(b.second.arrs.at(0), {idx[0]}));
        Val v = itemOf(Lw, rs->second, r);
        v.rowIdx = r;
        v.rowSrc = std::make_shared<Val>(rs->second);
        Lw.bind(b.first, v);
      }
  }
  for (size_t l = from; l < sp.levels.size(); ++l) {
    Level &lv = sp.levels[l];
    if (lv.kind == Level::Gen) {
      Val src = lv.hasHost ? lv.host : Lw.lower(lv.q->expr);
      if (src.kind == Val::Seq) src = Lw.indexable(src, lv.q->span);
      if (!src.isArrayLike())
        Lw.error(lv.q->span, "internal: generator source is not indexable");
      Val item = itemOf(Lw, src, idx.at(lv.dim));
      if (lv.hasHost && src.rank() > 1) {
        item.rowIdx = idx.at(lv.dim);
        item.rowSrc = std::make_shared<Val>(src);
      }
      Lw.bindPattern(lv.q->pattern, item, true);
    } else if (lv.kind == Level::Let) {
      Lw.bindPattern(lv.q->pattern, Lw.lower(lv.q->expr), true);
    } else {
      Val c = Lw.lower(lv.q->expr);
      auto s = std::make_shared<If>();
      s->cond = c.e;
      Block *saved = Lw.cur;
      Env savedEnv = Lw.env;
      s->thenB = Lw.condBlock(s->cond, [&] {
        Lw.env = savedEnv;
        return runLevels(Lw, sp, idx, l + 1, final, withKeep);
      });
      Lw.cur = saved;
      for (auto &r : s->thenB.results) {
        s->elseB.results.push_back(constZero(r->type.elem));
        int o = Lw.newVar("f", r->type);
        s->outs.push_back(o);
      }
      if (withKeep) s->elseB.results[0] = constBool(false);
      std::vector<ExpP> rs;
      for (int o : s->outs) rs.push_back(varExp(Lw.mod, o));
      Lw.emit(s);
      return rs;
    }
  }
  auto r = final();
  if (withKeep) r.insert(r.begin(), constBool(true));
  return r;
}

// Names bound by generators (and the base), with their types, in order.
static std::vector<std::pair<std::string, TypeP>> genVars(Space &sp) {
  std::vector<std::pair<std::string, TypeP>> out;
  for (auto &b : sp.base) {
    auto rs = sp.rowSrc.find(b.first);
    auto rx = sp.rowExpr.find(b.first);
    if (rx != sp.rowExpr.end()) out.push_back({b.first, rx->second.second});
    else out.push_back({b.first, elemTypeOf(rs == sp.rowSrc.end() ? b.second.type : rs->second.type)});
  }
  std::function<void(const Pattern &)> rec = [&](const Pattern &p) {
    if (p.kind == Pattern::Var) out.push_back({p.name, p.type});
    for (auto &e : p.elems) rec(e);
  };
  for (auto &l : sp.levels)
    if (l.kind == Level::Gen) rec(l.q->pattern);
  return out;
}

// Row generators (`row <- A`, A of rank >= 2 lowered at host level) of the
// space so far: they get a column of row indices instead of the row.
static void collectRows(Space &sp) {
  for (auto &l : sp.levels)
    if (l.kind == Level::Gen && l.hasHost && l.host.rank() > 1 && l.q->pattern.kind == Pattern::Var)
      sp.rowSrc[l.q->pattern.name] = l.host;
}
static void colKinds(const Space &sp, const std::pair<std::string, TypeP> &v, std::vector<ScalarKind> &ks) {
  if (sp.rowSrc.count(v.first) || sp.rowExpr.count(v.first)) ks.push_back(ScalarKind::Long);
  else typeLeaves(v.second, ks);
}
static std::vector<ExpP> colLeaves(Lowerer &Lw, const Val &x, const Span &at) {
  if (x.rowSrc && x.rowIdx) return {x.rowIdx};
  return Lw.leaves(x, at);
}
static Val baseCol(const Space &sp, const std::pair<std::string, TypeP> &v, std::vector<ExpP> cs, Lowerer &Lw) {
  if (sp.rowSrc.count(v.first) || sp.rowExpr.count(v.first))
    return Lw.arrayFromVars(arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Long), 1), cs);
  return Lw.arrayFromVars(arrc::Type::array(v.second, 1), cs);
}

// Materialises the space's generator variables into columns: the new base.
static void materializeSpace(Lowerer &Lw, Space &sp, const std::string &note) {
  if (sp.hasBase && !sp.hasFilter && sp.dims.size() == 1) {
    bool onlyLets = true;
    for (auto &l : sp.levels) onlyLets = onlyLets && l.kind == Level::Let;
    if (onlyLets) return; // already columns
  }
  collectRows(sp);
  auto vars = genVars(sp);
  for (auto &v : vars)
    if (!v.second || (v.second->isArray() && !sp.rowSrc.count(v.first) && !sp.rowExpr.count(v.first)) ||
        v.second->kind == arrc::Type::Func)
      Lw.error(sp.at, "unsupported: an irregular comprehension whose generator binds an array ('" + v.first + "')");
  auto final = [&]() {
    std::vector<ExpP> r;
    for (auto &v : vars) {
      const Val *x = Lw.lookup(v.first);
      auto ls = colLeaves(Lw, *x, sp.at);
      r.insert(r.end(), ls.begin(), ls.end());
    }
    return r;
  };
  std::vector<ExpP> cols;
  std::vector<ScalarKind> ks;
  for (auto &v : vars) colKinds(sp, v, ks);
  if (sp.hasFilter) {
    auto f = std::make_shared<Filter>();
    f->n = Lw.bindScalar("n", product(sp.dims));
    f->index = Lw.newVar("k", scalarT(ScalarKind::Long));
    f->body = Lw.bodyBlock({f->n}, {f->index}, [&] {
      auto idx = decode(Lw, varExp(f->index, scalarT(ScalarKind::Long)), sp.dims);
      return runLevels(Lw, sp, idx, 0, final, true);
    }, sp.where);
    for (auto k : ks) {
      int o = Lw.newVar("col", arrayT(k, 1));
      f->outs.push_back(o);
      cols.push_back(varExp(Lw.mod, o));
    }
    f->note = sp.where + ": " + note;
    f->span = sp.at;
    Lw.emit(f);
  } else {
    auto m = std::make_shared<Map>();
    m->dims = sp.dims;
    std::vector<ExpP> idx;
    for (size_t d = 0; d < sp.dims.size(); ++d) {
      m->index.push_back(Lw.newVar("i", scalarT(ScalarKind::Long)));
      idx.push_back(varExp(m->index.back(), scalarT(ScalarKind::Long)));
    }
    m->body = Lw.bodyBlock(m->dims, m->index, [&] { return runLevels(Lw, sp, idx, 0, final, false); }, sp.where);
    for (auto k : ks) {
      int o = Lw.newVar("col", arrayT(k, int(sp.dims.size())));
      m->outs.push_back(o);
      cols.push_back(varExp(Lw.mod, o));
    }
    m->note = sp.where + ": " + note;
    m->span = sp.at;
    Lw.emit(m);
    if (sp.dims.size() > 1) {
      ExpP n = Lw.bindScalar("n", product(sp.dims));
      for (auto &c : cols) {
        auto v = std::make_shared<View>();
        v->source = c;
        v->shape = {n};
        v->weights = {constLong(1), constLong(0)};
        int o = Lw.newVar("col", arrayT(c->type.elem, 1));
        v->outs = {o};
        Lw.emit(v);
        c = varExp(Lw.mod, o);
      }
    }
  }
  std::vector<std::pair<std::string, Val>> base;
  size_t pos = 0;
  for (auto &v : vars) {
    std::vector<ScalarKind> vk;
    colKinds(sp, v, vk);
    std::vector<ExpP> cs(cols.begin() + pos, cols.begin() + pos + vk.size());
    pos += vk.size();
    base.push_back({v.first, baseCol(sp, v, cs, Lw)});
  }
  sp.base = base;
  sp.hasBase = true;
  sp.dims = {cols.empty() ? constLong(0) : shapeExp(cols[0], 0)};
  std::vector<Level> keep;
  for (auto &l : sp.levels)
    if (l.kind == Level::Let) keep.push_back(l);
  sp.levels = keep;
  sp.hasFilter = false;
}

// Size of a generator source whose size does not depend on the bound names.
static ExpP hostSize(Lowerer &Lw, const ExprP &e) {
  switch (e->kind) {
  case ExprKind::Range: return Lw.lowerRange(static_cast<const Range &>(*e)).dims[0];
  case ExprKind::Call: {
    auto &c = static_cast<const arrc::Call &>(*e);
    if ((calleeRef(*e, "iota") || calleeRef(*e, "replicate")) && !c.args.empty())
      return Lw.bindScalar("n", toLong(Lw.lower(c.args[0]).e));
    if (calleeRef(*e, "map") && c.args.size() >= 2) return hostSize(Lw, c.args[1]);
    if ((calleeRef(*e, "zip") || calleeRef(*e, "reverse")) && !c.args.empty()) return hostSize(Lw, c.args[0]);
    break;
  }
  case ExprKind::Comprehension:
    return hostSize(Lw, static_cast<const arrc::Comprehension &>(*e).branches[0][0].expr);
  case ExprKind::Index: {
    auto &x = static_cast<const Index &>(*e);
    Val a = Lw.lower(x.array);
    for (size_t k = 0; k < x.args.size(); ++k) {
      auto &ia = x.args[k];
      if (ia.kind == IndexArg::All) return Lw.extent(a, int(k), e->span);
      if (ia.kind == IndexArg::Triplet) {
        ExpP f = toLong(Lw.lower(ia.first).e), l = toLong(Lw.lower(ia.last).e);
        ExpP s = ia.step ? toLong(Lw.lower(ia.step).e) : constLong(1);
        ExpP d = subL(l, f);
        ExpP s1 = selectExp(binaryExp(BinOp::Eq, s, constLong(0)), constLong(1), s);
        return Lw.bindScalar("n", selectExp(binaryExp(BinOp::Ge, mulL(d, s1), constLong(0)),
                                            addL(binaryExp(BinOp::Div, d, s1), constLong(1)), constLong(0)));
      }
    }
    break;
  }
  default: break;
  }
  Val v = Lw.lower(e);
  if (v.kind == Val::Seq || !v.isArrayLike()) Lw.error(e->span, "internal: size of a non-array");
  return Lw.extent(v, 0, e->span);
}

static bool intersects(const std::set<std::string> &a, const std::set<std::string> &b) {
  for (auto &x : a)
    if (b.count(x)) return true;
  return false;
}

// Processes the qualifiers of one branch into a space.
static void buildSpace(Lowerer &Lw, Space &sp, const std::vector<Qualifier> &qs) {
  for (size_t qi = 0; qi < qs.size(); ++qi) {
    const Qualifier &q = qs[qi];
    Lw.env = sp.env;
    if (q.kind == Qualifier::Filter) {
      if (qi == 0) Lw.error(q.span, "a comprehension cannot start with a filter");
      sp.levels.push_back(Level{Level::Filter, &q, -1, false, Val{}});
      sp.hasFilter = true;
      continue;
    }
    if (q.kind == Qualifier::Let) {
      if (qi == 0) Lw.error(q.span, "a comprehension cannot start with a let");
      sp.levels.push_back(Level{Level::Let, &q, -1, false, Val{}});
      patNames(q.pattern, sp.bound);
      continue;
    }
    std::set<std::string> sd, fv;
    sizeDeps(q.expr, sd);
    freeVars(q.expr, fv);
    if (qi == 0 || !intersects(sd, sp.bound)) {
      Level lv{Level::Gen, &q, -1, false, Val{}};
      lv.dim = int(sp.dims.size());
      if (qi == 0 || !intersects(fv, sp.bound)) {
        Val src = Lw.lower(q.expr);
        if (!src.isArrayLike() || src.kind == Val::Seq) Lw.error(q.expr->span, "generator source is not an array");
        lv.hasHost = true;
        lv.host = src;
        sp.dims.push_back(Lw.bindScalar("n", Lw.extent(src, 0, q.span)));
      } else {
        sp.dims.push_back(hostSize(Lw, q.expr));
      }
      sp.levels.push_back(lv);
      patNames(q.pattern, sp.bound);
      continue;
    }
    // Irregular: materialise the context, then Expand (Size/Fetch defined) or fall back.
    materializeSpace(Lw, sp, "context");
    bool hasSizeFetch = true;
    try {
      Lowerer::NoHoist nh(Lw);
      Block probe = Lw.subBlock(true, [&] {
        auto idx = std::vector<ExpP>{constLong(0)};
        runLevels(Lw, sp, idx, 0, [&] {
          Val s = Lw.lower(q.expr);
          hasSizeFetch = s.kind == Val::Delayed || s.kind == Val::Array;
          return std::vector<ExpP>{};
        }, false);
        return std::vector<ExpP>{};
      });
    } catch (const LowerError &) {
      hasSizeFetch = false;
    }
    auto vars = genVars(sp);
    std::vector<std::pair<std::string, TypeP>> newVars;
    {
      std::function<void(const Pattern &)> rec = [&](const Pattern &p) {
        if (p.kind == Pattern::Var) newVars.push_back({p.name, p.type});
        for (auto &e : p.elems) rec(e);
      };
      rec(q.pattern);
    }
    for (auto &v : newVars) {
      if (v.second && v.second->isArray() && q.pattern.kind == Pattern::Var && hasSizeFetch) {
        sp.rowExpr[v.first] = {&q, v.second}; // a row: its index is the column
        continue;
      }
      if (!v.second || v.second->isArray())
        Lw.error(q.span, "unsupported: an irregular generator binding an array that is not a row of an indexable array");
    }
    auto allLeaves = [&]() {
      std::vector<ExpP> r;
      for (auto *vs : {&vars, &newVars})
        for (auto &v : *vs) {
          const Val *x = Lw.lookup(v.first);
          if (!x) continue;
          auto ls = colLeaves(Lw, *x, q.span);
          r.insert(r.end(), ls.begin(), ls.end());
        }
      return r;
    };
    std::vector<ScalarKind> ks;
    for (auto *vs : {&vars, &newVars})
      for (auto &v : *vs) colKinds(sp, v, ks);
    std::vector<ExpP> cols;
    ExpP N = sp.dims[0];
    if (hasSizeFetch) {
      auto x = std::make_shared<Expand>();
      x->n = N;
      x->index = Lw.newVar("i", scalarT(ScalarKind::Long));
      x->inner = Lw.newVar("j", scalarT(ScalarKind::Long));
      ExpP iv = varExp(x->index, scalarT(ScalarKind::Long)), jv = varExp(x->inner, scalarT(ScalarKind::Long));
      // Both blocks run per outer element i (the body per expanded element
      // (i, j)): values of i alone may be flattened over i < n; j is local.
      Lw.deviceVars.insert(x->inner);
      x->size = Lw.bodyBlock({x->n}, {x->index}, [&] {
        return runLevels(Lw, sp, {iv}, 0, [&] {
          Val s = Lw.lower(q.expr);
          return std::vector<ExpP>{Lw.extent(s, 0, q.span)};
        }, false);
      });
      x->body = Lw.bodyBlock({x->n}, {x->index}, [&] {
        return runLevels(Lw, sp, {iv}, 0, [&] {
          Val s = Lw.lower(q.expr);
          Val item = itemOf(Lw, s, jv);
          if (s.rank() > 1) {
            item.rowIdx = jv;
            item.rowSrc = std::make_shared<Val>(s);
          }
          Lw.bindPattern(q.pattern, item, true);
          return allLeaves();
        }, false);
      });
      for (auto k : ks) {
        int o = Lw.newVar("col", arrayT(k, 1));
        x->outs.push_back(o);
        cols.push_back(varExp(Lw.mod, o));
      }
      x->note = sp.where + ": expand (generator " + locString(Lw.sources, q.span) + ")";
      x->span = q.span;
      Lw.emit(x);
    } else {
      // General fallback: count, exclusive scan, fill.
      auto cnt = std::make_shared<Map>();
      cnt->dims = {N};
      cnt->index = {Lw.newVar("i", scalarT(ScalarKind::Long))};
      ExpP iv = varExp(cnt->index[0], scalarT(ScalarKind::Long));
      cnt->body = Lw.bodyBlock(cnt->dims, cnt->index, [&] {
        return runLevels(Lw, sp, {iv}, 0, [&] {
          Val s = Lw.lower(q.expr);
          return std::vector<ExpP>{Lw.length(s, q.span)};
        }, false);
      });
      int counts = Lw.newVar("counts", arrayT(ScalarKind::Long, 1));
      cnt->outs = {counts};
      cnt->note = sp.where + ": fallback (count, scan, fill) for generator " + locString(Lw.sources, q.span);
      cnt->span = q.span;
      Lw.emit(cnt);
      ExpP cv = varExp(Lw.mod, counts);
      auto mkAdd = [&]() {
        Lambda op;
        int a = Lw.newVar("a", scalarT(ScalarKind::Long)), b = Lw.newVar("b", scalarT(ScalarKind::Long));
        op.params = {a, b};
        op.body.results = {binaryExp(BinOp::Add, varExp(a, scalarT(ScalarKind::Long)), varExp(b, scalarT(ScalarKind::Long)))};
        return op;
      };
      auto sc = std::make_shared<Scan>();
      sc->n = N;
      sc->index = Lw.newVar("i", scalarT(ScalarKind::Long));
      sc->body.results = {readExp(cv, {varExp(sc->index, scalarT(ScalarKind::Long))})};
      sc->op = mkAdd();
      sc->ne = {constLong(0)};
      sc->exclusive = true;
      int offs = Lw.newVar("offsets", arrayT(ScalarKind::Long, 1));
      sc->outs = {offs};
      Lw.emit(sc);
      auto red = std::make_shared<Reduce>();
      red->n = N;
      red->index = Lw.newVar("i", scalarT(ScalarKind::Long));
      red->body.results = {readExp(cv, {varExp(red->index, scalarT(ScalarKind::Long))})};
      red->op = mkAdd();
      red->ne = {constLong(0)};
      int total = Lw.newVar("total", scalarT(ScalarKind::Long));
      red->outs = {total};
      Lw.emit(red);
      for (auto k : ks) {
        auto al = std::make_shared<Alloc>();
        al->dims = {varExp(Lw.mod, total)};
        int o = Lw.newVar("col", arrayT(k, 1));
        al->outs = {o};
        Lw.emit(al);
        cols.push_back(varExp(Lw.mod, o));
      }
      auto fill = std::make_shared<Map>();
      fill->dims = {N};
      fill->index = {Lw.newVar("i", scalarT(ScalarKind::Long))};
      ExpP fv2 = varExp(fill->index[0], scalarT(ScalarKind::Long));
      fill->body = Lw.bodyBlock(fill->dims, fill->index, [&] {
        runLevels(Lw, sp, {fv2}, 0, [&] {
          Val s = Lw.lower(q.expr);
          Env here = Lw.env;
          ExpP start = readExp(varExp(Lw.mod, offs), {fv2});
          Lw.foldSeq(s, {start}, [&](const std::vector<ExpP> &acc, const Val &item) {
            // (the source's fold may run in its own scope, e.g. an inlined
            // function's: the generator binds in the comprehension's)
            Env inFold = Lw.env;
            Lw.env = here;
            Lw.bindPattern(q.pattern, item, true);
            auto ls = allLeaves();
            for (size_t k = 0; k < cols.size(); ++k) {
              auto w = std::make_shared<Write>();
              w->array = cols[k]->var;
              w->indices = {acc[0]};
              w->value = ls.at(k);
              Lw.emit(w);
            }
            Lw.env = inFold;
            return std::vector<ExpP>{addL(acc[0], constLong(1))};
          }, q.span);
          return std::vector<ExpP>{};
        }, false);
        return std::vector<ExpP>{};
      });
      fill->span = q.span;
      Lw.emit(fill);
    }
    // The new base: all generator variables, as columns.
    std::vector<std::pair<std::string, Val>> base;
    size_t pos = 0;
    for (auto *vs : {&vars, &newVars})
      for (auto &v : *vs) {
        std::vector<ScalarKind> vk;
        colKinds(sp, v, vk);
        std::vector<ExpP> cs(cols.begin() + pos, cols.begin() + pos + vk.size());
        pos += vk.size();
        base.push_back({v.first, baseCol(sp, v, cs, Lw)});
      }
    sp.base = base;
    sp.dims = {cols.empty() ? constLong(0) : shapeExp(cols[0], 0)};
    patNames(q.pattern, sp.bound);
  }
}

// The result of a (scalar-headed or nested) comprehension over a space.
static Val emitHead(Lowerer &Lw, Space &sp, const ExprP &head, const TypeP &resultType, const std::string &note) {
  TypeP ht = head->type;
  std::vector<ScalarKind> ks;
  typeLeaves(ht, ks);
  auto final = [&]() { return Lw.leaves(Lw.lower(head), head->span); };
  if (ht && ht->isArray()) {
    if (sp.hasFilter) materializeSpace(Lw, sp, "context");
    // Nested comprehension: the inner sizes must be the same for every element.
    std::vector<ExpP> innerDims;
    bool dependent = false;
    {
      std::vector<int> idxVars;
      std::vector<ExpP> idx;
      for (size_t d = 0; d < sp.dims.size(); ++d) {
        idxVars.push_back(Lw.newVar("i", scalarT(ScalarKind::Long)));
        idx.push_back(varExp(idxVars.back(), scalarT(ScalarKind::Long)));
      }
      Lowerer::NoHoist nh(Lw);
      Block savedDiscard = Lw.probeDiscard;
      // (a body with the space's index: a loop in the head that must be
      // lifted can be, into the discarded probe)
      Block probe = Lw.bodyBlock(sp.dims, idxVars, [&] {
        runLevels(Lw, sp, idx, 0, [&] {
          Val h = Lw.lower(head);
          if (h.kind == Val::Seq) dependent = true;
          else
            for (int k = 0; k < h.rank(); ++k) innerDims.push_back(Lw.extent(h, k, head->span));
          return std::vector<ExpP>{};
        }, false);
        return std::vector<ExpP>{};
      });
      Lw.probeDiscard = savedDiscard;
      std::set<int> defs, used;
      blockDefs(probe, defs);
      defs.insert(idxVars.begin(), idxVars.end());
      // Inline the probe's top-level Lets that do not depend on the index.
      std::map<int, ExpP> lets;
      std::function<void(const Block &)> collect = [&](const Block &b) {
        for (auto &s : b.stmts) {
          if (s->kind == StmtKind::Let) lets[s->outs[0]] = static_cast<const Let &>(*s).value;
          if (s->kind == StmtKind::If) forEachBlock(static_cast<const Stmt &>(*s), collect);
        }
      };
      collect(probe);
      for (auto &d : innerDims) {
        for (int round = 0; round < 50; ++round) {
          std::set<int> vs;
          expVars(d, vs);
          std::map<int, ExpP> sub;
          for (int v : vs)
            if (lets.count(v)) sub[v] = lets[v];
          if (sub.empty()) break;
          d = substitute(d, sub);
        }
        expVars(d, used);
      }
      for (int u : used) dependent = dependent || defs.count(u);
    }
    if (dependent) {
      // Runtime check: every inner size equal, axis by axis (code Irregular):
      // the minimum and maximum of each extent over the elements.
      const int r = ht->rank;
      ExpP N = Lw.bindScalar("n", product(sp.dims));
      auto red = std::make_shared<Reduce>();
      red->n = N;
      red->index = Lw.newVar("k", scalarT(ScalarKind::Long));
      red->body = Lw.bodyBlock({red->n}, {red->index}, [&] {
        auto idx = decode(Lw, varExp(red->index, scalarT(ScalarKind::Long)), sp.dims);
        return runLevels(Lw, sp, idx, 0, [&] {
          Val h = Lw.lower(head);
          std::vector<ExpP> ext;
          for (int k = 0; k < r; ++k) {
            ExpP n = k == 0 ? Lw.length(h, head->span) : Lw.extent(h, k, head->span);
            ext.push_back(n);
            ext.push_back(n);
          }
          return ext;
        }, false);
      });
      auto V = [&](int v) { return varExp(v, scalarT(ScalarKind::Long)); };
      std::vector<int> as, bs, mins, maxs;
      for (int k = 0; k < 2 * r; ++k) as.push_back(Lw.newVar(k % 2 ? "hi" : "lo", scalarT(ScalarKind::Long)));
      for (int k = 0; k < 2 * r; ++k) bs.push_back(Lw.newVar(k % 2 ? "hi" : "lo", scalarT(ScalarKind::Long)));
      red->op.params = as;
      red->op.params.insert(red->op.params.end(), bs.begin(), bs.end());
      for (int k = 0; k < r; ++k) {
        red->op.body.results.push_back(callExp("min", {V(as[2 * k]), V(bs[2 * k])}, ScalarKind::Long));
        red->op.body.results.push_back(callExp("max", {V(as[2 * k + 1]), V(bs[2 * k + 1])}, ScalarKind::Long));
        red->ne.push_back(constLong(INT64_MAX));
        red->ne.push_back(constLong(0));
        mins.push_back(Lw.newVar("minsz", scalarT(ScalarKind::Long)));
        maxs.push_back(Lw.newVar("maxsz", scalarT(ScalarKind::Long)));
        red->outs.push_back(mins.back());
        red->outs.push_back(maxs.back());
      }
      red->note = sp.where + ": inner sizes (runtime regularity check)";
      Lw.emit(red);
      innerDims.clear();
      for (int k = 0; k < r; ++k) {
        auto ch = std::make_shared<Check>();
        ch->code = Check::Irregular;
        ch->cond = binaryExp(BinOp::Or, binaryExp(BinOp::Eq, N, constLong(0)), binaryExp(BinOp::Eq, V(mins[k]), V(maxs[k])));
        ch->pos = Lw.position(head->span);
        ch->values = {V(mins[k]), V(maxs[k])};
        ch->span = head->span;
        Lw.emit(ch);
        innerDims.push_back(V(maxs[k]));
      }
      // Seq heads (filters inside): Alloc + for-each fill.
      bool seq = false;
      {
        Lowerer::NoHoist nh(Lw);
        Block savedDiscard = Lw.probeDiscard;
        std::vector<int> pv;
        std::vector<ExpP> idx;
        for (size_t d = 0; d < sp.dims.size(); ++d) {
          pv.push_back(Lw.newVar("i", scalarT(ScalarKind::Long)));
          idx.push_back(varExp(pv.back(), scalarT(ScalarKind::Long)));
        }
        Lw.bodyBlock(sp.dims, pv, [&] {
          runLevels(Lw, sp, idx, 0, [&] {
            seq = Lw.lower(head).kind == Val::Seq;
            return std::vector<ExpP>{};
          }, false);
          return std::vector<ExpP>{};
        });
        Lw.probeDiscard = savedDiscard;
      }
      if (seq) {
        std::vector<ExpP> arrs;
        for (auto k : ks) {
          auto al = std::make_shared<Alloc>();
          al->dims = {N, innerDims[0]};
          int o = Lw.newVar("nest", arrayT(k, 2));
          al->outs = {o};
          Lw.emit(al);
          arrs.push_back(varExp(Lw.mod, o));
        }
        auto fill = std::make_shared<Map>();
        fill->dims = {N};
        fill->index = {Lw.newVar("k", scalarT(ScalarKind::Long))};
        ExpP kv = varExp(fill->index[0], scalarT(ScalarKind::Long));
        fill->body = Lw.bodyBlock(fill->dims, fill->index, [&] {
          auto idx = decode(Lw, kv, sp.dims);
          runLevels(Lw, sp, idx, 0, [&] {
            Val h = Lw.lower(head);
            Env here = Lw.env;
            Lw.foldSeq(h, {constLong(0)}, [&](const std::vector<ExpP> &acc, const Val &item) {
              auto ls = Lw.leaves(item, head->span);
              for (size_t k = 0; k < arrs.size(); ++k) {
                auto w = std::make_shared<Write>();
                w->array = arrs[k]->var;
                w->indices = {kv, acc[0]};
                w->value = ls.at(k);
                Lw.emit(w);
              }
              Lw.env = here;
              return std::vector<ExpP>{addL(acc[0], constLong(1))};
            }, head->span);
            return std::vector<ExpP>{};
          }, false);
          return std::vector<ExpP>{};
        });
        fill->note = sp.where + ": nested map, inner size checked at run time (fill)";
        Lw.emit(fill);
        return Lw.arrayFromVars(resultType, arrs);
      }
    }
    auto m = std::make_shared<Map>();
    m->dims = sp.dims;
    m->dims.insert(m->dims.end(), innerDims.begin(), innerDims.end());
    std::vector<ExpP> idx;
    for (size_t d = 0; d < m->dims.size(); ++d) {
      m->index.push_back(Lw.newVar("i", scalarT(ScalarKind::Long)));
      idx.push_back(varExp(m->index.back(), scalarT(ScalarKind::Long)));
    }
    size_t outer = sp.dims.size();
    m->body = Lw.bodyBlock(m->dims, m->index, [&] {
      return runLevels(Lw, sp, std::vector<ExpP>(idx.begin(), idx.begin() + outer), 0, [&] {
        Val h = Lw.lower(head);
        if (h.kind == Val::Array) h = Lw.toDelayed(h);
        return Lw.leaves(h.fetch(std::vector<ExpP>(idx.begin() + outer, idx.end())), head->span);
      }, false);
    });
    std::vector<ExpP> arrs;
    for (auto k : ks) {
      int o = Lw.newVar("nest", arrayT(k, int(m->dims.size())));
      m->outs.push_back(o);
      arrs.push_back(varExp(Lw.mod, o));
    }
    m->note = sp.where + ": " + (dependent ? std::string("nested map, inner size checked at run time") : note);
    m->span = sp.at;
    Lw.emit(m);
    if (outer > 1) {
      ExpP n = Lw.bindScalar("n", product(sp.dims));
      int r = 1 + int(innerDims.size());
      for (auto &c : arrs) {
        auto v = std::make_shared<View>();
        v->source = c;
        v->shape.push_back(n);
        v->shape.insert(v->shape.end(), innerDims.begin(), innerDims.end());
        v->weights.push_back(product(innerDims));
        for (size_t k = 0; k < innerDims.size(); ++k)
          v->weights.push_back(product(std::vector<ExpP>(innerDims.begin() + k + 1, innerDims.end())));
        v->weights.push_back(constLong(0));
        int o = Lw.newVar("nest", arrayT(c->type.elem, r));
        v->outs = {o};
        Lw.emit(v);
        c = varExp(Lw.mod, o);
      }
    }
    return Lw.arrayFromVars(resultType, arrs);
  }
  std::vector<ExpP> arrs;
  if (sp.hasFilter) {
    auto f = std::make_shared<Filter>();
    f->n = Lw.bindScalar("n", product(sp.dims));
    f->index = Lw.newVar("k", scalarT(ScalarKind::Long));
    f->body = Lw.bodyBlock({f->n}, {f->index}, [&] {
      auto idx = decode(Lw, varExp(f->index, scalarT(ScalarKind::Long)), sp.dims);
      return runLevels(Lw, sp, idx, 0, final, true);
    }, sp.where);
    for (auto k : ks) {
      int o = Lw.newVar("t", arrayT(k, 1));
      f->outs.push_back(o);
      arrs.push_back(varExp(Lw.mod, o));
    }
    f->note = sp.where + ": " + note + " + filter";
    f->span = sp.at;
    Lw.emit(f);
    return Lw.arrayFromVars(resultType, arrs);
  }
  auto m = std::make_shared<Map>();
  m->dims = sp.dims;
  std::vector<ExpP> idx;
  for (size_t d = 0; d < sp.dims.size(); ++d) {
    m->index.push_back(Lw.newVar("i", scalarT(ScalarKind::Long)));
    idx.push_back(varExp(m->index.back(), scalarT(ScalarKind::Long)));
  }
  m->body = Lw.bodyBlock(m->dims, m->index, [&] { return runLevels(Lw, sp, idx, 0, final, false); }, sp.where);
  for (auto k : ks) {
    int o = Lw.newVar("t", arrayT(k, int(sp.dims.size())));
    m->outs.push_back(o);
    arrs.push_back(varExp(Lw.mod, o));
  }
  m->note = sp.where + ": " + note;
  m->span = sp.at;
  Lw.emit(m);
  if (sp.dims.size() > 1) {
    ExpP n = Lw.bindScalar("n", product(sp.dims));
    for (auto &c : arrs) {
      auto v = std::make_shared<View>();
      v->source = c;
      v->shape = {n};
      v->weights = {constLong(1), constLong(0)};
      int o = Lw.newVar("t", arrayT(c->type.elem, 1));
      v->outs = {o};
      v->note = "flatten the product space";
      Lw.emit(v);
      c = varExp(Lw.mod, o);
    }
  }
  return Lw.arrayFromVars(resultType, arrs);
}

Val Lowerer::lowerComprehension(const arrc::Comprehension &c) {
  Env outer = env;
  std::string where = "comprehension " + locString(sources, c.span);
  TypeP rt = c.type;
  if (!rt || !rt->isArray()) rt = arrayOf(c.head->type, 1);
  if (c.branches.empty() || c.branches[0].empty()) error(c.span, "empty comprehension");
  try {
    if (c.branches.size() == 1) {
      Space sp;
      sp.at = c.span;
      sp.where = where;
      sp.env = outer;
      buildSpace(*this, sp, c.branches[0]);
      bool irregular = sp.hasBase;
      Val r = emitHead(*this, sp, c.head, rt, irregular ? "head map" : "regular map nest");
      env = outer;
      return r;
    }
    // Zip: each branch materialised (or read directly), lock-step with ZipSize checks.
    Space all;
    all.at = c.span;
    all.where = where;
    all.env = outer;
    all.hasBase = true;
    ExpP N;
    int pos = position(c.span);
    for (auto &br : c.branches) {
      Space sp;
      sp.at = c.span;
      sp.where = where;
      sp.env = outer;
      buildSpace(*this, sp, br);
      if (sp.hasBase || sp.hasFilter || sp.dims.size() != 1 || sp.levels.size() != 1 || !sp.levels[0].hasHost ||
          sp.levels[0].q->pattern.kind != Pattern::Var)
        materializeSpace(*this, sp, "zip branch");
      env = outer;
      ExpP n = sp.dims[0];
      if (!N) N = n;
      else {
        auto ch = std::make_shared<Check>();
        ch->code = Check::ZipSize;
        ch->cond = binaryExp(BinOp::Eq, N, n);
        ch->pos = pos;
        ch->values = {N, n};
        ch->span = c.span;
        emit(ch);
      }
      if (sp.hasBase)
        for (auto &b : sp.base) all.base.push_back(b);
      else
        all.base.push_back({sp.levels[0].q->pattern.name, sp.levels[0].host});
      for (auto &l : sp.levels)
        if (l.kind == Level::Let) all.levels.push_back(l);
    }
    all.dims = {N};
    Val r = emitHead(*this, all, c.head, rt, "zip");
    env = outer;
    return r;
  } catch (...) {
    env = outer;
    throw;
  }
}

// ------------------------------------------------------------ device code
// The elements of qualifiers qs inside a body, as a sequential producer: the
// qualifiers run as nested folds (generators), Ifs (filters) and lets; each
// element is elem() in the innermost scope. src0: qs[0]'s source, lowered.
static Val qualifierSeq(Lowerer &Lw, const std::vector<Qualifier> &qs, const Val *src0, Env outer, const Span &at,
                        const TypeP &type, const std::function<Val()> &elem,
                        std::shared_ptr<const std::vector<Qualifier>> keep = nullptr) {
  Val s;
  s.kind = Val::Seq;
  s.type = type;
  const std::vector<Qualifier> *qp = &qs;
  std::shared_ptr<Val> first = src0 ? std::make_shared<Val>(*src0) : nullptr;
  Lowerer *L = &Lw;
  s.fold = [L, first, qp, elem, outer, at, keep](const std::vector<ExpP> &init, const StepFn &step) {
    Lowerer &Lw = *L;
    const auto &qs = *qp;
    std::function<std::vector<ExpP>(size_t, const std::vector<ExpP> &)> rec =
        [&](size_t qi, const std::vector<ExpP> &acc) -> std::vector<ExpP> {
      if (qi == qs.size()) return step(acc, elem());
      const Qualifier &q = qs[qi];
      if (q.kind == Qualifier::Let) {
        Lw.bindPattern(q.pattern, Lw.lower(q.expr), true);
        return rec(qi + 1, acc);
      }
      if (q.kind == Qualifier::Filter) {
        Val cnd = Lw.lower(q.expr);
        Env here = Lw.env;
        return Lw.stepWhere(cnd.e, acc, [&] {
          auto r = rec(qi + 1, acc);
          Lw.env = here;
          return r;
        });
      }
      Val src = qi == 0 && first ? *first : Lw.lower(q.expr);
      Env here = Lw.env;
      return Lw.foldSeq(src, acc, [&](const std::vector<ExpP> &a, const Val &item) {
        Lw.env = here;
        Lw.bindPattern(q.pattern, item, true);
        return rec(qi + 1, a);
      }, at);
    };
    Env saved = Lw.env;
    Lw.env = outer;
    auto r = rec(0, init);
    Lw.env = saved;
    return r;
  };
  Lw.tagSeq(s, "comprehension", at, nullptr);
  return s;
}

// Qualifiers whose variables are made an array of tuples of scalars (a zip
// branch with several generators, a comprehension whose elements a lifted
// loop makes): a generator binding an array (a row of a rank >= 2 source)
// becomes a generator over the source's row indices plus a let of the row,
// and lets binding arrays are evaluated again per element; the tuple holds
// every scalar variable, in qualifier order. ok = false when a variable is
// neither (a tuple pattern holding arrays, a function).
namespace {
struct TupleQuals {
  std::shared_ptr<std::vector<Qualifier>> qs;
  bool ok = true;
  std::string bad;         // the variable that is neither
  Span badAt;
  bool rewroteFirst = false; // qs[0] is not the original first qualifier
  std::vector<TypeP> ts;
  std::vector<std::string> names;
  // Rebinding in qualifier order: a let to evaluate (arrays), or tuple
  // components (scalars).
  std::vector<std::pair<const Qualifier *, std::vector<size_t>>> steps;
  bool anyArrayLet = false;
};
} // namespace

static TupleQuals tupleQuals(const std::vector<Qualifier> &br) {
  TupleQuals r;
  r.qs = std::make_shared<std::vector<Qualifier>>();
  auto &qs2 = *r.qs;
  std::vector<bool> arrayLet;
  auto isArr = [](const TypeP &t) { return t && t->isArray(); };
  static int zipRows = 0;
  for (size_t qi0 = 0; qi0 < br.size(); ++qi0) {
    const Qualifier &q = br[qi0];
    if (q.kind == Qualifier::Bind && q.pattern.kind == Pattern::Var && isArr(q.pattern.type) && q.expr &&
        q.expr->type && q.expr->type->isArray() && q.expr->type->rank == q.pattern.type->rank + 1) {
      auto intT = arrc::Type::scalarOf(ScalarKind::Int);
      std::string iv = "__row" + std::to_string(zipRows++);
      auto zero = std::make_shared<arrc::IntLit>();
      zero->type = intT, zero->span = q.span;
      auto sz = std::make_shared<arrc::Size>();
      sz->array = q.expr, sz->axis = zero, sz->type = intT, sz->span = q.span;
      auto rg = std::make_shared<arrc::Range>();
      rg->lo = zero, rg->hi = sz, rg->type = arrc::Type::array(intT, 1), rg->span = q.span;
      Qualifier gi;
      gi.kind = Qualifier::Bind, gi.span = q.span, gi.expr = rg;
      gi.pattern.kind = Pattern::Var, gi.pattern.name = iv, gi.pattern.type = intT, gi.pattern.span = q.span;
      auto ref = std::make_shared<arrc::VarRef>();
      ref->name = iv, ref->ref = arrc::VarRef::Ref::Local, ref->type = intT, ref->span = q.span;
      auto ix = std::make_shared<arrc::Index>();
      ix->array = q.expr, ix->type = q.pattern.type, ix->span = q.span;
      IndexArg a0;
      a0.kind = IndexArg::Single, a0.index = ref, a0.span = q.span;
      ix->args.push_back(a0);
      for (int k = 0; k < q.pattern.type->rank; ++k) {
        IndexArg ak;
        ak.kind = IndexArg::All, ak.span = q.span;
        ix->args.push_back(ak);
      }
      Qualifier lr;
      lr.kind = Qualifier::Let, lr.span = q.span, lr.pattern = q.pattern, lr.expr = ix;
      if (qi0 == 0) r.rewroteFirst = true;
      qs2.push_back(gi), arrayLet.push_back(false);
      qs2.push_back(lr), arrayLet.push_back(true);
      continue;
    }
    qs2.push_back(q);
    arrayLet.push_back(q.kind == Qualifier::Let && q.pattern.kind == Pattern::Var && isArr(q.pattern.type));
  }
  for (size_t qi = 0; qi < qs2.size(); ++qi) {
    const Qualifier &q = qs2[qi];
    if (q.kind == Qualifier::Filter) continue;
    if (arrayLet[qi]) {
      r.steps.push_back({&q, {}});
      r.anyArrayLet = true;
      continue;
    }
    std::vector<std::pair<std::string, TypeP>> vars;
    std::function<void(const Pattern &)> rec = [&](const Pattern &p) {
      if (p.kind == Pattern::Var) vars.push_back({p.name, p.type});
      for (auto &x : p.elems) rec(x);
    };
    rec(q.pattern);
    std::vector<size_t> comps;
    for (auto &v : vars) {
      if (!v.second || v.second->isArray() || v.second->kind == arrc::Type::Func) {
        if (r.ok) r.bad = v.first, r.badAt = q.span;
        r.ok = false;
        continue;
      }
      comps.push_back(r.ts.size());
      r.ts.push_back(v.second);
      r.names.push_back(v.first);
    }
    if (!comps.empty()) r.steps.push_back({nullptr, comps});
  }
  return r;
}

// Binds a TupleQuals' variables from element e of its array of tuples.
static void bindTupleQuals(Lowerer &Lw, const TupleQuals &tq, const Val &e) {
  for (auto &st : tq.steps) {
    if (st.first) Lw.bindPattern(st.first->pattern, Lw.lower(st.first->expr), true);
    else
      for (size_t k : st.second) Lw.bind(tq.names[k], e.elems.at(k));
  }
}

Val Lowerer::deviceComprehension(const arrc::Comprehension &c) {
  Env outer = env;
  TypeP rt = c.type;
  if (!rt || !rt->isArray()) rt = arrayOf(c.head->type, 1);
  if (c.branches.size() > 1) {
    // Zip of simple branches: lock-step Delayed.
    // A branch with one generator (and lets) reads its source; a branch with
    // several generators or filters is the array of the tuples of its
    // variables (a sequential producer made indexable).
    std::vector<std::pair<const Pattern *, Val>> srcs;
    std::vector<const Qualifier *> lets;
    std::vector<std::pair<std::vector<std::string>, Val>> tuples; // (names, array of tuples)
    // Branches that bind arrays: per tuple (by position), the rebinding
    // steps in qualifier order (a let to evaluate, or tuple components).
    std::vector<std::pair<size_t, std::shared_ptr<TupleQuals>>> rebinders;
    for (auto &br : c.branches) {
      if (br.empty() || br[0].kind != Qualifier::Bind) error(c.span, "a zip branch must start with a binding");
      bool simple = true;
      for (size_t i = 1; i < br.size(); ++i) simple = simple && br[i].kind == Qualifier::Let;
      if (!simple) {
        auto tq = std::make_shared<TupleQuals>(tupleQuals(br));
        if (!tq->ok)
          error(tq->badAt, "unsupported: a zip branch with several generators binding an array ('" + tq->bad +
                               "') inside a parallel body");
        std::vector<TypeP> ts = tq->ts;
        std::vector<std::string> names = tq->names;
        TypeP tt = arrc::Type::tuple(ts);
        Val seq = qualifierSeq(*this, *tq->qs, nullptr, outer, br[0].span, arrc::Type::array(tt, 1), [this, names, tt] {
          std::vector<Val> es;
          for (auto &n : names) es.push_back(*lookup(n));
          return Val::tuple(es, tt);
        }, tq->qs);
        // (a later source or a filter before one running a loop that must
        // be lifted: the tuples made by a loop over the first generator)
        if (liftNeeded(arrc::Type::array(tt, 1), [&] {
              foldSeq(seq, {constLong(0)}, [](const std::vector<ExpP> &acc, const Val &) { return acc; }, br[0].span);
            }, true)) {
          std::vector<ExprP> refs;
          for (size_t k = 0; k < names.size(); ++k) {
            auto v = std::make_shared<arrc::VarRef>();
            v->name = names[k], v->ref = arrc::VarRef::Ref::Local, v->type = ts[k], v->span = br[0].span;
            madeExprs.push_back(v);
            refs.push_back(v);
          }
          ExprP hd = refs[0];
          if (refs.size() > 1) {
            auto t = std::make_shared<arrc::TupleExpr>();
            t->elems = refs, t->type = tt, t->span = br[0].span;
            madeExprs.push_back(t);
            hd = t;
          }
          Env saved = env;
          env = outer;
          Val s0 = lower((*tq->qs)[0].expr);
          Val made = liftQualifiers(*tq->qs, s0, hd, arrc::Type::array(hd->type, 1), br[0].span);
          env = saved;
          if (refs.size() == 1) {
            // one variable: its values as 1-tuples
            Val m1 = made.kind == Val::Seq ? indexable(made, br[0].span) : made;
            Val d;
            d.kind = Val::Delayed;
            d.type = arrc::Type::array(tt, 1);
            d.dims = {extent(m1, 0, br[0].span)};
            d.fetch = [this, m1, tt](const std::vector<ExpP> &i) { return Val::tuple({elementAt(m1, i)}, tt); };
            made = d;
          }
          tuples.push_back({names, made.kind == Val::Seq ? indexable(made, br[0].span) : made});
          rebinders.push_back({tuples.size() - 1, tq});
          continue;
        }
        tuples.push_back({names, indexable(seq, br[0].span)});
        rebinders.push_back({tuples.size() - 1, tq});
        continue;
      }
      Val s = lower(br[0].expr);
      if (s.kind == Val::Seq) s = indexable(s, br[0].span);
      if (!s.isArrayLike()) error(br[0].span, "zip branch over a value that is not an array");
      srcs.push_back({&br[0].pattern, s});
      for (size_t i = 1; i < br.size(); ++i) lets.push_back(&br[i]);
    }
    std::vector<Val> all;
    for (auto &x : srcs) all.push_back(x.second);
    for (auto &x : tuples) all.push_back(x.second);
    Val d;
    d.kind = Val::Delayed;
    d.type = rt;
    d.dims = {extent(all[0], 0, c.span)};
    {
      // Lock-step sizes must match: an in-body guard on the extent.
      ExpP n0 = d.dims[0];
      for (size_t k = 1; k < all.size(); ++k) {
        ExpP nk = extent(all[k], 0, c.span);
        d.dims[0] = bindScalar("n", addL(d.dims[0], deviceGuard(binaryExp(BinOp::Eq, n0, nk), position(c.span),
                                                                 Check::ZipSize, {n0, nk})));
      }
    }
    const ExprP head = c.head;
    d.fetch = [this, srcs, lets, tuples, head, outer, rebinders](const std::vector<ExpP> &idx) {
      Env saved = env;
      env = outer;
      for (auto &s : srcs) bindPattern(*s.first, itemOf(*this, s.second, idx[0]), true);
      for (size_t ti = 0; ti < tuples.size(); ++ti) {
        auto &t = tuples[ti];
        Val e = elementAt(t.second, {idx[0]});
        const TupleQuals *tq = nullptr;
        for (auto &rb : rebinders)
          if (rb.first == ti) tq = rb.second.get();
        if (tq) bindTupleQuals(*this, *tq, e);
        else
          for (size_t k = 0; k < t.first.size(); ++k) bind(t.first[k], e.elems.at(k));
      }
      for (auto *q : lets) bindPattern(q->pattern, lower(q->expr), true);
      Val r = lower(head);
      env = saved;
      return r;
    };
    return d;
  }
  const auto &qs = c.branches[0];
  if (qs.empty() || qs[0].kind != Qualifier::Bind) error(c.span, "a comprehension must start with a binding");
  bool mapLike = true;
  for (size_t i = 1; i < qs.size(); ++i) mapLike = mapLike && qs[i].kind == Qualifier::Let;
  Val src0 = lower(qs[0].expr);
  const ExprP head = c.head;
  // A later generator's source, or a filter before it, running a loop that
  // must be lifted and reading earlier variables: the comprehension made by
  // a loop over qs[0]'s elements (LowerLiftedOps.cpp).
  if (!mapLike && rt->rank == 1) {
    size_t lastBind = 0;
    for (size_t i = 1; i < qs.size(); ++i)
      if (qs[i].kind == Qualifier::Bind) lastBind = i;
    if (lastBind > 0) {
      std::vector<Qualifier> pre(qs.begin(), qs.begin() + lastBind + 1);
      Val ps = qualifierSeq(*this, pre, &src0, outer, c.span, rt,
                            [] { return Val::scalar(constLong(0), arrc::Type::scalarOf(ScalarKind::Long)); });
      if (liftNeeded(rt, [&] {
            foldSeq(ps, {constLong(0)}, [](const std::vector<ExpP> &acc, const Val &) { return acc; }, c.span);
          }, true)) {
        Env saved = env;
        env = outer;
        Val r = liftQualifiers(qs, src0, head, rt, c.span);
        env = saved;
        return r;
      }
    }
  }
  // A nested head (rank >= 2 result) over an irregular source: the source
  // made indexable (the result is indexed, never only folded).
  if (mapLike && src0.kind == Val::Seq && rt->rank > 1) src0 = indexable(src0, qs[0].span);
  if (mapLike && src0.kind != Val::Seq) {
    Val d;
    d.kind = Val::Delayed;
    d.type = rt;
    d.dims = {extent(src0, 0, c.span)};
    size_t inner = rt->rank > 1 ? size_t(rt->rank - 1) : 0;
    bool dependent = false;
    if (inner > 0) {
      // A nested head (rank >= 2 result): its extents, probed at a
      // placeholder element, are computed here by the probe's statements
      // they need, at element 0 (under n > 0). When they depend on the
      // element they must still be equal for every element (the language's
      // runtime regularity check): each element guards its own extents
      // against them (Irregular).
      int iv = newVar("i", scalarT(ScalarKind::Long));
      std::vector<ExpP> dims;
      NoHoist nh(*this);
      Block probe = subBlock(true, [&] {
        Env saved = env;
        env = outer;
        bindPattern(qs[0].pattern, itemOf(*this, src0, varExp(iv, scalarT(ScalarKind::Long))), true);
        for (size_t i = 1; i < qs.size(); ++i) bindPattern(qs[i].pattern, lower(qs[i].expr), true);
        Val h = lower(head);
        if (!h.isArrayLike()) error(head->span, "internal: nested head is not an array");
        for (size_t k = 0; k < inner; ++k) dims.push_back(k == 0 ? length(h, head->span) : extent(h, int(k), head->span));
        env = saved;
        return dims;
      });
      // The probe's statements the extents need (a backward slice).
      std::set<int> need;
      for (auto &x : dims) expVars(x, need);
      std::vector<StmtP> kept;
      for (int k = int(probe.stmts.size()) - 1; k >= 0; --k) {
        const Stmt &st = *probe.stmts[k];
        bool needed = false;
        for (int o : st.outs) needed = needed || need.count(o);
        if (!needed) continue;
        kept.insert(kept.begin(), probe.stmts[k]);
        std::set<int> u, dd;
        stmtUses(st, u);
        stmtDefs(st, dd);
        for (int x : u)
          if (!dd.count(x)) need.insert(x);
      }
      dependent = need.count(iv) > 0;
      if (!kept.empty() || dependent) {
        auto st = std::make_shared<If>();
        st->cond = binaryExp(BinOp::Gt, d.dims[0], constLong(0));
        st->thenB = condBlock(st->cond, [&] {
          std::map<int, ExpP> sub{{iv, constLong(0)}};
          Block kb;
          kb.stmts = kept;
          Block cl = cloneFresh(mod, kb, sub);
          for (auto &x : cl.stmts) cur->stmts.push_back(x);
          std::vector<ExpP> r;
          for (auto &x : dims) r.push_back(substitute(x, sub));
          return r;
        });
        for (auto &x : dims) {
          st->elseB.results.push_back(constLong(0));
          int o = newVar("inner", scalarT(ScalarKind::Long));
          st->outs.push_back(o);
          x = varExp(o, scalarT(ScalarKind::Long));
        }
        st->span = head->span;
        emit(st);
      }
      d.dims.insert(d.dims.end(), dims.begin(), dims.end());
    }
    std::vector<ExpP> innerDims(d.dims.begin() + 1, d.dims.end());
    int ipos = position(head->span);
    d.fetch = [this, src0, &qs, head, outer, inner, dependent, innerDims, ipos](const std::vector<ExpP> &idx) {
      Env saved = env;
      env = outer;
      bindPattern(qs[0].pattern, itemOf(*this, src0, idx[0]), true);
      for (size_t i = 1; i < qs.size(); ++i) bindPattern(qs[i].pattern, lower(qs[i].expr), true);
      Val r = lower(head);
      env = saved;
      if (inner > 0 && r.kind == Val::Seq) r = indexable(r, head->span);
      if (inner > 0 && r.isArrayLike() && idx.size() == inner + 1) {
        std::vector<ExpP> ix(idx.begin() + 1, idx.end());
        if (dependent)
          for (size_t k = 0; k < inner; ++k) {
            ExpP ek = extent(r, int(k), head->span);
            ix[k] = bindScalar("ix", addL(ix[k], deviceGuard(binaryExp(BinOp::Eq, ek, innerDims[k]), ipos, Check::Irregular,
                                                             {innerDims[k], ek})));
          }
        return elementAt(r, ix);
      }
      if (r.isArrayLike()) error(head->span, "unsupported: a nested array computed inside a parallel body");
      return r;
    };
    // A head running a loop whose state varies in size, that a consumer's
    // fold could not lift: the elements computed by a lifted loop instead.
    if (inner == 0) {
      Val lifted;
      auto fetch = d.fetch;
      if (liftComprehension(src0, rt, [fetch](const ExpP &j) { return fetch({j}); }, c.span, lifted)) return lifted;
    }
    return d;
  }
  Val s = qualifierSeq(*this, qs, &src0, outer, c.span, rt, [this, head] { return lower(head); });
  tagSeq(s, "comprehension", c.span, nullptr);
  // A head running a loop that must be lifted, where the comprehension's
  // folds run: the qualifiers' variables (scalars) made indexable, then the
  // elements made by a lifted loop (LowerNested.cpp).
  if (liftNeeded(rt, [&] {
        foldSeq(s, {constLong(0)}, [&](const std::vector<ExpP> &acc, const Val &item) {
          leaves(item, c.span);
          return acc;
        }, c.span);
      })) {
    // Trailing filters whose condition runs such a loop (`count(p, xs)` is
    // `sum([1 | x <- xs, p(x)])`): the tuples of the variables before them
    // made indexable, their conjunction made by a lifted loop (a flag per
    // tuple), then the tuples kept by it, and the head as below.
    size_t firstF = qs.size();
    while (firstF > 1 && qs[firstF - 1].kind == Qualifier::Filter) firstF--;
    if (firstF < qs.size()) {
      auto pre = std::make_shared<std::vector<Qualifier>>(qs.begin(), qs.begin() + firstF);
      auto tq = std::make_shared<TupleQuals>(tupleQuals(*pre));
      if (tq->ok && !tq->names.empty()) {
        ExprP conj = qs[firstF].expr;
        for (size_t k = firstF + 1; k < qs.size(); ++k) {
          auto b = std::make_shared<arrc::Binary>();
          b->op = BinOp::And, b->lhs = conj, b->rhs = qs[k].expr, b->type = conj->type, b->span = qs[k].span;
          conj = b;
        }
        std::vector<std::string> names = tq->names;
        TypeP tt = arrc::Type::tuple(tq->ts);
        TypeP bt = arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Bool), 1);
        Val pseq = qualifierSeq(*this, *tq->qs, tq->rewroteFirst ? nullptr : &src0, outer, c.span,
                                arrc::Type::array(tt, 1), [this, names, tt] {
          std::vector<Val> es;
          for (auto &n : names) es.push_back(*lookup(n));
          return Val::tuple(es, tt);
        }, tq->qs);
        auto bindAt = [this, tq, outer](const Val &e, const std::function<Val()> &f) {
          Env saved = env;
          env = outer;
          bindTupleQuals(*this, *tq, e);
          Val r = f();
          env = saved;
          return r;
        };
        bool condLifts = liftNeeded(bt, [&] {
          foldSeq(pseq, {constLong(0)}, [&](const std::vector<ExpP> &acc, const Val &item) {
            bindAt(item, [&] { return lower(conj); });
            return acc;
          }, c.span);
        });
        if (condLifts) {
          Val tuples = indexable(pseq, c.span);
          Val flags;
          if (liftComprehension(tuples, bt, [this, tuples, bindAt, conj](const ExpP &j) {
                return bindAt(elementAt(tuples, {j}), [&] { return lower(conj); });
              }, c.span, flags, true)) {
            Val kept;
            kept.kind = Val::Seq;
            kept.type = arrc::Type::array(tt, 1);
            ExpP n = extent(tuples, 0, c.span);
            kept.fold = [this, tuples, flags, n, at = c.span](const std::vector<ExpP> &init, const StepFn &step) {
              Val ix;
              ix.kind = Val::Delayed;
              ix.type = arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Long), 1);
              ix.dims = {n};
              ix.fetch = [](const std::vector<ExpP> &i) {
                return Val::scalar(i[0], arrc::Type::scalarOf(ScalarKind::Long));
              };
              return foldSeq(ix, init, [&](const std::vector<ExpP> &acc, const Val &jv) {
                Val item = elementAt(tuples, {jv.e});
                return stepWhere(elementAt(flags, {jv.e}).e, acc, [&] { return step(acc, item); });
              }, at);
            };
            tagSeq(kept, "filter", c.span, n);
            bool headLifts = liftNeeded(rt, [&] {
              foldSeq(kept, {constLong(0)}, [&](const std::vector<ExpP> &acc, const Val &item) {
                leaves(bindAt(item, [&] { return lower(head); }), c.span);
                return acc;
              }, c.span);
            });
            if (headLifts) {
              Val ki = indexable(kept, c.span);
              Val lifted;
              if (liftComprehension(ki, rt, [this, ki, bindAt, head](const ExpP &j) {
                    return bindAt(elementAt(ki, {j}), [&] { return lower(head); });
                  }, c.span, lifted, true))
                return lifted;
            } else {
              Val r;
              r.kind = Val::Seq;
              r.type = rt;
              r.fold = [this, kept, bindAt, head, at = c.span](const std::vector<ExpP> &init, const StepFn &step) {
                return foldSeq(kept, init, [&](const std::vector<ExpP> &acc, const Val &item) {
                  return step(acc, bindAt(item, [&] { return lower(head); }));
                }, at);
              };
              tagSeq(r, "comprehension", c.span, nullptr);
              return r;
            }
          }
        }
      }
    }
    // (generators binding rows: over the row indices, the rows let-bound)
    auto tq = std::make_shared<TupleQuals>(tupleQuals(qs));
    if (tq->ok && !tq->names.empty()) {
      std::vector<std::string> names = tq->names;
      TypeP tt = arrc::Type::tuple(tq->ts);
      Val seq = qualifierSeq(*this, *tq->qs, tq->rewroteFirst ? nullptr : &src0, outer, c.span,
                             arrc::Type::array(tt, 1), [this, names, tt] {
        std::vector<Val> es;
        for (auto &n : names) es.push_back(*lookup(n));
        return Val::tuple(es, tt);
      }, tq->qs);
      Val tuples = indexable(seq, c.span);
      Val lifted;
      auto elem = [this, tuples, tq, head, outer](const ExpP &j) {
        Env saved = env;
        env = outer;
        bindTupleQuals(*this, *tq, elementAt(tuples, {j}));
        Val r = lower(head);
        env = saved;
        return r;
      };
      if (liftComprehension(tuples, rt, elem, c.span, lifted, true)) return lifted;
    }
  }
  return s;
}

} // namespace arrc::lower
