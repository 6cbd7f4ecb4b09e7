#include "arrc/AST.h"

#include "arrc/AstWalk.h"

#include <utility>
#include <vector>

namespace arrc {

const char *spelling(BinOp op) {
  switch (op) {
  case BinOp::Add: return "+";
  case BinOp::Sub: return "-";
  case BinOp::Mul: return "*";
  case BinOp::Div: return "/";
  case BinOp::Mod: return "%";
  case BinOp::Eq: return "==";
  case BinOp::Ne: return "!=";
  case BinOp::Lt: return "<";
  case BinOp::Le: return "<=";
  case BinOp::Gt: return ">";
  case BinOp::Ge: return ">=";
  case BinOp::And: return "&&";
  case BinOp::Or: return "||";
  case BinOp::BitAnd: return "&";
  case BinOp::BitOr: return "|";
  case BinOp::BitXor: return "^";
  case BinOp::Shl: return "<<";
  case BinOp::Shr: return ">>";
  case BinOp::Concat: return "++";
  }
  return "?";
}

const char *spelling(UnOp op) {
  switch (op) {
  case UnOp::Neg: return "-";
  case UnOp::Not: return "!";
  case UnOp::BitNot: return "~";
  }
  return "?";
}

static void visitArgs(std::vector<IndexArg> &args, const std::function<void(ExprP &)> &fn) {
  for (auto &a : args) {
    if (a.index) fn(a.index);
    if (a.first) fn(a.first);
    if (a.last) fn(a.last);
    if (a.step) fn(a.step);
  }
}

void forEachChild(Expr &e, const std::function<void(ExprP &)> &f) {
  auto fn = [&](ExprP &p) {
    if (p) f(p);
  };
  switch (e.kind) {
  case ExprKind::IntLit:
  case ExprKind::FloatLit:
  case ExprKind::BoolLit:
  case ExprKind::Var:
  case ExprKind::OpSection:
    return;
  case ExprKind::Unary: fn(static_cast<Unary &>(e).operand); return;
  case ExprKind::Binary: {
    auto &b = static_cast<Binary &>(e);
    fn(b.lhs);
    fn(b.rhs);
    return;
  }
  case ExprKind::If: {
    auto &x = static_cast<If &>(e);
    fn(x.cond);
    fn(x.then);
    fn(x.els);
    return;
  }
  case ExprKind::LetIn: {
    auto &x = static_cast<LetIn &>(e);
    fn(x.value);
    fn(x.body);
    return;
  }
  case ExprKind::Tuple:
    for (auto &c : static_cast<TupleExpr &>(e).elems) fn(c);
    return;
  case ExprKind::Project: fn(static_cast<Project &>(e).tuple); return;
  case ExprKind::Call: {
    auto &x = static_cast<Call &>(e);
    fn(x.callee);
    for (auto &c : x.args) fn(c);
    return;
  }
  case ExprKind::Convert: fn(static_cast<Convert &>(e).operand); return;
  case ExprKind::Lambda: fn(static_cast<Lambda &>(e).body); return;
  case ExprKind::Loop: {
    auto &x = static_cast<Loop &>(e);
    fn(x.init);
    fn(x.bound);
    fn(x.cond);
    fn(x.body);
    return;
  }
  case ExprKind::Range: {
    auto &x = static_cast<Range &>(e);
    fn(x.lo);
    fn(x.hi);
    return;
  }
  case ExprKind::ArrayLit:
    for (auto &c : static_cast<ArrayLit &>(e).elems) fn(c);
    return;
  case ExprKind::New:
    for (auto &c : static_cast<New &>(e).dims) fn(c);
    return;
  case ExprKind::Index: {
    auto &x = static_cast<Index &>(e);
    fn(x.array);
    visitArgs(x.args, fn);
    return;
  }
  case ExprKind::With: {
    auto &x = static_cast<With &>(e);
    fn(x.array);
    visitArgs(x.args, fn);
    fn(x.value);
    return;
  }
  case ExprKind::Size: {
    auto &x = static_cast<Size &>(e);
    fn(x.array);
    fn(x.axis);
    return;
  }
  case ExprKind::Rank: fn(static_cast<Rank &>(e).array); return;
  case ExprKind::Comprehension: {
    auto &x = static_cast<Comprehension &>(e);
    fn(x.head);
    for (auto &br : x.branches)
      for (auto &q : br) fn(q.expr);
    return;
  }
  }
}

int exprDepth(const ExprP &root) {
  if (!root) return 0;
  int best = 0;
  std::vector<std::pair<Expr *, int>> stack{{root.get(), 1}};
  while (!stack.empty()) {
    // Not a structured binding: C++17 does not let the lambda below capture one.
    Expr *e = stack.back().first;
    int d = stack.back().second;
    stack.pop_back();
    if (d > best) best = d;
    forEachChild(*e, [&](ExprP &c) { stack.push_back({c.get(), d + 1}); });
  }
  return best;
}

void releaseTree(ExprP &root) {
  std::vector<ExprP> pending;
  if (root) pending.push_back(std::move(root));
  root.reset();
  while (!pending.empty()) {
    ExprP e = std::move(pending.back());
    pending.pop_back();
    if (e.use_count() == 1)
      forEachChild(*e, [&](ExprP &c) { pending.push_back(std::move(c)); });
    // e is freed here with no children left (or it is still shared).
  }
}

} // namespace arrc
