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

} // namespace arrc::tc
