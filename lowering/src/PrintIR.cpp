// printIR: the readable, stable dump shown by --emit=lowered and --emit=ir.
// Format (docs/lowering.md): one statement per line, nested blocks indented by
// two spaces, variables as name_id, notes as `// note` lines before the
// statement they describe.
#include "arrc/IRBuilder.h"
#include "arrc/Lowering.h"

#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

namespace arrc {

namespace printdetail {
using namespace ir;
using ir::Module;
using ir::Lambda;
using ir::If;
using ir::Loop;
struct Printer {
  const Module &m;
  std::ostream &o;

  std::string v(int id) const {
    if (id < 0 || id >= int(m.vars.size())) return "?" + std::to_string(id);
    const auto &n = m.vars[id].name;
    return (n.empty() ? std::string("t") : n) + "_" + std::to_string(id);
  }
  std::string vt(int id) const { return v(id) + ": " + typeName(m.vars.at(id).type); }
  std::string vts(const std::vector<int> &ids) const {
    std::string s;
    for (size_t i = 0; i < ids.size(); ++i) s += (i ? ", " : "") + vt(ids[i]);
    return s;
  }
  std::string e(const ExpP &x) const {
    if (!x) return "<null>";
    switch (x->kind) {
    case Exp::Const: {
      switch (x->type.elem) {
      case ScalarKind::Bool: return x->ival ? "true" : "false";
      case ScalarKind::Int: return std::to_string(x->ival);
      case ScalarKind::Long: return std::to_string(x->ival) + "L";
      default: {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", x->fval);
        std::string s = buf;
        if (s.find_first_of(".eni") == std::string::npos) s += ".0";
        if (x->type.elem == ScalarKind::Float) s += "f";
        return s;
      }
      }
    }
    case Exp::Var: return v(x->var);
    case Exp::Unary: return std::string("(") + spelling(x->unop) + e(x->args[0]) + ")";
    case Exp::Binary: return "(" + e(x->args[0]) + " " + spelling(x->binop) + " " + e(x->args[1]) + ")";
    case Exp::Convert: return toString(x->type.elem) + "(" + e(x->args[0]) + ")";
    case Exp::Select: return "select(" + e(x->args[0]) + ", " + e(x->args[1]) + ", " + e(x->args[2]) + ")";
    case Exp::Call: {
      std::string s = x->fn + "(";
      for (size_t i = 0; i < x->args.size(); ++i) s += (i ? ", " : "") + e(x->args[i]);
      return s + ")";
    }
    case Exp::Read: {
      std::string s = e(x->args[0]) + "[";
      for (size_t i = 1; i < x->args.size(); ++i) s += (i > 1 ? ", " : "") + e(x->args[i]);
      s += "]";
      if (x->checkPos >= 0) s += "!" + std::to_string(x->checkPos);
      return s;
    }
    case Exp::Shape: return e(x->args[0]) + ".shape(" + std::to_string(x->axis) + ")";
    case Exp::Weight: return e(x->args[0]) + ".weight(" + std::to_string(x->axis) + ")";
    }
    return "?";
  }
  std::string es(const std::vector<ExpP> &xs) const {
    std::string s;
    for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + e(xs[i]);
    return s;
  }
  void ind(int d) { for (int i = 0; i < d; ++i) o << "  "; }

  void block(const Block &b, int d) {
    for (auto &s : b.stmts) stmt(*s, d);
    ind(d);
    o << "yield " << es(b.results) << "\n";
  }
  void lambda(const Lambda &l, int d) {
    o << "op (" << vts(l.params) << ") {\n";
    block(l.body, d + 1);
    ind(d);
    o << "}";
  }
  std::string lhs(const Stmt &s) { return s.outs.empty() ? "" : vts(s.outs) + " = "; }

  void stmt(const Stmt &s, int d) {
    if (!s.note.empty()) {
      ind(d);
      o << "// " << s.note << "\n";
    }
    ind(d);
    switch (s.kind) {
    case StmtKind::Let: o << "let " << lhs(s) << e(static_cast<const Let &>(s).value) << "\n"; break;
    case StmtKind::If: {
      auto &x = static_cast<const If &>(s);
      o << lhs(s) << "if " << e(x.cond) << " then {\n";
      block(x.thenB, d + 1);
      ind(d);
      o << "} else {\n";
      block(x.elseB, d + 1);
      ind(d);
      o << "}\n";
      break;
    }
    case StmtKind::Loop: {
      auto &x = static_cast<const Loop &>(s);
      o << lhs(s) << "loop (";
      for (size_t i = 0; i < x.params.size(); ++i) o << (i ? ", " : "") << vt(x.params[i]) << " = " << e(x.init[i]);
      o << ") ";
      if (x.form == Loop::For) o << "for " << v(x.index) << " < " << e(x.count) << " {\n";
      else {
        o << "while {\n";
        block(x.cond, d + 1);
        ind(d);
        o << "} do {\n";
      }
      block(x.body, d + 1);
      ind(d);
      o << "}\n";
      break;
    }
    case StmtKind::Write: {
      auto &x = static_cast<const Write &>(s);
      o << "write " << v(x.array) << "[" << es(x.indices) << "] = " << e(x.value) << "\n";
      break;
    }
    case StmtKind::Alloc: {
      auto &x = static_cast<const Alloc &>(s);
      o << lhs(s) << "alloc(" << es(x.dims) << ")" << (x.zero ? " zero" : "") << "\n";
      break;
    }
    case StmtKind::View: {
      auto &x = static_cast<const View &>(s);
      o << lhs(s) << "view " << e(x.source) << " shape(" << es(x.shape) << ") weights(" << es(x.weights) << ")\n";
      break;
    }
    case StmtKind::Literal: {
      auto &x = static_cast<const Literal &>(s);
      o << lhs(s) << "literal shape(";
      for (size_t i = 0; i < x.shape.size(); ++i) o << (i ? ", " : "") << x.shape[i];
      o << ") {";
      bool fl = !s.outs.empty() && isFloatKind(m.vars[s.outs[0]].type.elem);
      size_t n = fl ? x.fvals.size() : x.ivals.size();
      for (size_t i = 0; i < n; ++i) {
        o << (i ? ", " : "");
        if (fl) {
          char buf[64];
          std::snprintf(buf, sizeof buf, "%.17g", x.fvals[i]);
          o << buf;
        } else o << x.ivals[i];
      }
      o << "}\n";
      break;
    }
    case StmtKind::Check: {
      auto &x = static_cast<const Check &>(s);
      static const char *codes[] = {"Bounds", "Shape", "ZipSize", "Empty", "Irregular", "Other", "Negative"};
      o << "check " << codes[x.code] << " #" << x.pos << " " << e(x.cond);
      if (!x.values.empty()) o << " [" << es(x.values) << "]";
      if (!x.message.empty()) o << " \"" << x.message << "\"";
      o << "\n";
      break;
    }
    case StmtKind::Map: {
      auto &x = static_cast<const Map &>(s);
      o << lhs(s) << "map (";
      for (size_t i = 0; i < x.dims.size(); ++i) o << (i ? ", " : "") << v(x.index[i]) << " < " << e(x.dims[i]);
      o << ") {\n";
      block(x.body, d + 1);
      ind(d);
      o << "}\n";
      break;
    }
    case StmtKind::Reduce: soacOp(s, "reduce", static_cast<const Reduce &>(s), d); break;
    case StmtKind::Scan: {
      auto &x = static_cast<const Scan &>(s);
      soacOp(s, x.exclusive ? "scan_exclusive" : "scan", x, d);
      break;
    }
    case StmtKind::Filter: soac(s, "filter", static_cast<const Filter &>(s), d); break;
    case StmtKind::Scatter: {
      auto &x = static_cast<const Scatter &>(s);
      o << lhs(s) << "scatter (" << es(x.dests) << ") (" << v(x.index) << " < " << e(x.n) << ") {\n";
      block(x.body, d + 1);
      ind(d);
      o << "}\n";
      break;
    }
    case StmtKind::Hist: {
      auto &x = static_cast<const Hist &>(s);
      o << lhs(s) << "hist bins " << e(x.bins) << " (" << v(x.index) << " < " << e(x.n) << ") {\n";
      block(x.body, d + 1);
      ind(d);
      o << "} ";
      lambda(x.op, d);
      o << " ne (" << es(x.ne) << ")\n";
      break;
    }
    case StmtKind::MultiHist: {
      auto &x = static_cast<const MultiHist &>(s);
      o << lhs(s) << "multihist (" << v(x.index) << " < " << e(x.n) << ") {\n";
      block(x.body, d + 1);
      ind(d);
      o << "}";
      for (size_t h = 0; h < x.ops.size(); ++h) {
        o << "\n";
        ind(d + 1);
        o << "#" << h << " bins " << e(x.bins[h]) << " ";
        lambda(x.ops[h], d + 1);
        o << " ne (" << e(x.ne[h]) << ")";
      }
      o << "\n";
      break;
    }
    case StmtKind::HistAdd: {
      auto &x = static_cast<const HistAdd &>(s);
      o << "hist_add #" << x.hist << "[" << e(x.bin) << "] " << e(x.value) << "\n";
      break;
    }
    case StmtKind::Sort: {
      auto &x = static_cast<const Sort &>(s);
      o << lhs(s) << "sort " << e(x.keys);
      if (!x.values.empty()) o << " (" << es(x.values) << ")";
      o << "\n";
      break;
    }
    case StmtKind::SegScan: soacOp(s, "segscan", static_cast<const SegScan &>(s), d); break;
    case StmtKind::SegReduce: soacOp(s, "segreduce", static_cast<const SegReduce &>(s), d); break;
    case StmtKind::Expand: {
      auto &x = static_cast<const Expand &>(s);
      static const char *into[] = {"expand", "expand into reduce", "expand into filter"};
      o << lhs(s) << into[x.into] << " (" << v(x.index) << " < " << e(x.n) << ") size {\n";
      block(x.size, d + 1);
      ind(d);
      o << "} (" << v(x.inner) << ") {\n";
      block(x.body, d + 1);
      ind(d);
      o << "}";
      if (x.into == Expand::Reduce) {
        o << " ";
        lambda(x.op, d);
        o << " ne (" << es(x.ne) << ")";
      }
      o << "\n";
      break;
    }
    }
  }
  template <class T> void soac(const Stmt &s, const char *name, const T &x, int d) {
    o << lhs(s) << name << " (" << v(x.index) << " < " << e(x.n) << ") {\n";
    block(x.body, d + 1);
    ind(d);
    o << "}\n";
  }
  template <class T> void soacOp(const Stmt &s, const char *name, const T &x, int d) {
    o << lhs(s) << name << " (" << v(x.index) << " < " << e(x.n) << ") {\n";
    block(x.body, d + 1);
    ind(d);
    o << "} ";
    lambda(x.op, d);
    o << " ne (" << es(x.ne) << ")\n";
  }
};
} // namespace

void printIR(const ir::Module &module, std::ostream &out) {
  printdetail::Printer p{module, out};
  out << "module " << module.name << "\n";
  for (size_t i = 0; i < module.positions.size(); ++i) {
    // "file:l:c\nnote: ...\n" (a check inside a stdlib function): one line, notes in parentheses.
    std::string p = module.positions[i], notes;
    size_t nl = p.find('\n');
    if (nl != std::string::npos) {
      notes = p.substr(nl + 1);
      p.resize(nl);
      while (!notes.empty() && notes.back() == '\n') notes.pop_back();
      for (auto &ch : notes)
        if (ch == '\n') ch = ';';
    }
    out << "position #" << i << " " << p << (notes.empty() ? "" : " (" + notes + ")") << "\n";
  }
  for (auto &f : module.functions) {
    out << "\nexport " << f.name << "(";
    for (size_t i = 0; i < f.paramNames.size(); ++i) {
      out << (i ? ", " : "") << f.paramNames[i] << ": " << (f.paramTypes[i] ? toString(f.paramTypes[i]) : "?") << " = (";
      for (size_t j = 0; j < f.paramVars[i].size(); ++j) out << (j ? ", " : "") << p.vt(f.paramVars[i][j]);
      out << ")";
    }
    out << ") -> " << (f.resultType ? toString(f.resultType) : "?") << " {\n";
    p.block(f.body, 1);
    out << "}\n";
  }
}

} // namespace arrc
