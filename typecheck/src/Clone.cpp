// Deep copies of expressions (for generic instantiation) and a child visitor.
#include "Internal.h"

namespace arrc::tc {

template <class T> static std::shared_ptr<T> copyNode(const Expr &e) {
  return std::make_shared<T>(static_cast<const T &>(e));
}

IndexArg cloneIndexArg(const IndexArg &a) {
  IndexArg r = a;
  r.index = cloneExpr(a.index);
  r.first = cloneExpr(a.first);
  r.last = cloneExpr(a.last);
  r.step = cloneExpr(a.step);
  return r;
}

ExprP cloneExpr(const ExprP &e) {
  if (!e)
    return nullptr;
  ExprP r;
  switch (e->kind) {
  case ExprKind::IntLit: r = copyNode<IntLit>(*e); break;
  case ExprKind::FloatLit: r = copyNode<FloatLit>(*e); break;
  case ExprKind::BoolLit: r = copyNode<BoolLit>(*e); break;
  case ExprKind::Var: r = copyNode<VarRef>(*e); break;
  case ExprKind::Unary: r = copyNode<Unary>(*e); break;
  case ExprKind::Binary: r = copyNode<Binary>(*e); break;
  case ExprKind::If: r = copyNode<If>(*e); break;
  case ExprKind::LetIn: r = copyNode<LetIn>(*e); break;
  case ExprKind::Tuple: r = copyNode<TupleExpr>(*e); break;
  case ExprKind::Project: r = copyNode<Project>(*e); break;
  case ExprKind::Call: r = copyNode<Call>(*e); break;
  case ExprKind::Convert: r = copyNode<Convert>(*e); break;
  case ExprKind::Lambda: r = copyNode<Lambda>(*e); break;
  case ExprKind::OpSection: r = copyNode<OpSection>(*e); break;
  case ExprKind::Loop: r = copyNode<Loop>(*e); break;
  case ExprKind::Range: r = copyNode<Range>(*e); break;
  case ExprKind::ArrayLit: r = copyNode<ArrayLit>(*e); break;
  case ExprKind::New: r = copyNode<New>(*e); break;
  case ExprKind::Index: {
    auto n = copyNode<Index>(*e);
    for (auto &a : n->args)
      a = cloneIndexArg(a);
    n->array = cloneExpr(n->array);
    return n;
  }
  case ExprKind::With: {
    auto n = copyNode<With>(*e);
    for (auto &a : n->args)
      a = cloneIndexArg(a);
    n->array = cloneExpr(n->array);
    n->value = cloneExpr(n->value);
    return n;
  }
  case ExprKind::Size: r = copyNode<Size>(*e); break;
  case ExprKind::Rank: r = copyNode<Rank>(*e); break;
  case ExprKind::Comprehension: {
    auto n = copyNode<Comprehension>(*e);
    n->head = cloneExpr(n->head);
    for (auto &b : n->branches)
      for (auto &q : b)
        q.expr = cloneExpr(q.expr);
    return n;
  }
  }
  forEachChild(*r, [](ExprP &c) { c = cloneExpr(c); });
  return r;
}

void forEachChild(Expr &e, const std::function<void(ExprP &)> &f) {
  auto g = [&](ExprP &c) {
    if (c)
      f(c);
  };
  auto args = [&](std::vector<IndexArg> &as) {
    for (auto &a : as) {
      g(a.index);
      g(a.first);
      g(a.last);
      g(a.step);
    }
  };
  switch (e.kind) {
  case ExprKind::IntLit:
  case ExprKind::FloatLit:
  case ExprKind::BoolLit:
  case ExprKind::Var:
  case ExprKind::OpSection:
    break;
  case ExprKind::Unary: g(static_cast<Unary &>(e).operand); break;
  case ExprKind::Binary: {
    auto &b = static_cast<Binary &>(e);
    g(b.lhs);
    g(b.rhs);
    break;
  }
  case ExprKind::If: {
    auto &b = static_cast<If &>(e);
    g(b.cond);
    g(b.then);
    g(b.els);
    break;
  }
  case ExprKind::LetIn: {
    auto &b = static_cast<LetIn &>(e);
    g(b.value);
    g(b.body);
    break;
  }
  case ExprKind::Tuple:
    for (auto &c : static_cast<TupleExpr &>(e).elems)
      g(c);
    break;
  case ExprKind::Project: g(static_cast<Project &>(e).tuple); break;
  case ExprKind::Call: {
    auto &b = static_cast<Call &>(e);
    g(b.callee);
    for (auto &c : b.args)
      g(c);
    break;
  }
  case ExprKind::Convert: g(static_cast<Convert &>(e).operand); break;
  case ExprKind::Lambda: g(static_cast<Lambda &>(e).body); break;
  case ExprKind::Loop: {
    auto &b = static_cast<Loop &>(e);
    g(b.init);
    g(b.bound);
    g(b.cond);
    g(b.body);
    break;
  }
  case ExprKind::Range: {
    auto &b = static_cast<Range &>(e);
    g(b.lo);
    g(b.hi);
    break;
  }
  case ExprKind::ArrayLit:
    for (auto &c : static_cast<ArrayLit &>(e).elems)
      g(c);
    break;
  case ExprKind::New:
    for (auto &c : static_cast<New &>(e).dims)
      g(c);
    break;
  case ExprKind::Index: {
    auto &b = static_cast<Index &>(e);
    g(b.array);
    args(b.args);
    break;
  }
  case ExprKind::With: {
    auto &b = static_cast<With &>(e);
    g(b.array);
    args(b.args);
    g(b.value);
    break;
  }
  case ExprKind::Size: {
    auto &b = static_cast<Size &>(e);
    g(b.array);
    g(b.axis);
    break;
  }
  case ExprKind::Rank: g(static_cast<Rank &>(e).array); break;
  case ExprKind::Comprehension: {
    auto &b = static_cast<Comprehension &>(e);
    for (auto &br : b.branches)
      for (auto &q : br)
        g(q.expr);
    g(b.head);
    break;
  }
  }
}

} // namespace arrc::tc
