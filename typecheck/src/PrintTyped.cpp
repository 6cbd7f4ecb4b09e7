// --emit=typed: one node a line, indented two spaces per level:
//   <Node> <detail> : <type> <line:col-line:col>
#include "Internal.h"

#include <ostream>

namespace arrc {
namespace {

std::string spanText(const Span &s) {
  if (!s.valid())
    return "";
  return " <" + std::to_string(s.begin.line) + ":" + std::to_string(s.begin.col) + "-" +
         std::to_string(s.end.line) + ":" + std::to_string(s.end.col) + ">";
}

std::string patternText(const Pattern &p) {
  switch (p.kind) {
  case Pattern::Var: return p.name;
  case Pattern::Wildcard: return "_";
  case Pattern::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < p.elems.size(); ++i)
      s += (i ? ", " : "") + patternText(p.elems[i]);
    return s + ")";
  }
  }
  return "?";
}

struct Printer {
  std::ostream &out;

  void line(int depth, const std::string &text, const TypeP &type, const Span &span) {
    out << std::string(2 * depth, ' ') << text;
    if (type)
      out << " : " << toString(type);
    out << spanText(span) << "\n";
  }
  void pattern(int depth, const char *what, const Pattern &p) {
    line(depth, std::string(what) + " " + patternText(p), p.type, p.span);
  }
  void indexArgs(int depth, const std::vector<IndexArg> &args) {
    for (auto &a : args) {
      switch (a.kind) {
      case IndexArg::Single:
        line(depth, "Subscript", nullptr, a.span);
        expr(depth + 1, a.index);
        break;
      case IndexArg::Triplet:
        line(depth, a.step ? "Triplet first:last:step" : "Triplet first:last", nullptr, a.span);
        expr(depth + 1, a.first);
        expr(depth + 1, a.last);
        if (a.step)
          expr(depth + 1, a.step);
        break;
      case IndexArg::All: line(depth, "All :", nullptr, a.span); break;
      }
    }
  }

  void expr(int d, const ExprP &ep) {
    if (!ep) {
      line(d, "<null>", nullptr, {});
      return;
    }
    const Expr &e = *ep;
    auto self = [&](const std::string &text) { line(d, text, e.type, e.span); };
    switch (e.kind) {
    case ExprKind::IntLit: {
      auto &x = static_cast<const IntLit &>(e);
      self("Int " + std::to_string(x.value) + (x.scalar == ScalarKind::Long ? "L" : ""));
      return;
    }
    case ExprKind::FloatLit: {
      auto &x = static_cast<const FloatLit &>(e);
      self("Float " + (x.text.empty() ? std::to_string(x.value) : x.text));
      return;
    }
    case ExprKind::BoolLit:
      self(std::string("Bool ") + (static_cast<const BoolLit &>(e).value ? "true" : "false"));
      return;
    case ExprKind::Var: {
      auto &v = static_cast<const VarRef &>(e);
      std::string ref;
      switch (v.ref) {
      case VarRef::Ref::Unresolved: ref = "unresolved"; break;
      case VarRef::Ref::Local: ref = "local"; break;
      case VarRef::Ref::Param: ref = "param"; break;
      case VarRef::Ref::Function:
        ref = "function " + (v.function ? v.function->name : std::string("?"));
        break;
      case VarRef::Ref::Intrinsic: ref = "intrinsic"; break;
      }
      self("Var " + v.name + " [" + ref + "]");
      return;
    }
    case ExprKind::Unary: {
      auto &x = static_cast<const Unary &>(e);
      self(std::string("Unary ") + spelling(x.op));
      expr(d + 1, x.operand);
      return;
    }
    case ExprKind::Binary: {
      auto &x = static_cast<const Binary &>(e);
      self(std::string("Binary ") + spelling(x.op));
      expr(d + 1, x.lhs);
      expr(d + 1, x.rhs);
      return;
    }
    case ExprKind::If: {
      auto &x = static_cast<const If &>(e);
      self("If");
      expr(d + 1, x.cond);
      expr(d + 1, x.then);
      expr(d + 1, x.els);
      return;
    }
    case ExprKind::LetIn: {
      auto &x = static_cast<const LetIn &>(e);
      self("Let");
      pattern(d + 1, "Pattern", x.pattern);
      expr(d + 1, x.value);
      expr(d + 1, x.body);
      return;
    }
    case ExprKind::Tuple:
      self("Tuple");
      for (auto &c : static_cast<const TupleExpr &>(e).elems)
        expr(d + 1, c);
      return;
    case ExprKind::Project: {
      auto &x = static_cast<const Project &>(e);
      self("Project ." + std::to_string(x.index));
      expr(d + 1, x.tuple);
      return;
    }
    case ExprKind::Call: {
      auto &x = static_cast<const Call &>(e);
      self("Call");
      expr(d + 1, x.callee);
      for (auto &c : x.args)
        expr(d + 1, c);
      return;
    }
    case ExprKind::Convert: {
      auto &x = static_cast<const Convert &>(e);
      self("Convert " + toString(x.to));
      expr(d + 1, x.operand);
      return;
    }
    case ExprKind::Lambda: {
      auto &x = static_cast<const Lambda &>(e);
      self("Lambda");
      for (auto &p : x.params)
        pattern(d + 1, "Param", p);
      expr(d + 1, x.body);
      return;
    }
    case ExprKind::OpSection: {
      auto &x = static_cast<const OpSection &>(e);
      self(std::string("OpSection (") + (x.isBinOp ? spelling(x.op) : x.function.c_str()) + ")");
      return;
    }
    case ExprKind::Loop: {
      auto &x = static_cast<const Loop &>(e);
      self(x.form == Loop::For ? "Loop for " + x.indexName : std::string("Loop while"));
      pattern(d + 1, "State", x.pattern);
      expr(d + 1, x.init);
      if (x.form == Loop::For)
        expr(d + 1, x.bound);
      else
        expr(d + 1, x.cond);
      expr(d + 1, x.body);
      return;
    }
    case ExprKind::Range: {
      auto &x = static_cast<const Range &>(e);
      self(x.inclusive ? "Range .." : "Range ..<");
      expr(d + 1, x.lo);
      expr(d + 1, x.hi);
      return;
    }
    case ExprKind::ArrayLit:
      self("ArrayLit");
      for (auto &c : static_cast<const ArrayLit &>(e).elems)
        expr(d + 1, c);
      return;
    case ExprKind::New: {
      auto &x = static_cast<const New &>(e);
      self("New " + toString(x.elemType));
      for (auto &c : x.dims)
        expr(d + 1, c);
      return;
    }
    case ExprKind::Index: {
      auto &x = static_cast<const Index &>(e);
      self(x.isSection() ? "Section" : "Index");
      expr(d + 1, x.array);
      indexArgs(d + 1, x.args);
      return;
    }
    case ExprKind::With: {
      auto &x = static_cast<const With &>(e);
      self("With");
      expr(d + 1, x.array);
      indexArgs(d + 1, x.args);
      expr(d + 1, x.value);
      return;
    }
    case ExprKind::Size: {
      auto &x = static_cast<const Size &>(e);
      self("Size");
      expr(d + 1, x.array);
      expr(d + 1, x.axis);
      return;
    }
    case ExprKind::Rank:
      self("Rank");
      expr(d + 1, static_cast<const Rank &>(e).array);
      return;
    case ExprKind::Comprehension: {
      auto &x = static_cast<const Comprehension &>(e);
      self("Comprehension");
      expr(d + 1, x.head);
      for (size_t b = 0; b < x.branches.size(); ++b) {
        line(d + 1, "Branch " + std::to_string(b), nullptr, {});
        for (auto &q : x.branches[b]) {
          switch (q.kind) {
          case Qualifier::Bind: pattern(d + 2, "Bind", q.pattern); break;
          case Qualifier::Let: pattern(d + 2, "LetQ", q.pattern); break;
          case Qualifier::Filter: line(d + 2, "Filter", nullptr, q.span); break;
          }
          expr(d + 3, q.expr);
        }
      }
      return;
    }
    }
  }

  void function(const FunDecl &f) {
    std::string s = f.exported ? "export " : "def ";
    s += f.name + "(";
    for (size_t i = 0; i < f.params.size(); ++i)
      s += (i ? ", " : "") + f.params[i].name + " : " + toString(f.params[i].type);
    s += ") : " + toString(f.result);
    if (!f.instanceOf.empty())
      s += " [instance of " + f.instanceOf + "]";
    line(0, s, nullptr, f.nameSpan.valid() ? f.nameSpan : f.span);
    expr(1, f.body);
  }
};

} // namespace

void printTyped(const Program &program, const SourceManager &sources, std::ostream &out) {
  (void)sources;
  Printer p{out};
  for (auto &f : program.instances)
    if (f)
      p.function(*f);
}

} // namespace arrc
