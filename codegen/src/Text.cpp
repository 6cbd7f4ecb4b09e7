// Text utilities of the code generator: scalar and source types in OpenCL C
// and C++, literals, names, and which variables IR pieces use.
#include "Generator.h"

#include "arrc/IRBuilder.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <functional>
#include <stdexcept>

namespace arrc::cg {

void Code::line(const std::string &l) {
  if (l.empty()) {
    s += '\n';
    return;
  }
  s.append(static_cast<size_t>(ind) * 2, ' ');
  s += l;
  s += '\n';
}
void Code::open(const std::string &l) {
  line(l.empty() ? "{" : l + " {");
  ++ind;
}
void Code::close(const std::string &tail) {
  --ind;
  line(tail);
}

std::string quote(const std::string &s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    if (c == '\n') {
      r += "\\n";
      continue;
    }
    r += c;
  }
  return r + "\"";
}

std::string join(const std::vector<std::string> &v, const std::string &sep) {
  std::string r;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) r += sep;
    r += v[i];
  }
  return r;
}

[[noreturn]] void fail(const std::string &msg) {
  throw std::runtime_error("arrc codegen: " + msg);
}

// ------------------------------------------------------------------ types
const char *clScalar(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool: return "bool";
  case ScalarKind::Int: return "int";
  case ScalarKind::Long: return "long";
  case ScalarKind::Float: return "float";
  case ScalarKind::Double: return "double";
  }
  return "int";
}
// The identity of + in OpenCL C (-0.0: a float sum of nothing but -0.0 keeps its sign).
const char *zeroOf(ScalarKind k) {
  switch (k) {
  case ScalarKind::Float: return "-0.0f";
  case ScalarKind::Double: return "-0.0";
  case ScalarKind::Long: return "0L";
  default: return "0";
  }
}
// Device storage (buffers, kernel scalar arguments): bool is one byte.
const char *clStore(ScalarKind k) { return k == ScalarKind::Bool ? "uchar" : clScalar(k); }
const char *cppScalar(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool: return "bool";
  case ScalarKind::Int: return "int32_t";
  case ScalarKind::Long: return "int64_t";
  case ScalarKind::Float: return "float";
  case ScalarKind::Double: return "double";
  }
  return "int32_t";
}
const char *cppStore(ScalarKind k) { return k == ScalarKind::Bool ? "uint8_t" : cppScalar(k); }
std::string cppArray(ScalarKind k, int rank) {
  return "arrc::Array<" + std::string(cppScalar(k)) + ", " + std::to_string(rank) + ">";
}
std::string cppType(const ir::Type &t) {
  return t.rank == 0 ? std::string(cppScalar(t.elem)) : cppArray(t.elem, t.rank);
}
bool isIntegral(ScalarKind k) { return k == ScalarKind::Int || k == ScalarKind::Long; }
bool isFloating(ScalarKind k) { return k == ScalarKind::Float || k == ScalarKind::Double; }

// Source types of export signatures (arrc::Type, with tuples).
std::string cppOf(const TypeP &t, int arrayRank) {
  if (!t) fail("missing type in an export signature");
  if (t->kind == arrc::Type::Array) return cppOf(t->elem, t->rank);
  if (t->kind == arrc::Type::Tuple) {
    std::vector<std::string> e;
    for (auto &c : t->elems) e.push_back(cppOf(c, arrayRank));
    return "std::tuple<" + join(e) + ">";
  }
  if (t->kind == arrc::Type::Scalar)
    return arrayRank ? cppArray(t->scalar, arrayRank) : std::string(cppScalar(t->scalar));
  fail("unsupported type in an export signature: kind " + std::to_string(int(t->kind)));
}
void flattenAccess(const TypeP &t, const std::string &expr, std::vector<std::string> &out) {
  const TypeP *elem = &t;
  if (t->kind == arrc::Type::Array) elem = &t->elem;
  if ((*elem)->kind == arrc::Type::Tuple) {
    for (size_t i = 0; i < (*elem)->elems.size(); ++i) {
      TypeP c = (*elem)->elems[i];
      std::string sub = "std::get<" + std::to_string(i) + ">(" + expr + ")";
      if (t->kind == arrc::Type::Array) {
        auto arr = std::make_shared<arrc::Type>();
        arr->kind = arrc::Type::Array;
        arr->elem = c;
        arr->rank = t->rank;
        flattenAccess(arr, sub, out);
      } else {
        flattenAccess(c, sub, out);
      }
    }
    return;
  }
  out.push_back(expr);
}
std::string sourcePieces(const std::string &text) {
  // pieces end at a line's end; C++ compilers need accept no literal over
  // 65536 bytes (clang's -Woverlength-strings under -Wpedantic)
  const size_t most = 60000;
  std::string out = "inline const char *const opencl_source[] = {\n";
  for (size_t at = 0; at < text.size();) {
    size_t end = text.size();
    if (end - at > most) {
      size_t nl = text.rfind('\n', at + most - 1);
      end = nl == std::string::npos || nl < at ? at + most : nl + 1;
    }
    out += "R\"ARRC_CL(" + text.substr(at, end - at) + ")ARRC_CL\",\n";
    at = end;
  }
  out += "nullptr};\n";
  out += "inline std::string opencl_text() {\n"
         "  std::string s;\n"
         "  for (const char *const *p = opencl_source; *p; ++p) s += *p;\n"
         "  return s;\n}\n";
  return out;
}

// Scalar leaves of a type of an export signature (an array: its element's).
static size_t leafCount(const TypeP &t) {
  if (t->kind == arrc::Type::Array) return leafCount(t->elem);
  if (t->kind != arrc::Type::Tuple) return 1;
  size_t n = 0;
  for (auto &e : t->elems) n += leafCount(e);
  return n;
}
static size_t componentChecks(const TypeP &t, const std::string &param, const std::string &at,
                              const std::vector<std::string> &leaves, size_t first, std::vector<std::string> &out) {
  if (t->kind == arrc::Type::Tuple) {
    size_t n = 0;
    for (size_t i = 0; i < t->elems.size(); ++i)
      n += componentChecks(t->elems[i], param + "." + std::to_string(i), at, leaves, first + n, out);
    return n;
  }
  size_t n = leafCount(t);
  if (t->kind == arrc::Type::Array)
    for (size_t j = first + 1; j < first + n && j < leaves.size(); ++j)
      out.push_back("arrc::check_components(" + leaves[first] + ", " + leaves[j] + ", " +
                    quote(at + ": the components of the array of tuples " + param) + ");");
  return n;
}
std::vector<std::string> componentChecks(const TypeP &t, const std::string &param, const std::string &at,
                                         const std::vector<std::string> &leaves) {
  std::vector<std::string> out;
  componentChecks(t, param, at, leaves, 0, out);
  return out;
}
std::string buildValue(const TypeP &t, const std::vector<std::string> &leaves, size_t &pos) {
  const TypeP *elem = &t;
  if (t->kind == arrc::Type::Array) elem = &t->elem;
  if ((*elem)->kind == arrc::Type::Tuple) {
    std::vector<std::string> parts;
    for (auto &c : (*elem)->elems) {
      if (t->kind == arrc::Type::Array) {
        auto arr = std::make_shared<arrc::Type>();
        arr->kind = arrc::Type::Array;
        arr->elem = c;
        arr->rank = t->rank;
        parts.push_back(buildValue(arr, leaves, pos));
      } else {
        parts.push_back(buildValue(c, leaves, pos));
      }
    }
    return cppOf(t) + "(" + join(parts) + ")";
  }
  if (pos >= leaves.size()) fail("export result has fewer components than its type");
  return leaves[pos++];
}

// ------------------------------------------------------------------ literals
static std::string shortestDouble(double v, int maxPrec, bool isFloat) {
  char buf[64];
  for (int p = 1; p <= maxPrec; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (isFloat ? (std::strtof(buf, nullptr) == static_cast<float>(v))
                : (std::strtod(buf, nullptr) == v))
      break;
  }
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}
std::string intLit(int64_t v, ScalarKind k, bool device) {
  switch (k) {
  case ScalarKind::Bool: return v ? "true" : "false";
  case ScalarKind::Int: {
    int32_t x = static_cast<int32_t>(v);
    if (x == INT32_MIN) return "(-2147483647 - 1)";
    return x < 0 ? "(" + std::to_string(x) + ")" : std::to_string(x);
  }
  case ScalarKind::Long:
    if (v == INT64_MIN) return device ? "(-9223372036854775807L - 1L)" : "INT64_MIN";
    if (device) return v < 0 ? "(" + std::to_string(v) + "L)" : std::to_string(v) + "L";
    return "int64_t(" + std::to_string(v) + ")";
  default: break;
  }
  return std::to_string(v);
}
std::string floatLit(double v, ScalarKind k, bool device) {
  bool f = k == ScalarKind::Float;
  const char *ty = f ? "float" : "double";
  if (std::isnan(v))
    return device ? std::string("((") + ty + ")NAN)"
                  : std::string("std::numeric_limits<") + ty + ">::quiet_NaN()";
  if (std::isinf(v)) {
    std::string s = device ? std::string("((") + ty + ")INFINITY)"
                           : std::string("std::numeric_limits<") + ty + ">::infinity()";
    return v < 0 ? "(-" + s + ")" : s;
  }
  std::string s = shortestDouble(v, f ? 9 : 17, f);
  if (f) s += "f";
  return v < 0 || std::signbit(v) ? "(" + s + ")" : s;
}

// ------------------------------------------------------------------ analysis
void usesExp(const ExpP &e, std::set<int> &s) {
  if (!e) return;
  if (e->kind == Exp::Var) s.insert(e->var);
  for (auto &a : e->args) usesExp(a, s);
}
void usesLambda(const ir::Lambda &l, std::set<int> &u, std::set<int> &d) {
  d.insert(l.params.begin(), l.params.end());
  usesBlock(l.body, u, d);
}
void usesStmt(const Stmt &s, std::set<int> &u, std::set<int> &d) {
  d.insert(s.outs.begin(), s.outs.end());
  switch (s.kind) {
  case StmtKind::Let: usesExp(static_cast<const Let &>(s).value, u); break;
  case StmtKind::If: {
    auto &x = static_cast<const ir::If &>(s);
    usesExp(x.cond, u);
    usesBlock(x.thenB, u, d);
    usesBlock(x.elseB, u, d);
    break;
  }
  case StmtKind::Loop: {
    auto &x = static_cast<const ir::Loop &>(s);
    d.insert(x.params.begin(), x.params.end());
    if (x.index >= 0) d.insert(x.index);
    for (auto &e : x.init) usesExp(e, u);
    usesExp(x.count, u);
    usesBlock(x.cond, u, d);
    usesBlock(x.body, u, d);
    break;
  }
  case StmtKind::Write: {
    auto &x = static_cast<const Write &>(s);
    u.insert(x.array);
    for (auto &e : x.indices) usesExp(e, u);
    usesExp(x.value, u);
    break;
  }
  case StmtKind::Alloc:
    for (auto &e : static_cast<const Alloc &>(s).dims) usesExp(e, u);
    break;
  case StmtKind::View: {
    auto &x = static_cast<const View &>(s);
    usesExp(x.source, u);
    for (auto &e : x.shape) usesExp(e, u);
    for (auto &e : x.weights) usesExp(e, u);
    break;
  }
  case StmtKind::Literal: break;
  case StmtKind::Check: {
    auto &x = static_cast<const Check &>(s);
    usesExp(x.cond, u);
    for (auto &e : x.values) usesExp(e, u);
    break;
  }
  case StmtKind::Map: {
    auto &x = static_cast<const Map &>(s);
    for (auto &e : x.dims) usesExp(e, u);
    d.insert(x.index.begin(), x.index.end());
    usesBlock(x.body, u, d);
    break;
  }
  case StmtKind::Reduce: case StmtKind::Scan: case StmtKind::SegScan: case StmtKind::SegReduce: {
    const ExpP *n = nullptr;
    const Block *body = nullptr;
    const ir::Lambda *op = nullptr;
    const std::vector<ExpP> *ne = nullptr;
    int index = -1;
    if (s.kind == StmtKind::Reduce) {
      auto &x = static_cast<const Reduce &>(s);
      n = &x.n, body = &x.body, op = &x.op, ne = &x.ne, index = x.index;
    } else if (s.kind == StmtKind::Scan) {
      auto &x = static_cast<const Scan &>(s);
      n = &x.n, body = &x.body, op = &x.op, ne = &x.ne, index = x.index;
    } else if (s.kind == StmtKind::SegScan) {
      auto &x = static_cast<const SegScan &>(s);
      n = &x.n, body = &x.body, op = &x.op, ne = &x.ne, index = x.index;
    } else {
      auto &x = static_cast<const SegReduce &>(s);
      n = &x.n, body = &x.body, op = &x.op, ne = &x.ne, index = x.index;
    }
    usesExp(*n, u);
    d.insert(index);
    usesBlock(*body, u, d);
    usesLambda(*op, u, d);
    for (auto &e : *ne) usesExp(e, u);
    break;
  }
  case StmtKind::Filter: {
    auto &x = static_cast<const Filter &>(s);
    usesExp(x.n, u);
    d.insert(x.index);
    usesBlock(x.body, u, d);
    break;
  }
  case StmtKind::Scatter: {
    auto &x = static_cast<const Scatter &>(s);
    for (auto &e : x.dests) usesExp(e, u);
    usesExp(x.n, u);
    d.insert(x.index);
    usesBlock(x.body, u, d);
    break;
  }
  case StmtKind::Hist: {
    auto &x = static_cast<const Hist &>(s);
    usesExp(x.bins, u);
    usesExp(x.n, u);
    d.insert(x.index);
    usesBlock(x.body, u, d);
    usesLambda(x.op, u, d);
    for (auto &e : x.ne) usesExp(e, u);
    break;
  }
  case StmtKind::MultiHist: {
    auto &x = static_cast<const MultiHist &>(s);
    usesExp(x.n, u);
    d.insert(x.index);
    usesBlock(x.body, u, d);
    for (size_t h = 0; h < x.ops.size(); ++h) {
      usesExp(x.bins[h], u);
      usesLambda(x.ops[h], u, d);
      usesExp(x.ne[h], u);
    }
    break;
  }
  case StmtKind::HistAdd: {
    auto &x = static_cast<const HistAdd &>(s);
    usesExp(x.bin, u);
    usesExp(x.value, u);
    break;
  }
  case StmtKind::Sort: {
    auto &x = static_cast<const Sort &>(s);
    usesExp(x.keys, u);
    for (auto &e : x.values) usesExp(e, u);
    break;
  }
  case StmtKind::Expand: {
    auto &x = static_cast<const Expand &>(s);
    usesExp(x.n, u);
    d.insert(x.index);
    d.insert(x.inner);
    usesBlock(x.size, u, d);
    usesBlock(x.body, u, d);
    if (x.into == Expand::Reduce) {
      usesLambda(x.op, u, d);
      for (auto &e : x.ne) usesExp(e, u);
    }
    break;
  }
  }
}
void usesBlock(const Block &b, std::set<int> &u, std::set<int> &d) {
  for (auto &s : b.stmts) usesStmt(*s, u, d);
  for (auto &e : b.results) usesExp(e, u);
}

std::string sanitize(const std::string &name) {
  std::string r;
  for (char c : name) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
      r += c;
    else
      r += '_';
  }
  while (!r.empty() && r.back() == '_') r.pop_back();
  if (r.size() > 24) r.resize(24);
  if (r.empty() || (r[0] >= '0' && r[0] <= '9')) r = "t" + r;
  return r;
}

std::string cppIdent(const std::string &name) { return exportedName(name, NameRole::Function); }

std::string where(const Stmt &s) {
  std::string r;
  if (s.span.begin.line > 0)
    r = "line " + std::to_string(s.span.begin.line) + ":" + std::to_string(s.span.begin.col);
  if (!s.note.empty()) r += (r.empty() ? "" : ", ") + s.note;
  return r;
}


// Device layout of a record: each member at a multiple of its size, the
// whole a multiple of the largest member (as arrc::ElemType::record).
Element elementOf(const std::vector<ScalarKind> &kinds) {
  if (kinds.empty()) fail("a runtime call with an element of no components");
  Element el;
  el.kinds = kinds;
  auto bytes = [](ScalarKind k) -> size_t {
    switch (k) {
    case ScalarKind::Bool: return 1;
    case ScalarKind::Int: case ScalarKind::Float: return 4;
    case ScalarKind::Long: case ScalarKind::Double: return 8;
    }
    return 4;
  };
  auto of = [](ScalarKind k) { return "arrc::ElemType::of<" + std::string(cppStore(k)) + ">()"; };
  if (kinds.size() == 1) {
    el.clName = clStore(kinds[0]);
    el.hostExpr = of(kinds[0]);
    el.size = bytes(kinds[0]);
    el.offsets = {0};
    return el;
  }
  static const char *letter = "bilfd";
  el.clName = "arrc_rec_";
  std::vector<std::string> fields;
  size_t off = 0, align = 1;
  for (ScalarKind k : kinds) {
    el.clName += letter[static_cast<int>(k) < 5 ? static_cast<int>(k) : 1];
    size_t b = bytes(k);
    off = (off + b - 1) / b * b;
    el.offsets.push_back(off);
    off += b;
    align = std::max(align, b);
    fields.push_back(of(k));
  }
  el.size = (off + align - 1) / align * align;
  el.hostExpr = "arrc::ElemType::record({" + join(fields) + "}, \"" + el.clName + "\")";
  return el;
}

} // namespace arrc::cg
