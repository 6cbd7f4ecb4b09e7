// Guarded ranges: a comprehension generator over a range followed by a
// filter that bounds its variable, `z <- [lo..<hi], z < e`, runs over the
// narrowed range `z <- [lo..<min(hi, e)]` and loses the filter. The same
// elements come out in the same order (the filter would have dropped the
// others), but nothing is generated only to be dropped: in the Pythagorean
// triples of LANGUAGE.md §5, `z <- [y..<(x+y)], z < n` walks half as many z.
//
// A filter is used when it is `z OP e` or `e OP z` (OP one of < <= > >=),
// e does not mention z, has z's type and cannot fail (variables, literals,
// arithmetic), and every filter between the generator and it cannot fail
// either: those are evaluated, in order, only for elements that reach them,
// so skipping them for dropped elements must not hide an error.
#include "Lower.h"

namespace arrc::lower {
namespace {

const VarRef *asVar(const ExprP &e) {
  if (!e || e->kind != ExprKind::Var) return nullptr;
  auto &v = static_cast<const VarRef &>(*e);
  return v.ref == VarRef::Ref::Local || v.ref == VarRef::Ref::Param ? &v : nullptr;
}

// An array variable, as the argument of length() or size().
bool isArrayVar(const ExprP &e) {
  const VarRef *v = asVar(e);
  return v && e->type && e->type->isArray();
}

// Integer arithmetic, comparisons and logic over variables, literals and
// the extents of array variables: nothing that can raise an error (Arr's
// x / 0 and x % 0 are 0).
bool cannotFail(const ExprP &e) {
  if (!e || !e->type || !e->type->isScalar()) return false;
  switch (e->kind) {
  case ExprKind::IntLit:
  case ExprKind::BoolLit: return true;
  case ExprKind::Var: return asVar(e) != nullptr;
  case ExprKind::Call: {  // length(xs)
    auto &c = static_cast<const arrc::Call &>(*e);
    auto *f = c.callee && c.callee->kind == ExprKind::Var ? static_cast<const VarRef *>(c.callee.get()) : nullptr;
    return f && f->ref == VarRef::Ref::Intrinsic && f->name == "length" && c.args.size() == 1 && isArrayVar(c.args[0]);
  }
  case ExprKind::Size: {  // xs.size(k) with k a literal within the rank
    auto &z = static_cast<const arrc::Size &>(*e);
    if (!isArrayVar(z.array) || !z.axis || z.axis->kind != ExprKind::IntLit) return false;
    int64_t k = static_cast<const arrc::IntLit &>(*z.axis).value;
    return k >= 0 && k < z.array->type->rank;
  }
  case ExprKind::Unary: return cannotFail(static_cast<const arrc::Unary &>(*e).operand);
  case ExprKind::Binary: {
    auto &b = static_cast<const arrc::Binary &>(*e);
    if (b.op == BinOp::Shl || b.op == BinOp::Shr || b.op == BinOp::Concat) return false;
    return cannotFail(b.lhs) && cannotFail(b.rhs);
  }
  default: return false;
  }
}

bool isIntType(const TypeP &t) {
  return t && (t->isScalar(ScalarKind::Int) || t->isScalar(ScalarKind::Long));
}

ExprP typed(ExprP e, const TypeP &t, const Span &at) {
  e->type = t;
  e->span = at;
  return e;
}
ExprP binary(BinOp op, ExprP l, ExprP r, const TypeP &t, const Span &at) {
  auto b = std::make_shared<arrc::Binary>();
  b->op = op;
  b->lhs = std::move(l);
  b->rhs = std::move(r);
  return typed(b, t, at);
}
ExprP ifThen(ExprP c, ExprP t, ExprP f, const Span &at) {
  auto i = std::make_shared<arrc::If>();
  TypeP ty = t->type;
  i->cond = std::move(c);
  i->then = std::move(t);
  i->els = std::move(f);
  return typed(i, ty, at);
}
ExprP one(const TypeP &t, const Span &at) {
  auto l = std::make_shared<arrc::IntLit>();
  l->value = 1;
  l->scalar = t->scalar;
  return typed(l, t, at);
}

// The bound a filter puts on z: z OP e, with the comparison turned around
// when z is on the right. False if the filter is not such a bound.
bool boundOf(const ExprP &f, const std::string &z, const TypeP &zt, BinOp &op, ExprP &e) {
  if (!f || f->kind != ExprKind::Binary) return false;
  auto &b = static_cast<const arrc::Binary &>(*f);
  static const std::pair<BinOp, BinOp> flips[] = {
      {BinOp::Lt, BinOp::Gt}, {BinOp::Le, BinOp::Ge}, {BinOp::Gt, BinOp::Lt}, {BinOp::Ge, BinOp::Le}};
  const BinOp *flipped = nullptr;
  for (auto &p : flips)
    if (p.first == b.op) flipped = &p.second;
  if (!flipped) return false;
  auto isZ = [&](const ExprP &x) { auto *v = asVar(x); return v && v->name == z; };
  if (isZ(b.lhs)) op = b.op, e = b.rhs;
  else if (isZ(b.rhs)) op = *flipped, e = b.lhs;
  else return false;
  if (!e->type || !zt || !e->type->isScalar(zt->scalar) || !cannotFail(e)) return false;
  std::set<std::string> fv;
  freeVars(e, fv);
  return !fv.count(z);
}

// [lo..<hi] or [lo..hi] narrowed by z OP e, or nullptr where that form is
// not handled (< and > on inclusive ranges, whose e - 1 / e + 1 could wrap).
// Every e + 1 sits under a test e < hi, so it cannot wrap either.
ExprP narrowed(const arrc::Range &r, BinOp op, const ExprP &e, const TypeP &bt, const Span &at) {
  const TypeP &t = r.lo->type;
  ExprP lo = r.lo, hi = r.hi;
  auto lt = [&](ExprP a, ExprP b) { return binary(BinOp::Lt, std::move(a), std::move(b), bt, at); };
  auto plus1 = [&](ExprP a) { return binary(BinOp::Add, std::move(a), one(t, at), t, at); };
  switch (op) {
  case BinOp::Lt:  // z < e
    if (r.inclusive) return nullptr;
    hi = ifThen(lt(e, hi), e, hi, at);
    break;
  case BinOp::Le:  // z <= e
    hi = r.inclusive ? ifThen(lt(e, hi), e, hi, at) : ifThen(lt(e, hi), plus1(e), hi, at);
    break;
  case BinOp::Ge:  // z >= e
    lo = ifThen(lt(lo, e), e, lo, at);
    break;
  case BinOp::Gt:  // z > e: from e + 1, or empty when e >= hi
    if (r.inclusive) return nullptr;
    lo = ifThen(lt(e, lo), lo, ifThen(lt(e, hi), plus1(e), hi, at), at);
    break;
  default: return nullptr;
  }
  auto n = std::make_shared<arrc::Range>();
  n->lo = lo;
  n->hi = hi;
  n->inclusive = r.inclusive;
  return typed(n, r.type, r.span);
}

// `a && b` as two filters `a, b` (b runs only where a holds, either way), so
// that a bound inside a conjunction is found too.
void splitConjunctions(std::vector<Qualifier> &qs) {
  for (size_t k = 0; k < qs.size();) {
    const Expr *f = qs[k].kind == Qualifier::Filter ? qs[k].expr.get() : nullptr;
    if (!f || f->kind != ExprKind::Binary || static_cast<const arrc::Binary &>(*f).op != BinOp::And) {
      ++k;
      continue;
    }
    ExprP keep = qs[k].expr;  // the conjunction, alive while it is taken apart
    auto &b = static_cast<const arrc::Binary &>(*keep);
    Qualifier rhs = qs[k];
    rhs.expr = b.rhs;
    qs[k].expr = b.lhs;  // looked at again: it may be a conjunction too
    qs.insert(qs.begin() + long(k) + 1, rhs);
  }
}

bool narrowBranch(std::vector<Qualifier> &qs) {
  bool changed = false;
  for (size_t g = 0; g < qs.size(); ++g) {
    Qualifier &gen = qs[g];
    if (gen.kind != Qualifier::Bind || gen.pattern.kind != Pattern::Var || !gen.expr ||
        gen.expr->kind != ExprKind::Range)
      continue;
    const TypeP zt = static_cast<const arrc::Range &>(*gen.expr).lo->type;
    const TypeP ht = static_cast<const arrc::Range &>(*gen.expr).hi->type;
    if (!isIntType(zt) || !ht || !ht->isScalar(zt->scalar)) continue;
    size_t k = g + 1;
    while (k < qs.size() && qs[k].kind == Qualifier::Filter) {
      BinOp op;
      ExprP e;
      if (boundOf(qs[k].expr, gen.pattern.name, zt, op, e)) {
        auto &r = static_cast<const arrc::Range &>(*gen.expr);
        if (ExprP n = narrowed(r, op, e, qs[k].expr->type, qs[k].span)) {
          gen.expr = n;
          qs.erase(qs.begin() + long(k));
          changed = true;
          continue;
        }
      }
      if (!cannotFail(qs[k].expr)) break;
      ++k;
    }
  }
  return changed;
}

}  // namespace

std::shared_ptr<const arrc::Comprehension> narrowGuardedRanges(const arrc::Comprehension &c) {
  auto copy = std::make_shared<arrc::Comprehension>(c);
  bool changed = false;
  for (auto &br : copy->branches) {
    // split conjunctions narrow wherever the filters as written do, and more;
    // the split form is kept only where it narrows something
    std::vector<Qualifier> split = br;
    splitConjunctions(split);
    if (narrowBranch(split)) {
      br = std::move(split);
      changed = true;
    }
  }
  return changed ? copy : nullptr;
}

}  // namespace arrc::lower
