// Lowering of scalar code, tuples, functions (inlining, lambdas, sections),
// control flow and sequential loops: typed AST -> core IR.
#include "Lower.h"

namespace arrc::lower {

// ------------------------------------------------------------ type helpers
void typeLeaves(const TypeP &t, std::vector<ScalarKind> &out) {
  if (!t) return;
  switch (t->kind) {
  case arrc::Type::Scalar: out.push_back(t->scalar); break;
  case arrc::Type::Tuple: for (auto &e : t->elems) typeLeaves(e, out); break;
  case arrc::Type::Array: typeLeaves(t->elem, out); break;
  default: break;
  }
}
TypeP elemTypeOf(const TypeP &t) {
  if (!t || !t->isArray()) return t;
  if (t->rank <= 1) return t->elem;
  return arrc::Type::array(t->elem, t->rank - 1);
}
TypeP arrayOf(const TypeP &elem, int rank) {
  if (elem && elem->isArray()) return arrc::Type::array(elem->elem, elem->rank + rank);
  return arrc::Type::array(elem, rank);
}
std::string locString(const SourceManager &sm, const Span &s) {
  (void)sm;
  return std::to_string(s.begin.line) + ":" + std::to_string(s.begin.col);
}

static bool isSafe(const ExpP &e) {
  if (!e) return true;
  if (e->kind == Exp::Read) return false;
  if (e->kind == Exp::Binary && (e->binop == BinOp::Div || e->binop == BinOp::Mod) && !isFloatKind(e->type.elem)) {
    int64_t v;
    if (!(constValue(e->args[1], v) && v != 0)) return false;
  }
  for (auto &a : e->args)
    if (!isSafe(a)) return false;
  return true;
}

// ------------------------------------------------------------ emission
ExpP Lowerer::bindScalar(const std::string &name, ExpP e) {
  if (e->kind == Exp::Var || e->kind == Exp::Const) return e;
  int v = newVar(name, e->type);
  auto s = std::make_shared<Let>();
  s->outs = {v};
  s->value = e;
  emit(s);
  return varExp(v, e->type);
}

static bool spanWithin(const Span &outer, const Span &s) {
  if (outer.file != s.file) return false;
  auto le = [](const Pos &a, const Pos &b) { return a.line < b.line || (a.line == b.line && a.col <= b.col); };
  return le(outer.begin, s.begin) && le(s.begin, outer.end);
}

// A position inside a stdlib or imported function (inlined at its call) is
// reported at the user's call site, followed by one "note: in F at
// FILE:LINE" line per function of the chain, innermost first. The notes go
// between the position and the message text ("pos\nnote: ...\n: message");
// arrc::Error moves them after the message.
int Lowerer::position(const Span &s) {
  std::string loc = s.valid() ? sources.location(s) : std::string("<unknown>");
  if (s.valid() && mainFile >= 0 && s.file != mainFile) {
    std::string notes;
    Span at = s;
    Env e = env;
    while (at.file != mainFile) {
      const EnvNode *m = e.get();
      while (m && !m->fn) m = m->next.get();
      if (!m || !spanWithin(m->fn->span, at)) break;
      std::string name = m->fn->instanceOf.empty() ? m->fn->name : m->fn->instanceOf;
      notes += "note: in " + name + " at " + sources.path(at.file) + ":" + std::to_string(at.begin.line) + "\n";
      at = m->callSite;
      e = m->callerEnv;
    }
    if (at.valid() && at.file == mainFile && !notes.empty()) loc = sources.location(at) + "\n" + notes;
  }
  for (size_t i = 0; i < mod.positions.size(); ++i)
    if (mod.positions[i] == loc) return int(i);
  return mod.position(loc);
}

Block Lowerer::subBlock(bool dev, const std::function<std::vector<ExpP>()> &f) {
  Block b;
  Block *saved = cur;
  bool savedDev = device;
  Env savedEnv = env;
  Block *savedHost = hostBlock, *savedTop = deviceTop;
  int savedStart = deviceVarStart;
  if (dev && !device) {
    // Entering a SOAC body from host code: guards that only use host values
    // and run unconditionally for every element can become host Checks.
    hostBlock = cur;
    deviceTop = &b;
    deviceVarStart = int(mod.vars.size());
  }
  // The frame of this block (nested parallelism, LowerNested.cpp).
  Frame fr;
  fr.block = &b;
  fr.id = ++frameCounter;
  if (!dev) fr.kind = Frame::Host;
  else if (!device) {
    fr.kind = Frame::Top;
    fr.host = cur;
    if (pendingSpace.set)
      fr.dims = pendingSpace.dims, fr.index = pendingSpace.index, fr.where = pendingSpace.where, fr.cols = pendingSpace.cols;
  } else if (pendingCond) {
    fr.kind = Frame::Cond;
    fr.cond = pendingCond;
  } else {
    fr.kind = Frame::Opaque;
  }
  pendingSpace = PendingSpace{};
  pendingCond = nullptr;
  frames.push_back(fr);
  size_t depth = frames.size();
  cur = &b;
  device = dev;
  auto restore = [&] {
    cur = saved, device = savedDev, env = savedEnv;
    hostBlock = savedHost, deviceTop = savedTop, deviceVarStart = savedStart;
    frames.resize(depth - 1);
  };
  try {
    b.results = f();
  } catch (...) {
    restore();
    throw;
  }
  restore();
  return b;
}

Block Lowerer::bodyBlock(const std::vector<ExpP> &dims, const std::vector<int> &index,
                         const std::function<std::vector<ExpP>()> &f, const std::string &where,
                         const std::map<int, ExpP> &cols) {
  pendingSpace.set = !device;
  pendingSpace.dims = dims;
  pendingSpace.index = index;
  pendingSpace.where = where;
  pendingSpace.cols = cols;
  return subBlock(true, f);
}

Block Lowerer::condBlock(ExpP cond, const std::function<std::vector<ExpP>()> &f) {
  if (device) pendingCond = cond;
  return subBlock(device, f);
}

std::vector<ExpP> Lowerer::stepWhere(ExpP cond, const std::vector<ExpP> &acc,
                                     const std::function<std::vector<ExpP>()> &step) {
  auto st = std::make_shared<If>();
  st->cond = cond;
  st->thenB = condBlock(st->cond, step);
  st->elseB.results = acc;
  std::vector<ExpP> outs;
  for (auto &a : acc) {
    int o = newVar("acc", a->type);
    st->outs.push_back(o);
    outs.push_back(varExp(o, a->type));
  }
  emit(st);
  return outs;
}

const Val *Lowerer::lookup(const std::string &name) const {
  for (const EnvNode *n = env.get(); n; n = n->next.get())
    if (n->name == name) return &n->val;
  return nullptr;
}

void Lowerer::bindPattern(const Pattern &p, const Val &v, bool letBind) {
  switch (p.kind) {
  case Pattern::Wildcard: return;
  case Pattern::Var: {
    if (v.kind == Val::Scalar && letBind) {
      bind(p.name, Val::scalar(bindScalar(p.name, v.e), v.type));
      return;
    }
    if (v.kind == Val::Array)
      for (auto &a : v.arrs)
        if (a->kind == Exp::Var && (mod.vars[a->var].name.empty() || mod.vars[a->var].name[0] == 't'))
          if (mod.vars[a->var].name.size() <= 1) mod.vars[a->var].name = p.name;
    if (v.kind == Val::Tuple && letBind) {
      // Let-bind the scalar leaves so that they are computed once.
      std::function<Val(const Val &)> rec = [&](const Val &x) -> Val {
        if (x.kind == Val::Scalar) return Val::scalar(bindScalar(p.name, x.e), x.type);
        if (x.kind == Val::Tuple) {
          Val r = x;
          for (auto &e : r.elems) e = rec(e);
          return r;
        }
        return x;
      };
      bind(p.name, rec(v));
      return;
    }
    bind(p.name, v);
    return;
  }
  case Pattern::Tuple: {
    if (v.kind != Val::Tuple || v.elems.size() != p.elems.size())
      error(p.span, "internal: tuple pattern does not match the value");
    for (size_t i = 0; i < p.elems.size(); ++i) bindPattern(p.elems[i], v.elems[i], letBind);
    return;
  }
  }
}

// ------------------------------------------------------------ values
std::vector<ExpP> Lowerer::leaves(const Val &v, const Span &at) {
  switch (v.kind) {
  case Val::Scalar: return {v.e};
  case Val::Tuple: {
    std::vector<ExpP> r;
    for (auto &e : v.elems) {
      auto l = leaves(e, at);
      r.insert(r.end(), l.begin(), l.end());
    }
    return r;
  }
  case Val::Array: return v.arrs;
  case Val::Delayed:
    if (device) error(at, "unsupported: an array value that must be stored inside a parallel body");
    return materialize(v, at).arrs;
  case Val::Seq: error(at, "unsupported: an irregular array value inside a parallel body");
  case Val::Func: error(at, "unsupported: a function value where data is expected");
  }
  return {};
}

Val Lowerer::rebuild(const TypeP &t, const std::vector<ExpP> &ls, size_t &pos) {
  if (!t) error({}, "internal: missing type");
  switch (t->kind) {
  case arrc::Type::Scalar: return Val::scalar(ls.at(pos++), t);
  case arrc::Type::Tuple: {
    std::vector<Val> es;
    for (auto &e : t->elems) es.push_back(rebuild(e, ls, pos));
    return Val::tuple(std::move(es), t);
  }
  case arrc::Type::Array: {
    std::vector<ScalarKind> ks;
    typeLeaves(t->elem, ks);
    std::vector<ExpP> arrs(ls.begin() + pos, ls.begin() + pos + ks.size());
    pos += ks.size();
    return arrayFromVars(t, arrs);
  }
  default: error({}, "internal: cannot rebuild a value of type " + toString(t));
  }
}

Val Lowerer::arrayFromVars(const TypeP &t, std::vector<ExpP> arrs) {
  Val v;
  v.kind = Val::Array;
  v.type = t;
  v.arrs = std::move(arrs);
  return v;
}

Val Lowerer::materialize(const Val &v, const Span &at) {
  if (v.kind == Val::Array) return v;
  if (v.kind != Val::Delayed) {
    if (v.kind == Val::Seq) error(at, "unsupported: an irregular array computed inside a parallel body");
    error(at, "internal: materializing a non-array");
  }
  if (device) error(at, "unsupported: an array value that must be stored inside a parallel body");
  std::vector<ScalarKind> ks;
  typeLeaves(v.type->elem, ks);
  auto m = std::make_shared<Map>();
  m->dims = v.dims;
  for (size_t k = 0; k < v.dims.size(); ++k) m->index.push_back(newVar("i", scalarT(ScalarKind::Long)));
  std::vector<ExpP> idx;
  for (int i : m->index) idx.push_back(varExp(i, scalarT(ScalarKind::Long)));
  m->body = bodyBlock(m->dims, m->index, [&] { return leaves(v.fetch(idx), at); });
  std::vector<ExpP> arrs;
  for (auto k : ks) {
    int o = newVar("t", arrayT(k, int(v.dims.size())));
    m->outs.push_back(o);
    arrs.push_back(varExp(mod, o));
  }
  m->span = at;
  emit(m);
  return arrayFromVars(v.type, arrs);
}

Val Lowerer::elementAt(const Val &arr, const std::vector<ExpP> &idx, int checkPos) {
  if (arr.kind == Val::Delayed) return arr.fetch(idx);
  if (arr.kind != Val::Array) error({}, "internal: indexing a non-array");
  std::vector<ExpP> ls;
  for (auto &a : arr.arrs) ls.push_back(readExp(a, idx, checkPos));
  size_t pos = 0;
  return rebuild(arr.type->elem, ls, pos);
}

Val Lowerer::toDelayed(const Val &arr) {
  if (arr.kind == Val::Delayed) return arr;
  if (arr.kind != Val::Array) error({}, "internal: not an indexable array");
  Val d;
  d.kind = Val::Delayed;
  d.type = arr.type;
  for (int k = 0; k < arr.rank(); ++k) d.dims.push_back(shapeExp(arr.arrs.at(0), k));
  d.fetch = [this, arr](const std::vector<ExpP> &idx) { return elementAt(arr, idx); };
  return d;
}

ExpP Lowerer::extent(const Val &arr, int axis, const Span &at) {
  if (arr.kind == Val::Delayed) return arr.dims.at(axis);
  if (arr.kind == Val::Array) {
    if (arr.arrs.empty()) error(at, "unsupported: an array of empty tuples");
    return shapeExp(arr.arrs[0], axis);
  }
  if (arr.kind == Val::Seq && axis == 0) return length(arr, at);
  error(at, "internal: extent of a non-array");
}

// The i-th item of a rank-d array along axis 0: an element (d = 1) or a row.
static Val itemAt(Lowerer &L, const Val &arr, const ExpP &i) {
  if (arr.rank() <= 1) return L.elementAt(arr, {i});
  Val d = L.toDelayed(arr);
  Val r;
  r.kind = Val::Delayed;
  r.type = elemTypeOf(arr.type);
  r.dims.assign(d.dims.begin() + 1, d.dims.end());
  FetchFn f = d.fetch;
  r.fetch = [f, i](const std::vector<ExpP> &idx) {
    std::vector<ExpP> full{i};
    full.insert(full.end(), idx.begin(), idx.end());
    return f(full);
  };
  return r;
}

ExpP Lowerer::length(const Val &arr, const Span &at) {
  if (arr.kind == Val::Seq) {
    auto r = foldSeq(arr, {constLong(0)}, [](const std::vector<ExpP> &acc, const Val &) {
      return std::vector<ExpP>{addL(acc[0], constLong(1))};
    }, at);
    return r[0];
  }
  return extent(arr, 0, at);
}

std::vector<ExpP> Lowerer::foldSeq(const Val &arr, const std::vector<ExpP> &init, const StepFn &step, const Span &at) {
  if (arr.kind == Val::Seq) return arr.fold(init, step);
  if (!arr.isArrayLike()) error(at, "internal: folding a non-array");
  ExpP n = extent(arr, 0, at);
  auto loop = std::make_shared<Loop>();
  loop->form = Loop::For;
  loop->count = n;
  loop->index = newVar("k", scalarT(ScalarKind::Long));
  loop->init = init;
  std::vector<ExpP> params;
  for (auto &e : init) {
    int p = newVar("acc", e->type);
    loop->params.push_back(p);
    params.push_back(varExp(p, e->type));
  }
  ExpP iv = varExp(loop->index, scalarT(ScalarKind::Long));
  loop->body = subBlock(device, [&] { return step(params, itemAt(*this, arr, iv)); });
  std::vector<ExpP> outs;
  for (auto &e : init) {
    int o = newVar("acc", e->type);
    loop->outs.push_back(o);
    outs.push_back(varExp(o, e->type));
  }
  loop->span = at;
  emit(loop);
  return outs;
}

Val Lowerer::defaultOf(const TypeP &t) {
  if (!t) error({}, "internal: missing type");
  if (t->isScalar()) return Val::scalar(constZero(t->scalar), t);
  if (t->kind == arrc::Type::Tuple) {
    std::vector<Val> es;
    for (auto &e : t->elems) es.push_back(defaultOf(e));
    return Val::tuple(es, t);
  }
  error({}, "internal: no default for " + toString(t));
}

// ------------------------------------------------------------ functions
Val Lowerer::apply(const Val &f, const std::vector<Val> &args, const Span &at, const TypeP &resultType) {
  if (f.kind != Val::Func || !f.fn) error(at, "unsupported: calling a value that is not a function");
  const FuncVal &fn = *f.fn;
  switch (fn.kind) {
  case FuncVal::Lambda: {
    Env saved = env;
    env = fn.env;
    const auto &ps = fn.lambda->params;
    try {
      if (ps.size() == args.size()) {
        for (size_t i = 0; i < ps.size(); ++i) bindPattern(ps[i], args[i], false);
      } else if (ps.size() == 1) {
        std::vector<TypeP> ts;
        for (auto &a : args) ts.push_back(a.type);
        bindPattern(ps[0], Val::tuple(args, arrc::Type::tuple(ts)), false);
      } else if (args.size() == 1 && args[0].kind == Val::Tuple && args[0].elems.size() == ps.size()) {
        for (size_t i = 0; i < ps.size(); ++i) bindPattern(ps[i], args[0].elems[i], false);
      } else {
        error(at, "internal: lambda applied to the wrong number of arguments");
      }
      Val r = lower(fn.lambda->body);
      env = saved;
      return r;
    } catch (...) {
      env = saved;
      throw;
    }
  }
  case FuncVal::Section: {
    const OpSection &s = *fn.section;
    std::vector<Val> as = args;
    if (as.size() == 1 && as[0].kind == Val::Tuple) as = as[0].elems;
    if (s.isBinOp) {
      if (as.size() != 2) error(at, "internal: operator section needs two arguments");
      if (as[0].isArrayLike() || as[1].isArrayLike()) {
        BinOp op = s.op;
        if (op == BinOp::Concat) return intrinsic("concat", as, at, resultType ? resultType : as[0].type);
        TypeP rt = resultType;
        return elementwise(as, rt, at, [this, op, at](const std::vector<Val> &x) { return scalarBinary(op, x[0], x[1], at); });
      }
      return scalarBinary(s.op, as[0], as[1], at);
    }
    return intrinsic(s.function, as, at, resultType);
  }
  case FuncVal::Decl: return inlineCall(fn.decl, args, at);
  case FuncVal::Intrinsic: {
    std::vector<Val> as = args;
    if (as.size() == 1 && as[0].kind == Val::Tuple && fn.type && fn.type->kind == arrc::Type::Func &&
        fn.type->elems.size() > 1)
      as = as[0].elems;
    return intrinsic(fn.name, as, at, resultType);
  }
  }
  error(at, "internal: bad function value");
}

// Whether `d` is being inlined around the code whose environment is `e`: the
// chain of calls that environment lies in (function markers lead to their
// callers). A lambda's body runs in the environment it was written in, so
// `any(\x -> any(p, ys), xs)` calls `any` inside its argument, not itself.
static bool calledFrom(const Env &e, const FunDecl *d) {
  for (const EnvNode *n = e.get(); n;) {
    if (n->fn == d) return true;
    n = n->fn ? n->callerEnv.get() : n->next.get();
  }
  return false;
}

Val Lowerer::inlineCall(const FunDecl *d, const std::vector<Val> &args, const Span &at) {
  if (calledFrom(env, d)) error(at, "recursive call of '" + d->name + "' (recursion is not supported)");
  if (inlineStack.size() > 200) error(at, "function calls nested too deeply");
  if (!d->body) error(at, "internal: function '" + d->name + "' has no body");
  if (d->params.size() != args.size()) error(at, "internal: wrong number of arguments to '" + d->name + "'");
  Env saved = env;
  env = std::make_shared<EnvNode>(EnvNode{"", Val{}, nullptr, d, at, saved});
  inlineStack.push_back(d);
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      Val a = args[i];
      if (a.kind == Val::Scalar) a = Val::scalar(bindScalar(d->params[i].name, a.e), a.type);
      bind(d->params[i].name, a);
    }
    Val r = lower(d->body);
    env = saved;
    inlineStack.pop_back();
    return r;
  } catch (...) {
    env = saved;
    inlineStack.pop_back();
    throw;
  }
}

Lambda Lowerer::opLambda(const Val &f, const TypeP &t, const Span &at) {
  std::vector<ScalarKind> ks;
  typeLeaves(t, ks);
  Lambda l;
  std::vector<ExpP> a, b;
  for (auto k : ks) {
    int p = newVar("x", scalarT(k));
    l.params.push_back(p);
    a.push_back(varExp(p, scalarT(k)));
  }
  for (auto k : ks) {
    int p = newVar("y", scalarT(k));
    l.params.push_back(p);
    b.push_back(varExp(p, scalarT(k)));
  }
  l.body = subBlock(true, [&] {
    size_t pa = 0, pb = 0;
    Val va = rebuild(t, a, pa), vb = rebuild(t, b, pb);
    return leaves(apply(f, {va, vb}, at, t), at);
  });
  return l;
}

// ------------------------------------------------------------ expressions
Val Lowerer::scalarBinary(BinOp op, const Val &a, const Val &b, const Span &at) {
  if (a.kind == Val::Tuple && b.kind == Val::Tuple && (op == BinOp::Eq || op == BinOp::Ne)) {
    ExpP acc = constBool(true);
    for (size_t i = 0; i < a.elems.size(); ++i) {
      Val c = scalarBinary(BinOp::Eq, a.elems[i], b.elems[i], at);
      acc = binaryExp(BinOp::And, acc, c.e);
    }
    if (op == BinOp::Ne) acc = unaryExp(UnOp::Not, acc);
    return Val::scalar(acc, arrc::Type::scalarOf(ScalarKind::Bool));
  }
  if (a.kind != Val::Scalar || b.kind != Val::Scalar) error(at, "unsupported operands for '" + std::string(spelling(op)) + "'");
  ExpP r = binaryExp(op, a.e, b.e);
  return Val::scalar(r, arrc::Type::scalarOf(r->type.elem));
}

Val Lowerer::elementwise(const std::vector<Val> &args0, const TypeP &resultType, const Span &at,
                         const std::function<Val(const std::vector<Val> &)> &f, int checkCode) {
  std::vector<Val> args = args0;
  for (auto &a : args)
    if (a.kind == Val::Seq) a = indexable(a, at);
  const Val *first = nullptr;
  for (auto &a : args)
    if (a.isArrayLike()) {
      if (!first) first = &a;
    }
  if (!first) return f(args);
  int rank = first->rank();
  std::vector<ExpP> dims;
  for (int k = 0; k < rank; ++k) dims.push_back(extent(*first, k, at));
  if (device) {
    // In-body shape check: guard the extents, which every consumer reads.
    std::vector<ExpP> d0 = dims;
    for (auto &a : args) {
      if (&a == first || !a.isArrayLike()) continue;
      if (a.rank() != rank) error(at, "internal: rank mismatch in an element-wise operation");
      ExpP cond;
      std::vector<ExpP> vals;
      for (int k = 0; k < rank; ++k) {
        ExpP c = binaryExp(BinOp::Eq, d0[k], extent(a, k, at));
        cond = cond ? binaryExp(BinOp::And, cond, c) : c;
        vals.push_back(d0[k]);
        vals.push_back(extent(a, k, at));
      }
      if (cond) {
        ExpP g = bindScalar("shapeok", deviceGuard(cond, position(at), checkCode, vals));
        for (auto &d : dims) d = addL(d, g);
      }
    }
  } else {
    for (auto &a : args) {
      if (&a == first || !a.isArrayLike()) continue;
      if (a.rank() != rank) error(at, "internal: rank mismatch in an element-wise operation");
      ExpP cond;
      for (int k = 0; k < rank; ++k) {
        ExpP c = binaryExp(BinOp::Eq, dims[k], extent(a, k, at));
        cond = cond ? binaryExp(BinOp::And, cond, c) : c;
      }
      auto ch = std::make_shared<Check>();
      ch->code = Check::Code(checkCode);
      ch->cond = cond;
      ch->pos = position(at);
      for (int k = 0; k < rank; ++k) {
        ch->values.push_back(dims[k]);
        ch->values.push_back(extent(a, k, at));
      }
      ch->span = at;
      emit(ch);
    }
  }
  // Element type of the result: derived from the first element.
  Val d;
  d.kind = Val::Delayed;
  d.dims = dims;
  std::vector<Val> as = args;
  for (auto &a : as)
    if (a.kind == Val::Array) a = toDelayed(a);
  Env captured = env;
  d.fetch = [this, as, f, captured](const std::vector<ExpP> &idx) {
    std::vector<Val> es;
    for (auto &a : as) es.push_back(a.kind == Val::Delayed ? a.fetch(idx) : a);
    Env saved = env;
    env = captured;
    Val r = f(es);
    env = saved;
    return r;
  };
  if (resultType && resultType->isArray()) d.type = resultType;
  else {
    // Find the element type by a dry run in a scratch block.
    TypeP et;
    NoHoist nh(*this);
    Block scratch = subBlock(true, [&] {
      std::vector<ExpP> idx(rank, constLong(0));
      et = d.fetch(idx).type;
      return std::vector<ExpP>{};
    });
    d.type = arrayOf(et, rank);
  }
  if (device) return d;
  return materialize(d, at);
}

Val Lowerer::lowerUnary(const arrc::Unary &u) {
  Val a = lower(u.operand);
  UnOp op = u.op;
  auto f = [op](const std::vector<Val> &x) {
    ExpP r = unaryExp(op, x[0].e);
    return Val::scalar(r, arrc::Type::scalarOf(r->type.elem));
  };
  if (a.isArrayLike()) return elementwise({a}, u.type, u.span, f);
  if (a.kind != Val::Scalar) error(u.span, "unsupported operand of a unary operator");
  return f({a});
}

Val Lowerer::lowerBinary(const arrc::Binary &b) {
  if (b.op == BinOp::Concat) {
    Val x = lower(b.lhs), y = lower(b.rhs);
    return intrinsic("concat", {x, y}, b.span, b.type);
  }
  Val x = lower(b.lhs);
  if ((b.op == BinOp::And || b.op == BinOp::Or) && x.kind == Val::Scalar) {
    // Short circuit: the right side runs only when needed.
    Val y;
    Block rb = condBlock(b.op == BinOp::And ? x.e : unaryExp(UnOp::Not, x.e), [&] {
      y = lower(b.rhs);
      return std::vector<ExpP>{y.kind == Val::Scalar ? y.e : constBool(false)};
    });
    if (y.kind == Val::Scalar) {
      if (rb.stmts.empty() && isSafe(y.e)) return scalarBinary(b.op, x, y, b.span);
      auto s = std::make_shared<If>();
      s->cond = x.e;
      Block other;
      other.results = {constBool(b.op == BinOp::Or)};
      if (b.op == BinOp::And) s->thenB = rb, s->elseB = other;
      else s->thenB = other, s->elseB = rb;
      int o = newVar("c", scalarT(ScalarKind::Bool));
      s->outs = {o};
      s->span = b.span;
      emit(s);
      return Val::scalar(varExp(o, scalarT(ScalarKind::Bool)), arrc::Type::scalarOf(ScalarKind::Bool));
    }
  }
  Val y = lower(b.rhs);
  if (x.isArrayLike() || y.isArrayLike()) {
    BinOp op = b.op;
    Span at = b.span;
    return elementwise({x, y}, b.type, b.span, [this, op, at](const std::vector<Val> &e) { return scalarBinary(op, e[0], e[1], at); });
  }
  return scalarBinary(b.op, x, y, b.span);
}

// An `if` whose branches are arrays, inside a parallel body: no array can be
// stored, so the result stays virtual. Each use re-lowers the chosen branch
// under an If statement: the extents (a Delayed result) or the whole fold (a
// Seq result, when a branch is irregular), so that the branch not taken is
// never evaluated.
static Val projectPath(const Val &v, const std::vector<int> &path) {
  Val r = v;
  for (int k : path) {
    Val x = r.elems.at(size_t(k));
    r = x;
  }
  return r;
}

static TypeP typeAtPath(TypeP t, const std::vector<int> &path) {
  for (int k : path) t = t->elems.at(size_t(k));
  return t;
}

// An `if` whose result is (or holds, at tuple path `path`) an array.
Val Lowerer::deviceArrayIf(const arrc::If &e, ExpP cond, const std::vector<int> &path) {
  cond = bindScalar("c", cond);
  Env captured = env;
  const arrc::If *ep = &e;
  TypeP t = typeAtPath(e.type, path);
  Val tv, ev;
  {
    NoHoist nh(*this);
    subBlock(true, [&] { tv = projectPath(lower(e.then), path); return std::vector<ExpP>{}; });
    subBlock(true, [&] { ev = projectPath(lower(e.els), path); return std::vector<ExpP>{}; });
  }
  if (!tv.isArrayLike() || !ev.isArrayLike()) error(e.span, "internal: array branches expected");
  auto branch = [this, captured, ep, cond, path](bool thenSide, const std::function<std::vector<ExpP>(const Val &)> &use) {
    return condBlock(thenSide ? cond : unaryExp(UnOp::Not, cond), [&] {
      Env saved = env;
      env = captured;
      Val v = projectPath(lower(thenSide ? ep->then : ep->els), path);
      env = saved;
      return use(v);
    });
  };
  auto emitIf = [this, cond, ep](Block tb, Block eb) {
    auto s = std::make_shared<If>();
    s->cond = cond;
    s->thenB = std::move(tb);
    s->elseB = std::move(eb);
    std::vector<ExpP> rs;
    for (auto &r : s->thenB.results) {
      int o = newVar("r", r->type);
      s->outs.push_back(o);
      rs.push_back(varExp(o, r->type));
    }
    s->span = ep->span;
    emit(s);
    return rs;
  };
  Span at = e.span;
  if (tv.kind == Val::Seq || ev.kind == Val::Seq) {
    if (t->rank != 1) error(at, "unsupported: an irregular array of rank > 1 inside a parallel body");
    Val r;
    r.kind = Val::Seq;
    r.type = t;
    r.fold = [branch, emitIf, this, at](const std::vector<ExpP> &init, const StepFn &step) {
      auto use = [&](const Val &v) { return foldSeq(v, init, step, at); };
      return emitIf(branch(true, use), branch(false, use));
    };
    tagSeq(r, "if", at, nullptr);
    return r;
  }
  int rank = t->rank;
  auto ext = [this, rank, at](const Val &v) {
    std::vector<ExpP> ds;
    for (int k = 0; k < rank; ++k) ds.push_back(extent(v, k, at));
    return ds;
  };
  Val d;
  d.kind = Val::Delayed;
  d.type = t;
  d.dims = emitIf(branch(true, ext), branch(false, ext));
  d.fetch = [branch, emitIf, this, t, at](const std::vector<ExpP> &idx) {
    auto use = [&](const Val &v) { return leaves(elementAt(v, idx), at); };
    auto rs = emitIf(branch(true, use), branch(false, use));
    size_t pos = 0;
    return rebuild(t->elem, rs, pos);
  };
  return d;
}

static bool hasArrayType(const TypeP &t) {
  if (!t) return false;
  if (t->isArray()) return true;
  if (t->kind == arrc::Type::Tuple)
    for (auto &x : t->elems)
      if (hasArrayType(x)) return true;
  return false;
}

// An `if` whose result is a tuple holding arrays, in a body: each array
// component is an array-valued if (deviceArrayIf), the scalar leaves come
// from one If statement.
Val Lowerer::deviceIfValue(const arrc::If &e, ExpP cond) {
  cond = bindScalar("c", cond);
  Env captured = env;
  // the scalar leaves of a value, in order, skipping arrays
  std::function<void(const Val &, std::vector<ExpP> &)> scalars = [&](const Val &v, std::vector<ExpP> &out) {
    if (v.kind == Val::Tuple) {
      for (auto &x : v.elems) scalars(x, out);
    } else if (v.kind == Val::Scalar) {
      out.push_back(v.e);
    }
  };
  auto side = [&](bool thenSide) {
    return condBlock(thenSide ? cond : unaryExp(UnOp::Not, cond), [&] {
      Env saved = env;
      env = captured;
      Val v = lower(thenSide ? e.then : e.els);
      env = saved;
      std::vector<ExpP> out;
      scalars(v, out);
      return out;
    });
  };
  auto st = std::make_shared<If>();
  st->cond = cond;
  st->thenB = side(true);
  st->elseB = side(false);
  std::vector<ExpP> sl;
  for (auto &r : st->thenB.results) {
    int o = newVar("r", r->type);
    st->outs.push_back(o);
    sl.push_back(varExp(o, r->type));
  }
  st->span = e.span;
  if (!st->outs.empty()) emit(st);
  size_t si = 0;
  std::function<Val(const TypeP &, std::vector<int>)> build = [&](const TypeP &t, std::vector<int> path) -> Val {
    if (t->kind == arrc::Type::Tuple) {
      std::vector<Val> es;
      for (size_t k = 0; k < t->elems.size(); ++k) {
        auto p = path;
        p.push_back(int(k));
        es.push_back(build(t->elems[k], p));
      }
      return Val::tuple(es, t);
    }
    if (t->isArray()) return deviceArrayIf(e, cond, path);
    return Val::scalar(sl.at(si++), t);
  };
  return build(e.type, {});
}

Val Lowerer::lowerIf(const arrc::If &e) {
  Val c = lower(e.cond);
  if (c.kind != Val::Scalar) error(e.cond->span, "unsupported condition");
  if (device && e.type && e.type->isArray()) return deviceArrayIf(e, c.e);
  if (device && hasArrayType(e.type)) return deviceIfValue(e, c.e);
  Val tv, ev;
  Block tb = condBlock(c.e, [&] { tv = lower(e.then); return leaves(tv, e.then->span); });
  Block eb = condBlock(unaryExp(UnOp::Not, c.e), [&] { ev = lower(e.els); return leaves(ev, e.els->span); });
  if (tb.results.size() != eb.results.size()) error(e.span, "internal: branches of different shapes");
  bool allScalar = tv.kind != Val::Array && ev.kind != Val::Array;
  bool cheap = tb.stmts.empty() && eb.stmts.empty() && allScalar;
  for (auto &r : tb.results) cheap = cheap && isSafe(r);
  for (auto &r : eb.results) cheap = cheap && isSafe(r);
  if (cheap) {
    std::vector<ExpP> rs;
    for (size_t i = 0; i < tb.results.size(); ++i) rs.push_back(selectExp(c.e, tb.results[i], eb.results[i]));
    size_t pos = 0;
    return rebuild(e.type ? e.type : tv.type, rs, pos);
  }
  auto s = std::make_shared<If>();
  s->cond = c.e;
  s->thenB = std::move(tb);
  s->elseB = std::move(eb);
  std::vector<ExpP> rs;
  for (auto &r : s->thenB.results) {
    int o = newVar("r", r->type);
    s->outs.push_back(o);
    rs.push_back(varExp(o, r->type));
  }
  s->span = e.span;
  emit(s);
  size_t pos = 0;
  return rebuild(e.type ? e.type : tv.type, rs, pos);
}

// Inside a parallel body an array in a loop's state cannot be stored: when its
// extents are constants (at most kMaxScalarized elements) it is carried as one
// scalar loop variable per element ("scalarised", like registers) and rebuilt
// as an index function selecting among them.
static const int64_t kMaxScalarized = 64;

static bool constShape(const Lowerer &Lw, const Val &v, std::vector<int64_t> &shape) {
  (void)Lw;
  shape.clear();
  int64_t total = 1;
  for (int k = 0; k < v.rank(); ++k) {
    int64_t c;
    ExpP d = v.kind == Val::Delayed ? v.dims[k] : (v.kind == Val::Array && !v.arrs.empty() ? shapeExp(v.arrs[0], k) : nullptr);
    if (!d || !constValue(d, c) || c < 0) return false;
    shape.push_back(c);
    total *= c;
  }
  return total <= kMaxScalarized;
}

std::vector<ExpP> Lowerer::scalarLeaves(const Val &v, std::vector<std::vector<int64_t>> &shapes, bool record,
                                        size_t &si, const Span &at) {
  switch (v.kind) {
  case Val::Scalar: return {v.e};
  case Val::Tuple: {
    std::vector<ExpP> r;
    for (auto &e : v.elems) {
      auto l = scalarLeaves(e, shapes, record, si, at);
      r.insert(r.end(), l.begin(), l.end());
    }
    return r;
  }
  case Val::Array:
  case Val::Delayed: {
    std::vector<int64_t> shape;
    if (record) {
      if (!constShape(*this, v, shape))
        error(at, "unsupported: an array in a loop's state inside a parallel body needs constant extents (at most " +
                      std::to_string(kMaxScalarized) + " elements)");
      shapes.push_back(shape);
    } else {
      shape = shapes.at(si);
    }
    si++;
    // The value's extents must equal the recorded ones (in-body guard).
    ExpP ok = constBool(true);
    for (int k = 0; k < v.rank(); ++k)
      ok = binaryExp(BinOp::And, ok, binaryExp(BinOp::Eq, extent(v, k, at), constLong(shape[k])));
    ExpP g = record ? constLong(0) : bindScalar("shapeok", deviceGuard(ok, position(at), Check::Shape));
    int64_t total = 1;
    for (auto c : shape) total *= c;
    std::vector<ExpP> r;
    for (int64_t f = 0; f < total; ++f) {
      std::vector<ExpP> idx(shape.size());
      int64_t q = f;
      for (int k = int(shape.size()) - 1; k >= 0; --k) {
        idx[k] = addL(constLong(q % shape[k]), g);
        q /= shape[k];
      }
      auto l = leaves(elementAt(v, idx), at);
      r.insert(r.end(), l.begin(), l.end());
    }
    return r;
  }
  default: error(at, "unsupported: this value in a loop's state inside a parallel body");
  }
}

Val Lowerer::scalarRebuild(const TypeP &t, const std::vector<ExpP> &ls, size_t &pos,
                           const std::vector<std::vector<int64_t>> &shapes, size_t &si) {
  if (t->kind == arrc::Type::Scalar) return Val::scalar(ls.at(pos++), t);
  if (t->kind == arrc::Type::Tuple) {
    std::vector<Val> es;
    for (auto &e : t->elems) es.push_back(scalarRebuild(e, ls, pos, shapes, si));
    return Val::tuple(std::move(es), t);
  }
  std::vector<int64_t> shape = shapes.at(si++);
  std::vector<ScalarKind> ks;
  typeLeaves(t->elem, ks);
  int64_t total = 1;
  for (auto c : shape) total *= c;
  std::vector<ExpP> mine(ls.begin() + pos, ls.begin() + pos + total * ks.size());
  pos += total * ks.size();
  Val d;
  d.kind = Val::Delayed;
  d.type = t;
  for (auto c : shape) d.dims.push_back(constLong(c));
  size_t K = ks.size();
  d.fetch = [this, mine, shape, t, K, total](const std::vector<ExpP> &idx) {
    ExpP flat = constLong(0);
    for (size_t k = 0; k < idx.size(); ++k) flat = addL(mulL(flat, constLong(shape[k])), idx[k]);
    std::vector<ExpP> out;
    for (size_t c = 0; c < K; ++c) {
      if (total == 0) { out.push_back(constZero(mine.empty() ? ScalarKind::Int : mine[0]->type.elem)); continue; }
      ExpP r = mine[(total - 1) * K + c];
      for (int64_t j = total - 2; j >= 0; --j) r = selectExp(binaryExp(BinOp::Eq, flat, constLong(j)), mine[j * K + c], r);
      out.push_back(r);
    }
    size_t p = 0;
    return rebuild(t->elem, out, p);
  };
  return d;
}

static bool hasArray(const TypeP &t) {
  if (!t) return false;
  if (t->isArray()) return true;
  if (t->kind == arrc::Type::Tuple)
    for (auto &e : t->elems)
      if (hasArray(e)) return true;
  return false;
}

// Whether v's arrays have the constant extents `shapes` (in order).
static bool sameConstShapes(const Lowerer &L, const Val &v, const std::vector<std::vector<int64_t>> &shapes, size_t &si) {
  switch (v.kind) {
  case Val::Scalar: return true;
  case Val::Tuple:
    for (auto &e : v.elems)
      if (!sameConstShapes(L, e, shapes, si)) return false;
    return true;
  case Val::Array:
  case Val::Delayed: {
    std::vector<int64_t> shape;
    return si < shapes.size() && constShape(L, v, shape) && shape == shapes[si++];
  }
  default: return false;
  }
}

static bool constShapes(const Lowerer &L, const Val &v) {
  if (v.kind == Val::Tuple) {
    for (auto &e : v.elems)
      if (!constShapes(L, e)) return false;
    return true;
  }
  std::vector<int64_t> shape;
  return v.kind == Val::Scalar || ((v.kind == Val::Array || v.kind == Val::Delayed) && constShape(L, v, shape));
}

Val Lowerer::lowerLoop(const arrc::Loop &e) {
  Val init = lower(e.init);
  TypeP st = e.type ? e.type : init.type;
  bool scal = device && hasArray(st);
  if (scal) {
    // Array state in a body: scalarised when its extents are small constants
    // that the body keeps; otherwise the loop is lifted out of the body
    // (LowerNested.cpp: one host loop over every element's state).
    bool keep = constShapes(*this, init);
    if (keep) {
      std::vector<std::vector<int64_t>> sh;
      size_t si = 0;
      NoHoist nh(*this);
      Block savedDiscard = probeDiscard;
      try {
        subBlock(true, [&] {
          scalarLeaves(init, sh, true, si, e.init->span);
          std::vector<ExpP> ps;
          size_t s2 = 0;
          auto probeLs = scalarLeaves(init, sh, false, s2, e.init->span);
          for (auto &x : probeLs) ps.push_back(varExp(newVar("s", x->type), x->type));
          size_t pos = 0, s3 = 0;
          bindPattern(e.pattern, scalarRebuild(st, ps, pos, sh, s3), false);
          if (e.form == arrc::Loop::For && !e.indexName.empty())
            bind(e.indexName, Val::scalar(varExp(newVar("i", scalarT(ScalarKind::Int)), scalarT(ScalarKind::Int)),
                                          arrc::Type::scalarOf(ScalarKind::Int)));
          Val b = lower(e.body);
          size_t s4 = 0;
          keep = sameConstShapes(*this, b, sh, s4);
          return std::vector<ExpP>{};
        });
      } catch (const LowerError &er) {
        // a loop in the body that must be lifted and reads this loop's
        // state or index: this loop is lifted too (below)
        if (er.message.rfind("unsupported: a loop whose state holds arrays of varying extents", 0) != 0) throw;
        probeDiscard = savedDiscard;
        keep = false;
      }
    }
    if (!keep) {
      Val out;
      nestedLoop(e, init, out);
      return out;
    }
  }
  if (device && !scal && !liftLoopProbe && liftProbe) {
    // Already inside a throwaway probe (its statements are all dropped and
    // only whether it fails matters): one attempt instead of a trial plus a
    // lowering, so nested scalar-state loops cost linear, not exponential,
    // time in their depth.
    Env savedEnv = env;
    Block savedDiscard = probeDiscard;
    Block *savedCur = cur;
    size_t nf = frames.size();
    try {
      return lowerLoopPlain(e, init, st, false);
    } catch (const LowerError &er) {
      if (er.message.rfind("unsupported: a loop whose state holds arrays of varying extents", 0) != 0) throw;
      env = savedEnv;
      probeDiscard = savedDiscard;
      cur = savedCur;
      frames.resize(nf);
      Val out;
      nestedLoop(e, init, out);
      return out;
    }
  }
  if (device && !scal && !liftLoopProbe) {
    // Scalar state, in a body: a loop inside whose body must be lifted but
    // depends on this loop's state: this loop is lifted too (it holds the
    // inner one's host loop).
    try {
      NoHoist nh(*this);
      Block saved = probeDiscard;
      liftProbe++;
      try {
        subBlock(true, [&] { return leaves(lowerLoopPlain(e, init, st, false), e.span); });
      } catch (...) {
        liftProbe--;
        probeDiscard = saved;
        throw;
      }
      liftProbe--;
      probeDiscard = saved;
    } catch (const LowerError &er) {
      if (er.message.rfind("unsupported: a loop whose state holds arrays of varying extents", 0) != 0) throw;
      Val out;
      nestedLoop(e, init, out);
      return out;
    }
  }
  return lowerLoopPlain(e, init, st, scal);
}

Val Lowerer::lowerLoopPlain(const arrc::Loop &e, const Val &init, const TypeP &st, bool scal) {
  std::vector<std::vector<int64_t>> shapes;
  size_t si0 = 0;
  auto ls = scal ? scalarLeaves(init, shapes, true, si0, e.init->span) : leaves(init, e.init->span);
  auto stateOf = [&](const std::vector<ExpP> &xs) {
    size_t pos = 0, si = 0;
    return scal ? scalarRebuild(st, xs, pos, shapes, si) : rebuild(st, xs, pos);
  };
  auto loop = std::make_shared<Loop>();
  loop->form = e.form == arrc::Loop::For ? Loop::For : Loop::While;
  loop->init = ls;
  std::vector<ExpP> params;
  for (auto &x : ls) {
    int p = newVar(e.pattern.kind == Pattern::Var ? e.pattern.name : "s", x->type);
    loop->params.push_back(p);
    params.push_back(varExp(p, x->type));
  }
  auto bindState = [&] { bindPattern(e.pattern, stateOf(params), false); };
  if (loop->form == Loop::For) {
    Val n = lower(e.bound);
    if (n.kind != Val::Scalar) error(e.bound->span, "unsupported loop bound");
    loop->count = n.e;
    loop->index = newVar(e.indexName.empty() ? "i" : e.indexName, n.e->type);
  } else {
    loop->cond = subBlock(device, [&] {
      bindState();
      Val c = lower(e.cond);
      return std::vector<ExpP>{c.e};
    });
  }
  loop->body = subBlock(device, [&] {
    bindState();
    if (loop->form == Loop::For && !e.indexName.empty())
      bind(e.indexName, Val::scalar(varExp(loop->index, loop->count->type), e.bound->type));
    Val b = lower(e.body);
    size_t si = 0;
    auto r = scal ? scalarLeaves(b, shapes, false, si, e.body->span) : leaves(b, e.body->span);
    if (r.size() != params.size()) error(e.body->span, "internal: loop state changes shape");
    return r;
  });
  std::vector<ExpP> outs;
  for (auto &x : ls) {
    int o = newVar(e.pattern.kind == Pattern::Var ? e.pattern.name : "s", x->type);
    loop->outs.push_back(o);
    outs.push_back(varExp(o, x->type));
  }
  loop->span = e.span;
  emit(loop);
  return stateOf(outs);
}

Val Lowerer::lowerCall(const arrc::Call &c) {
  std::vector<Val> args;
  for (auto &a : c.args) args.push_back(lower(a));
  if (c.callee->kind == ExprKind::Var) {
    auto &r = static_cast<const VarRef &>(*c.callee);
    if (r.ref == VarRef::Ref::Function && r.function) return inlineCall(r.function, args, c.span);
    if (r.ref == VarRef::Ref::Intrinsic || (r.ref != VarRef::Ref::Local && r.ref != VarRef::Ref::Param && !lookup(r.name)))
      return intrinsic(r.name, args, c.span, c.type);
  }
  Val f = lower(c.callee);
  return apply(f, args, c.span, c.type);
}

// ------------------------------------------------------------ dispatch
Val Lowerer::lower(const ExprP &ep) {
  if (!ep) error({}, "internal: missing expression");
  const Expr &e = *ep;
  switch (e.kind) {
  case ExprKind::IntLit: {
    auto &x = static_cast<const IntLit &>(e);
    return Val::scalar(constInt(x.value, x.scalar), arrc::Type::scalarOf(x.scalar));
  }
  case ExprKind::FloatLit: {
    auto &x = static_cast<const FloatLit &>(e);
    return Val::scalar(constFloat(x.value, x.scalar), arrc::Type::scalarOf(x.scalar));
  }
  case ExprKind::BoolLit:
    return Val::scalar(constBool(static_cast<const BoolLit &>(e).value), arrc::Type::scalarOf(ScalarKind::Bool));
  case ExprKind::Var: {
    auto &r = static_cast<const VarRef &>(e);
    if (r.ref == VarRef::Ref::Local || r.ref == VarRef::Ref::Param || r.ref == VarRef::Ref::Unresolved) {
      if (const Val *v = lookup(r.name)) return *v;
      if (r.ref != VarRef::Ref::Unresolved) error(e.span, "internal: unbound variable '" + r.name + "'");
    }
    Val f;
    f.kind = Val::Func;
    f.type = e.type;
    f.fn = std::make_shared<FuncVal>();
    f.fn->type = e.type;
    if (r.ref == VarRef::Ref::Function && r.function) {
      f.fn->kind = FuncVal::Decl;
      f.fn->decl = r.function;
    } else {
      f.fn->kind = FuncVal::Intrinsic;
      f.fn->name = r.name;
    }
    return f;
  }
  case ExprKind::Unary: return lowerUnary(static_cast<const arrc::Unary &>(e));
  case ExprKind::Binary: return lowerBinary(static_cast<const arrc::Binary &>(e));
  case ExprKind::If: return lowerIf(static_cast<const arrc::If &>(e));
  case ExprKind::LetIn: {
    auto &x = static_cast<const LetIn &>(e);
    Val v = lower(x.value);
    Env saved = env;
    bindPattern(x.pattern, v, true);
    Val r = lower(x.body);
    env = saved;
    return r;
  }
  case ExprKind::Tuple: {
    auto &x = static_cast<const TupleExpr &>(e);
    std::vector<Val> es;
    std::vector<TypeP> ts;
    for (auto &el : x.elems) {
      es.push_back(lower(el));
      ts.push_back(es.back().type);
    }
    return Val::tuple(es, e.type ? e.type : arrc::Type::tuple(ts));
  }
  case ExprKind::Project: {
    auto &x = static_cast<const Project &>(e);
    Val t = lower(x.tuple);
    if (t.kind != Val::Tuple || x.index < 0 || x.index >= int(t.elems.size()))
      error(e.span, "internal: projection of a non-tuple");
    return t.elems[x.index];
  }
  case ExprKind::Call: return lowerCall(static_cast<const arrc::Call &>(e));
  case ExprKind::Convert: {
    auto &x = static_cast<const arrc::Convert &>(e);
    Val a = lower(x.operand);
    ScalarKind to = x.to;
    auto f = [to](const std::vector<Val> &v) { return Val::scalar(convertExp(v[0].e, to), arrc::Type::scalarOf(to)); };
    if (a.isArrayLike()) return elementwise({a}, e.type, e.span, f);
    return f({a});
  }
  case ExprKind::Lambda: {
    Val f;
    f.kind = Val::Func;
    f.type = e.type;
    f.fn = std::make_shared<FuncVal>();
    f.fn->kind = FuncVal::Lambda;
    f.fn->lambda = static_cast<const arrc::Lambda *>(&e);
    f.fn->env = env;
    f.fn->type = e.type;
    return f;
  }
  case ExprKind::OpSection: {
    Val f;
    f.kind = Val::Func;
    f.type = e.type;
    f.fn = std::make_shared<FuncVal>();
    f.fn->kind = FuncVal::Section;
    f.fn->section = static_cast<const OpSection *>(&e);
    f.fn->type = e.type;
    return f;
  }
  case ExprKind::Loop: return lowerLoop(static_cast<const arrc::Loop &>(e));
  case ExprKind::Range: return lowerRange(static_cast<const arrc::Range &>(e));
  case ExprKind::ArrayLit: return lowerArrayLit(static_cast<const ArrayLit &>(e));
  case ExprKind::New: return lowerNew(static_cast<const New &>(e));
  case ExprKind::Index: return lowerIndex(static_cast<const Index &>(e));
  case ExprKind::With: return lowerWith(static_cast<const With &>(e));
  case ExprKind::Size: {
    auto &x = static_cast<const arrc::Size &>(e);
    Val a = lower(x.array);
    Val ax = lower(x.axis);
    int64_t k;
    if (ax.kind != Val::Scalar) error(x.axis->span, "the axis of size() must be a scalar");
    if (!constValue(ax.e, k)) {
      // A computed axis: a select over the extents, after a bounds check of
      // the axis (a host Check, or an in-body guard).
      ExpP kv = bindScalar("axis", toLong(ax.e));
      ExpP ok = binaryExp(BinOp::And, binaryExp(BinOp::Ge, kv, constLong(0)), binaryExp(BinOp::Lt, kv, constLong(a.rank())));
      int pos = position(x.axis->span);
      std::vector<ExpP> vals{kv, constLong(a.rank()), constLong(0)};
      if (device) {
        kv = bindScalar("axis", addL(kv, deviceGuard(ok, pos, Check::Bounds, vals)));
      } else {
        auto ch = std::make_shared<Check>();
        ch->code = Check::Bounds;
        ch->cond = ok;
        ch->pos = pos;
        ch->values = vals;
        ch->message = "axis of size()";
        ch->span = x.axis->span;
        emit(ch);
      }
      ExpP n = constLong(0);
      for (int j = a.rank() - 1; j >= 0; --j)
        n = selectExp(binaryExp(BinOp::Eq, kv, constLong(j)), extent(a, j, e.span), n);
      ScalarKind rk = e.type && e.type->isScalar() ? e.type->scalar : ScalarKind::Long;
      return Val::scalar(extentAs(n, rk, e.span), arrc::Type::scalarOf(rk));
    }
    if (k < 0 || k >= a.rank()) error(x.axis->span, "axis " + std::to_string(k) + " out of range for an array of rank " + std::to_string(a.rank()));
    ExpP n = extent(a, int(k), e.span);
    ScalarKind rk = e.type && e.type->isScalar() ? e.type->scalar : ScalarKind::Long;
    return Val::scalar(extentAs(n, rk, e.span), arrc::Type::scalarOf(rk));
  }
  case ExprKind::Rank: {
    Val a = lower(static_cast<const arrc::Rank &>(e).array);
    ScalarKind rk = e.type && e.type->isScalar() ? e.type->scalar : ScalarKind::Int;
    return Val::scalar(constInt(a.rank(), rk), arrc::Type::scalarOf(rk));
  }
  case ExprKind::Comprehension: {
    const arrc::Comprehension *cp = &static_cast<const arrc::Comprehension &>(e);
    if (auto narrow = options.narrowRanges ? narrowGuardedRanges(*cp) : nullptr) {
      ownedAst.push_back(narrow);
      cp = narrow.get();
    }
    auto &c = *cp;
    if (c.branches.size() == 1 && c.branches[0].size() > 1 && c.branches[0][0].kind == Qualifier::Let) {
      // Leading lets only see outside names: bind them first, then lower the
      // rest (a copy kept alive for the closures that refer to it).
      auto rest = std::make_shared<arrc::Comprehension>(c);
      size_t k = 0;
      Env saved = env;
      while (k + 1 < c.branches[0].size() && c.branches[0][k].kind == Qualifier::Let) {
        bindPattern(c.branches[0][k].pattern, lower(c.branches[0][k].expr), true);
        ++k;
      }
      rest->branches[0].erase(rest->branches[0].begin(), rest->branches[0].begin() + long(k));
      ownedAst.push_back(rest);
      Val r = device ? deviceComprehension(*rest) : lowerComprehension(*rest);
      env = saved;
      return r;
    }
    return device ? deviceComprehension(c) : lowerComprehension(c);
  }
  }
  error(e.span, "internal: unknown expression");
}

// ------------------------------------------------------------ exports
// One variable per scalar leaf of a parameter, with the leaf's rank: an array
// of tuples gives arrays of the outer rank, a tuple's array component its own.
static void flattenParam(Lowerer &L, const std::string &name, const TypeP &t, int rank, std::vector<int> &vars) {
  if (t && t->kind == arrc::Type::Tuple) {
    for (auto &e : t->elems) flattenParam(L, name, e, rank, vars);
    return;
  }
  if (t && t->isArray()) return flattenParam(L, name, t->elem, rank + t->rank, vars);
  std::vector<ScalarKind> ks;
  typeLeaves(t, ks);
  for (auto k : ks) vars.push_back(L.newVar(name, arrayT(k, rank)));
}

ExpP Lowerer::extentAs(const ExpP &n, ScalarKind k, const Span &at) {
  int64_t c;
  if (k == ScalarKind::Int && !device && !(constValue(n, c) && c <= 2147483647)) {
    ExpP v = bindScalar("extent", toLong(n));
    auto ch = std::make_shared<Check>();
    ch->code = Check::Other;
    ch->cond = binaryExp(BinOp::Le, v, constLong(2147483647));
    ch->pos = position(at);
    ch->message = "an array of 2^31 elements or more: its length does not fit the int that length() and size() return";
    ch->span = at;
    emit(ch);
    return convertExp(v, k);
  }
  return convertExp(n, k);
}

ExpP Lowerer::deviceGuard(ExpP ok, int pos, int code, std::vector<ExpP> values, std::string what) {
  int64_t c;
  if (constValue(ok, c) && c) return constLong(0);
  if (!noHoist && cur == deviceTop && hostBlock) {
    std::set<int> vs;
    expVars(ok, vs);
    for (auto &v : values) expVars(v, vs);
    bool host = true;
    for (int v : vs) host = host && v < deviceVarStart && hostVars.count(v);
    if (host) {
      auto ch = std::make_shared<Check>();
      ch->code = Check::Code(code);
      ch->cond = ok;
      ch->pos = pos;
      ch->values = values;
      static const char *generic[] = {"index out of bounds", "shape mismatch", "zip of arrays of different sizes",
                                   "empty array", "irregular nested array", "check failed", "negative size"};
      bool fewValues = (ch->code == Check::Bounds && ch->values.size() != 3) ||
                       ((ch->code == Check::Shape || ch->code == Check::ZipSize || ch->code == Check::Irregular) &&
                        ch->values.size() < 2) ||
                       (ch->code == Check::Negative && ch->values.empty());
      if (fewValues || ch->code == Check::Other) ch->message = generic[ch->code], ch->code = Check::Other;
      else ch->message = what;
      ch->note = "hoisted from a parallel body";
      hostBlock->stmts.push_back(ch);
      return constLong(0);
    }
  }
  auto it = guardVars.find(code);
  if (it == guardVars.end()) {
    int g = newVar("guard", arrayT(ScalarKind::Long, 1));
    deviceVars.erase(g); // a host Literal (inserted at the start of the export)
    hostVars.insert(g);
    mod.guards.push_back({g, Check::Code(code)});
    it = guardVars.emplace(code, g).first;
  }
  // guard[select(ok, 0, 1), v...]: the values after the index are what the
  // error reports (index, extent, axis; or the two sizes), not indices
  std::vector<ExpP> ix{selectExp(ok, constLong(0), constLong(1))};
  for (size_t k = 0; k < values.size() && k < 3; ++k) ix.push_back(toLong(values[k]));
  return readExp(varExp(it->second, arrayT(ScalarKind::Long, 1)), ix, pos);
}

void Lowerer::lowerExport(const FunDecl &d, Function &out) {
  guardVars.clear();
  hostVars.clear();
  mainFile = d.span.file;
  out.name = d.name;
  out.span = d.span;
  out.resultType = d.result;
  env = nullptr;
  cur = &out.body;
  device = false;
  inlineStack = {&d};
  for (auto &p : d.params) {
    out.paramNames.push_back(p.name);
    out.paramTypes.push_back(p.type);
    std::vector<int> vars;
    if (!p.type) error(p.span, "internal: parameter without a type");
    if (p.type->kind == arrc::Type::Func) error(p.span, "an exported function cannot take a function parameter");
    flattenParam(*this, p.name, p.type, 0, vars);
    out.paramVars.push_back(vars);
    hostVars.insert(vars.begin(), vars.end());
    std::vector<ExpP> ls;
    for (int v : vars) ls.push_back(varExp(mod, v));
    size_t pos = 0;
    bind(p.name, rebuild(p.type, ls, pos));
  }
  Val r = lower(d.body);
  if (r.kind == Val::Func) error(d.span, "an exported function cannot return a function");
  out.body.results = leaves(r, d.body->span);
  static const char *codeNames[] = {"Bounds", "Shape", "ZipSize", "Empty", "Irregular", "Other"};
  for (auto &gv : guardVars) {
    auto g = std::make_shared<ir::Literal>();
    g->shape = {1};
    g->ivals = {0};
    g->outs = {gv.second};
    g->span = d.span;
    g->note = std::string("guard for in-body checks: ") + codeNames[gv.first];
    out.body.stmts.insert(out.body.stmts.begin(), g);
  }
  if (!out.resultType) out.resultType = r.type;
}

// ------------------------------------------------------------ free variables
static void bindNames(const Pattern &p, std::set<std::string> &out) {
  if (p.kind == Pattern::Var) out.insert(p.name);
  for (auto &e : p.elems) bindNames(e, out);
}

void freeVars(const ExprP &ep, std::set<std::string> &out) {
  if (!ep) return;
  const Expr &e = *ep;
  auto sub = [&](const ExprP &x, const std::set<std::string> &bound) {
    std::set<std::string> fv;
    freeVars(x, fv);
    for (auto &n : fv)
      if (!bound.count(n)) out.insert(n);
  };
  switch (e.kind) {
  case ExprKind::Var: {
    auto &r = static_cast<const VarRef &>(e);
    if (r.ref != VarRef::Ref::Function && r.ref != VarRef::Ref::Intrinsic) out.insert(r.name);
    return;
  }
  case ExprKind::IntLit: case ExprKind::FloatLit: case ExprKind::BoolLit: case ExprKind::OpSection: return;
  case ExprKind::Unary: freeVars(static_cast<const arrc::Unary &>(e).operand, out); return;
  case ExprKind::Binary: { auto &x = static_cast<const arrc::Binary &>(e); freeVars(x.lhs, out); freeVars(x.rhs, out); return; }
  case ExprKind::If: { auto &x = static_cast<const arrc::If &>(e); freeVars(x.cond, out); freeVars(x.then, out); freeVars(x.els, out); return; }
  case ExprKind::LetIn: {
    auto &x = static_cast<const LetIn &>(e);
    freeVars(x.value, out);
    std::set<std::string> b;
    bindNames(x.pattern, b);
    sub(x.body, b);
    return;
  }
  case ExprKind::Tuple: for (auto &x : static_cast<const TupleExpr &>(e).elems) freeVars(x, out); return;
  case ExprKind::Project: freeVars(static_cast<const Project &>(e).tuple, out); return;
  case ExprKind::Call: { auto &x = static_cast<const arrc::Call &>(e); freeVars(x.callee, out); for (auto &a : x.args) freeVars(a, out); return; }
  case ExprKind::Convert: freeVars(static_cast<const arrc::Convert &>(e).operand, out); return;
  case ExprKind::Lambda: {
    auto &x = static_cast<const arrc::Lambda &>(e);
    std::set<std::string> b;
    for (auto &p : x.params) bindNames(p, b);
    sub(x.body, b);
    return;
  }
  case ExprKind::Loop: {
    auto &x = static_cast<const arrc::Loop &>(e);
    freeVars(x.init, out);
    freeVars(x.bound, out);
    std::set<std::string> b;
    bindNames(x.pattern, b);
    if (!x.indexName.empty()) b.insert(x.indexName);
    sub(x.cond, b);
    sub(x.body, b);
    return;
  }
  case ExprKind::Range: { auto &x = static_cast<const Range &>(e); freeVars(x.lo, out); freeVars(x.hi, out); return; }
  case ExprKind::ArrayLit: for (auto &x : static_cast<const ArrayLit &>(e).elems) freeVars(x, out); return;
  case ExprKind::New: for (auto &x : static_cast<const New &>(e).dims) freeVars(x, out); return;
  case ExprKind::Index: case ExprKind::With: {
    const std::vector<IndexArg> &args = e.kind == ExprKind::Index ? static_cast<const Index &>(e).args : static_cast<const With &>(e).args;
    freeVars(e.kind == ExprKind::Index ? static_cast<const Index &>(e).array : static_cast<const With &>(e).array, out);
    if (e.kind == ExprKind::With) freeVars(static_cast<const With &>(e).value, out);
    for (auto &a : args) {
      freeVars(a.index, out);
      freeVars(a.first, out);
      freeVars(a.last, out);
      freeVars(a.step, out);
    }
    return;
  }
  case ExprKind::Size: { auto &x = static_cast<const arrc::Size &>(e); freeVars(x.array, out); freeVars(x.axis, out); return; }
  case ExprKind::Rank: freeVars(static_cast<const arrc::Rank &>(e).array, out); return;
  case ExprKind::Comprehension: {
    auto &x = static_cast<const arrc::Comprehension &>(e);
    std::set<std::string> all;
    for (auto &br : x.branches) {
      std::set<std::string> b;
      for (auto &q : br) {
        sub(q.expr, b);
        if (q.kind != Qualifier::Filter) bindNames(q.pattern, b);
      }
      all.insert(b.begin(), b.end());
    }
    sub(x.head, all);
    return;
  }
  }
}

} // namespace arrc::lower
