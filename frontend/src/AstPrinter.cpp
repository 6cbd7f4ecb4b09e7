// `arrc --emit=ast`: a stable, readable dump of the AST, one node a line.
//
//   Module dot "examples/dot.arr"
//     FunDecl export dot : double  <3:1-3:70>
//       Param a : double[[*]]  <3:19-3:32>
//       Call  <3:50-3:69>
//         Var sum  <3:50-3:53>
//         ...
#include "arrc/Frontend.h"

#include <ostream>
#include <sstream>

namespace arrc {
namespace {

std::string spanText(const Span &s) {
  if (!s.valid())
    return "";
  std::ostringstream o;
  o << "  <" << s.begin.line << ":" << s.begin.col << "-" << s.end.line << ":" << s.end.col << ">";
  return o.str();
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

class Printer {
public:
  explicit Printer(std::ostream &out) : out_(out) {}

  void module(const Module &m, int depth) {
    for (auto &i : m.imports)
      line(depth, "Import \"" + i.path + "\"" +
                      (i.module >= 0 ? " -> module " + std::to_string(i.module) : ""),
           i.span);
    for (auto &a : m.aliases)
      line(depth, "TypeAlias " + a.name + " = " + toString(a.type), a.span);
    for (auto &f : m.functions)
      function(*f, depth);
  }

private:
  std::ostream &out_;

  void line(int depth, const std::string &text, const Span &s) {
    // Iterative callers may nest very deeply; the indentation is capped.
    out_ << std::string(static_cast<size_t>(std::min(depth, 200)) * 2, ' ') << text << spanText(s)
         << "\n";
  }

  void function(const FunDecl &f, int d) {
    std::string head = "FunDecl ";
    head += f.exported ? "export " : "def ";
    head += f.name;
    if (!f.typeParams.empty()) {
      head += " <";
      for (size_t i = 0; i < f.typeParams.size(); ++i)
        head += (i ? ", " : "") + f.typeParams[i];
      head += ">";
    }
    head += " : " + toString(f.result);
    line(d, head, f.span);
    for (auto &p : f.params)
      line(d + 1, "Param " + p.name + " : " + toString(p.type), p.span);
    if (f.body)
      expr(*f.body, d + 1);
  }

  void args(const std::vector<IndexArg> &as, int d) {
    for (auto &a : as) {
      switch (a.kind) {
      case IndexArg::Single:
        line(d, "Arg index", a.span);
        if (a.index) expr(*a.index, d + 1);
        break;
      case IndexArg::Triplet:
        line(d, a.step ? "Arg first:last:step" : "Arg first:last", a.span);
        if (a.first) expr(*a.first, d + 1);
        if (a.last) expr(*a.last, d + 1);
        if (a.step) expr(*a.step, d + 1);
        break;
      case IndexArg::All:
        line(d, "Arg :", a.span);
        break;
      }
    }
  }

  void expr(const Expr &e, int d) {
    auto sub = [&](const ExprP &c) {
      if (c) expr(*c, d + 1);
    };
    std::string typeSuffix = e.type ? " : " + toString(e.type) : "";
    switch (e.kind) {
    case ExprKind::IntLit: {
      auto &x = static_cast<const IntLit &>(e);
      line(d, "IntLit " + std::to_string(x.value) + (x.scalar == ScalarKind::Long ? "L" : "") +
                  typeSuffix,
           e.span);
      return;
    }
    case ExprKind::FloatLit: {
      auto &x = static_cast<const FloatLit &>(e);
      std::string text = x.text;
      if (text.empty()) {
        std::ostringstream o;
        o.precision(17);
        o << x.value;
        text = o.str() + (x.scalar == ScalarKind::Float ? "f" : "");
      }
      line(d, "FloatLit " + text + typeSuffix, e.span);
      return;
    }
    case ExprKind::BoolLit:
      line(d, std::string("BoolLit ") + (static_cast<const BoolLit &>(e).value ? "true" : "false") +
                  typeSuffix,
           e.span);
      return;
    case ExprKind::Var:
      line(d, "Var " + static_cast<const VarRef &>(e).name + typeSuffix, e.span);
      return;
    case ExprKind::Unary: {
      auto &x = static_cast<const Unary &>(e);
      line(d, std::string("Unary ") + spelling(x.op) + typeSuffix, e.span);
      sub(x.operand);
      return;
    }
    case ExprKind::Binary: {
      auto &x = static_cast<const Binary &>(e);
      line(d, std::string("Binary ") + spelling(x.op) + typeSuffix, e.span);
      sub(x.lhs);
      sub(x.rhs);
      return;
    }
    case ExprKind::If: {
      auto &x = static_cast<const If &>(e);
      line(d, "If" + typeSuffix, e.span);
      sub(x.cond);
      sub(x.then);
      sub(x.els);
      return;
    }
    case ExprKind::LetIn: {
      auto &x = static_cast<const LetIn &>(e);
      line(d, "LetIn " + patternText(x.pattern) + typeSuffix, e.span);
      sub(x.value);
      sub(x.body);
      return;
    }
    case ExprKind::Tuple: {
      line(d, "Tuple" + typeSuffix, e.span);
      for (auto &c : static_cast<const TupleExpr &>(e).elems)
        sub(c);
      return;
    }
    case ExprKind::Project: {
      auto &x = static_cast<const Project &>(e);
      line(d, "Project ." + std::to_string(x.index) + typeSuffix, e.span);
      sub(x.tuple);
      return;
    }
    case ExprKind::Call: {
      auto &x = static_cast<const Call &>(e);
      line(d, "Call" + typeSuffix, e.span);
      sub(x.callee);
      for (auto &c : x.args)
        sub(c);
      return;
    }
    case ExprKind::Convert: {
      auto &x = static_cast<const Convert &>(e);
      line(d, "Convert " + toString(x.to) + typeSuffix, e.span);
      sub(x.operand);
      return;
    }
    case ExprKind::Lambda: {
      auto &x = static_cast<const Lambda &>(e);
      std::string params;
      for (auto &p : x.params)
        params += " " + patternText(p);
      line(d, "Lambda \\" + params.substr(params.empty() ? 0 : 1) + typeSuffix, e.span);
      sub(x.body);
      return;
    }
    case ExprKind::OpSection: {
      auto &x = static_cast<const OpSection &>(e);
      line(d, "OpSection (" + (x.isBinOp ? std::string(spelling(x.op)) : x.function) + ")" +
                  typeSuffix,
           e.span);
      return;
    }
    case ExprKind::Loop: {
      auto &x = static_cast<const Loop &>(e);
      if (x.form == Loop::For)
        line(d, "Loop " + patternText(x.pattern) + " for " + x.indexName + typeSuffix, e.span);
      else
        line(d, "Loop " + patternText(x.pattern) + " while" + typeSuffix, e.span);
      sub(x.init);
      sub(x.form == Loop::For ? x.bound : x.cond);
      sub(x.body);
      return;
    }
    case ExprKind::Range: {
      auto &x = static_cast<const Range &>(e);
      line(d, std::string("Range ") + (x.inclusive ? ".." : "..<") + typeSuffix, e.span);
      sub(x.lo);
      sub(x.hi);
      return;
    }
    case ExprKind::ArrayLit: {
      auto &x = static_cast<const ArrayLit &>(e);
      line(d, "ArrayLit " + std::to_string(x.elems.size()) + typeSuffix, e.span);
      for (auto &c : x.elems)
        sub(c);
      return;
    }
    case ExprKind::New: {
      auto &x = static_cast<const New &>(e);
      line(d, "New " + toString(x.elemType) + " rank " + std::to_string(x.dims.size()) + typeSuffix,
           e.span);
      for (auto &c : x.dims)
        sub(c);
      return;
    }
    case ExprKind::Index: {
      auto &x = static_cast<const Index &>(e);
      line(d, std::string(x.isSection() ? "Section" : "Index") + typeSuffix, e.span);
      sub(x.array);
      args(x.args, d + 1);
      return;
    }
    case ExprKind::With: {
      auto &x = static_cast<const With &>(e);
      line(d, "With" + typeSuffix, e.span);
      sub(x.array);
      args(x.args, d + 1);
      sub(x.value);
      return;
    }
    case ExprKind::Size: {
      auto &x = static_cast<const Size &>(e);
      line(d, "Size" + typeSuffix, e.span);
      sub(x.array);
      sub(x.axis);
      return;
    }
    case ExprKind::Rank:
      line(d, "Rank" + typeSuffix, e.span);
      sub(static_cast<const Rank &>(e).array);
      return;
    case ExprKind::Comprehension: {
      auto &x = static_cast<const Comprehension &>(e);
      line(d, "Comprehension" + typeSuffix, e.span);
      sub(x.head);
      for (size_t b = 0; b < x.branches.size(); ++b) {
        Span bs;
        if (!x.branches[b].empty()) {
          bs = x.branches[b].front().span;
          bs.end = x.branches[b].back().span.end;
        }
        line(d + 1, "Branch " + std::to_string(b), bs);
        for (auto &q : x.branches[b]) {
          switch (q.kind) {
          case Qualifier::Bind: line(d + 2, "Bind " + patternText(q.pattern), q.span); break;
          case Qualifier::Let: line(d + 2, "Let " + patternText(q.pattern), q.span); break;
          case Qualifier::Filter: line(d + 2, "Filter", q.span); break;
          }
          if (q.expr)
            expr(*q.expr, d + 3);
        }
      }
      return;
    }
    }
  }
};

} // namespace

void printModuleAst(const Module &module, const SourceManager &, std::ostream &out) {
  Printer(out).module(module, 0);
}

void printAst(const Program &program, const SourceManager &, std::ostream &out,
              bool includeStdlib) {
  Printer p(out);
  for (size_t i = 0; i < program.modules.size(); ++i) {
    const Module &m = program.modules[i];
    if (m.isStdlib && !includeStdlib)
      continue;
    out << "Module " << m.name << " \"" << m.path << "\"" << (m.isStdlib ? " stdlib" : "") << "\n";
    p.module(m, 1);
  }
}

} // namespace arrc
