// Code generation: core IR -> OpenCL C 1.2 kernels + a C++17 header.
//
// One Generator walks every exported function once and produces both the
// kernel source (all kernels of the module in one OpenCL program) and the
// host code. See docs/codegen.md for the layout of the generated header and
// the kernel schemes used for each SOAC.
#include "arrc/Codegen.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace arrc {
namespace {

using namespace ir;

// ------------------------------------------------------------------ text
struct Code {
  std::string s;
  int ind = 0;
  void line(const std::string &l) {
    if (l.empty()) {
      s += '\n';
      return;
    }
    s.append(static_cast<size_t>(ind) * 2, ' ');
    s += l;
    s += '\n';
  }
  void open(const std::string &l) {
    line(l.empty() ? "{" : l + " {");
    ++ind;
  }
  void close(const std::string &tail = "}") {
    --ind;
    line(tail);
  }
};

std::string join(const std::vector<std::string> &v, const std::string &sep = ", ") {
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
std::string cppOf(const TypeP &t, int arrayRank = 0) {
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
std::string shortestDouble(double v, int maxPrec, bool isFloat) {
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
void usesBlock(const Block &b, std::set<int> &u, std::set<int> &d);
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
    break;
  }
  }
}
void usesBlock(const Block &b, std::set<int> &u, std::set<int> &d) {
  for (auto &s : b.stmts) usesStmt(*s, u, d);
  for (auto &e : b.results) usesExp(e, u);
}
bool hasCheckedRead(const ExpP &e) {
  if (!e) return false;
  if (e->kind == Exp::Read && e->checkPos >= 0) return true;
  for (auto &a : e->args)
    if (hasCheckedRead(a)) return true;
  return false;
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

// A parameter or namespace name that is safe in C++ (not a keyword, not `ctx`).
std::string cppIdent(const std::string &name) {
  static const std::set<std::string> reserved = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "char16_t", "char32_t", "class", "compl", "const", "constexpr",
      "const_cast", "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast",
      "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
      "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "return", "short", "signed", "sizeof", "static", "static_assert",
      "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true", "try",
      "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
      "wchar_t", "while", "xor", "xor_eq", "ctx", "std", "arrc", "detail", "int32_t", "int64_t",
      "uint8_t", "size_t", "main"};
  std::string r = sanitize(name);
  if (reserved.count(r) || r.compare(0, 2, "__") == 0) r += "_arg";
  return r;
}

std::string where(const Stmt &s) {
  std::string r;
  if (s.span.begin.line > 0)
    r = "line " + std::to_string(s.span.begin.line) + ":" + std::to_string(s.span.begin.col);
  if (!s.note.empty()) r += (r.empty() ? "" : ", ") + s.note;
  return r;
}

// ------------------------------------------------------------------ generator
// A piece of per-element code: emits statements computing the element at the
// index expression `idx` into the given (already declared) variables.
using Producer =
    std::function<void(Code &, const std::string &idx, const std::vector<std::string> &outs)>;
// An operator: out = a op b (component-wise names; out may alias a).
using OpFn = std::function<void(Code &, const std::vector<std::string> &a,
                                const std::vector<std::string> &b,
                                const std::vector<std::string> &out)>;

struct KernelArgs {
  std::vector<std::string> cl;   // OpenCL parameter declarations
  std::vector<std::string> host; // matching host argument expressions
  void add(const std::string &c, const std::string &h) {
    cl.push_back(c);
    host.push_back(h);
  }
  void append(const KernelArgs &o) {
    cl.insert(cl.end(), o.cl.begin(), o.cl.end());
    host.insert(host.end(), o.host.begin(), o.host.end());
  }
};

class Generator {
public:
  explicit Generator(const ir::Module &m) : m_(m) {
    for (size_t i = 0; i < m.vars.size(); ++i) {
      std::string n = m.vars[i].name.empty() ? "t" : sanitize(m.vars[i].name);
      names_.push_back(n + "_" + std::to_string(i));
    }
  }

  void run() {
    for (auto &f : m_.functions) function(f);
  }

  std::string openclSource() const {
    std::string s;
    s += "// OpenCL C 1.2 kernels of module '" + m_.name + "', generated by arrc.\n";
    if (usesDouble_) s += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    s += R"CL(
// Device error record (same ABI as arrc::kernel_prelude(); guarded so either
// copy may come first): [0] code, [1] position id, [2] index, [3] extent, [4] axis.
#ifndef ARRC_PRELUDE_H
#define ARRC_PRELUDE_H
#define ARRC_ERR_BOUNDS 1
#define ARRC_ERR_SHAPE 2
#define ARRC_ERR_ZIP 3
#define ARRC_ERR_EMPTY 4
#define ARRC_ERR_SECTION 5
#define ARRC_ERR_NEGATIVE_SIZE 6
#define ARRC_ERR_GENERIC 7
inline void arrc_raise(__global long* err, int code, int pos, long index, long extent, long axis) {
  if (atomic_cmpxchg((volatile __global int*)err, 0, code) == 0) {
    err[1] = pos; err[2] = index; err[3] = extent; err[4] = axis;
  }
}
inline void arrc_raise_bounds(__global long* err, int pos, long index, long extent, int axis) {
  arrc_raise(err, ARRC_ERR_BOUNDS, pos, index, extent, axis);
}
inline int arrc_in_bounds(__global long* err, int pos, long index, long extent, int axis) {
  if (index < 0 || index >= extent) { arrc_raise_bounds(err, pos, index, extent, axis); return 0; }
  return 1;
}
#endif

// Integer division and remainder never trap: x / 0 == 0 and x % 0 == 0 (as
// the IR interpreter); MIN / -1 wraps to MIN and MIN % -1 == 0.
#ifndef ARRC_CG_HELPERS
#define ARRC_CG_HELPERS
static inline int arrc_div_int(int a, int b) { return b == 0 ? 0 : b == -1 ? (int)(0u - (uint)a) : a / b; }
static inline int arrc_mod_int(int a, int b) { return b == 0 || b == -1 ? 0 : a % b; }
static inline long arrc_div_long(long a, long b) { return b == 0 ? 0 : b == -1 ? (long)(0ul - (ulong)a) : a / b; }
static inline long arrc_mod_long(long a, long b) { return b == 0 || b == -1 ? 0 : a % b; }
#endif
)CL";
    s += kernels_;
    return s;
  }

  std::string header() const {
    std::string guard = "ARRC_MODULE_" + sanitize(m_.name) + "_HPP";
    for (auto &c : guard) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    std::string h;
    h += "// Generated by arrc from module '" + m_.name + "'. Do not edit.\n";
    h += "// C++ interface: LANGUAGE.md section 8; layout: docs/codegen.md.\n";
    h += "#pragma once\n#ifndef " + guard + "\n#define " + guard + "\n\n";
    h += "#include <arrc/runtime.h>\n\n#include <algorithm>\n#include <array>\n#include "
         "<cmath>\n#include <cstdint>\n#include <limits>\n#include <string>\n#include "
         "<tuple>\n#include <type_traits>\n\n";
    h += helpers();
    h += "namespace " + cppIdent(m_.name) + " {\nnamespace detail {\n\n";
    h += "// Source positions for runtime errors (bounds, shapes, zip sizes).\n";
    h += "inline const char *const positions[] = {\n";
    for (auto &p : m_.positions) h += "    " + quote(p) + ",\n";
    h += "    nullptr};\n";
    h += "constexpr size_t num_positions = " + std::to_string(m_.positions.size()) + ";\n";
    h += "inline std::string position(int id) {\n"
         "  return id >= 0 && size_t(id) < num_positions ? positions[id] : \"\";\n}\n\n";
    h += "// The module's OpenCL C program: built once per arrc::Context (and cached on\n"
         "// disk by the runtime).\n";
    h += "inline const char *const opencl_source = R\"ARRC_CL(" + openclSource() +
         ")ARRC_CL\";\n";
    h += "inline arrc::ProgramSource &program() {\n"
         "  static arrc::ProgramSource source(std::string(arrc::kernel_prelude()) + opencl_source);\n"
         "  return source;\n}\n";
    h += "inline cl_kernel kernel(arrc::Context &ctx, const char *name) {\n";
    if (usesDouble_)
      h += "  if (!ctx.supports_fp64())\n"
           "    throw arrc::Error(\"module " + m_.name +
           " uses double, but the OpenCL device \" + ctx.describe() +\n"
           "                      \" does not support double precision (cl_khr_fp64); "
           "pick another device with ARRC_DEVICE\");\n";
    h += "  return ctx.kernel(program(), name);\n}\n";
    h += "// Throws the first error a kernel raised (bounds checks) as arrc::Error.\n";
    h += "inline void check(arrc::Context &ctx) { ctx.check_errors(positions, num_positions); }\n\n";
    h += "} // namespace detail\n\n";
    h += functions_;
    h += "} // namespace " + cppIdent(m_.name) + "\n\n#endif // " + guard + "\n";
    return h;
  }

private:
  const ir::Module &m_;
  std::vector<std::string> names_;
  std::string kernels_;
  std::string functions_;
  bool usesDouble_ = false;
  std::string fnName_;
  int kernelCounter_ = 0;
  std::set<int> used_; // variables referenced in the current function
  std::map<int, std::string> devAlias_;

  static std::string quote(const std::string &s) {
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

  static std::string helpers() {
    return R"CPP(// Helpers shared by every arrc-generated header (defined once per translation unit).
#ifndef ARRC_GENERATED_HELPERS_V1
#define ARRC_GENERATED_HELPERS_V1
namespace arrc {
namespace gen {
// Wrapping (two's complement) integer arithmetic, as in Arr.
template <class T> inline T wadd(T a, T b) { using U = std::make_unsigned_t<T>; return T(U(a) + U(b)); }
template <class T> inline T wsub(T a, T b) { using U = std::make_unsigned_t<T>; return T(U(a) - U(b)); }
template <class T> inline T wmul(T a, T b) { using U = std::make_unsigned_t<T>; return T(U(a) * U(b)); }
template <class T> inline T wneg(T a) { using U = std::make_unsigned_t<T>; return T(U(0) - U(a)); }
template <class T> inline T wshl(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return T(U(a) << (U(b) & U(sizeof(T) * 8 - 1)));
}
template <class T> inline T ashr(T a, T b) { return T(a >> (b & T(sizeof(T) * 8 - 1))); }
// x / 0 == 0, x % 0 == 0, MIN / -1 == MIN, MIN % -1 == 0 (same on the device).
template <class T> inline T div(T a, T b) { return b == 0 ? T(0) : b == T(-1) ? wneg(a) : T(a / b); }
template <class T> inline T mod(T a, T b) { return b == 0 || b == T(-1) ? T(0) : T(a % b); }
template <class T> inline T iabs(T a) { return a < 0 ? wneg(a) : a; }
// One element of a device array read back to the host (a host-level scalar read).
template <class T, int D>
inline T read(arrc::Context &ctx, const arrc::Array<T, D> &a, const std::array<int64_t, D> &idx,
              int pos, const char *const *positions, size_t count) {
  int64_t off = a.offset();
  for (int k = 0; k < D; ++k) {
    if (idx[k] < 0 || idx[k] >= a.shape(k))
      throw arrc::bounds_error(pos >= 0 && size_t(pos) < count ? positions[pos] : "", idx[k],
                               a.shape(k), k);
    off += idx[k] * a.weight(k);
  }
  arrc::storage_t<T> v{};
  ctx.read(a.buffer(), size_t(off) * sizeof(v), sizeof(v), &v);
  ctx.check_errors(positions, count);
  return T(v);
}
// A scalar result a kernel left in a one-element buffer.
template <class T>
inline T read_result(arrc::Context &ctx, const arrc::BufferPtr &buf) {
  arrc::storage_t<T> v{};
  ctx.read(buf->mem(), 0, sizeof(v), &v);
  return T(v);
}
// Launch geometry of the two-stage reduction: `groups` work-groups of `local`
// (a power of two) work-items; each folds `chunk` consecutive elements.
struct ReduceShape {
  size_t local, groups;
  int64_t chunk, chunk2;
};
inline ReduceShape reduce_shape(arrc::Context &ctx, int64_t n) {
  size_t max_local = std::min<size_t>(ctx.max_work_group_size(), ctx.is_gpu() ? 256 : 64);
  size_t local = 1;
  while (local * 2 <= max_local) local *= 2;
  size_t want = size_t(std::max<int64_t>(n, 1) + int64_t(local) - 1) / local;
  size_t groups = std::max<size_t>(1, std::min<size_t>(want, ctx.is_gpu() ? 256 : 16));
  int64_t threads = int64_t(groups * local);
  return {local, groups, (n + threads - 1) / threads, (int64_t(groups) + int64_t(local) - 1) / int64_t(local)};
}
// Launch geometry of the three-phase chunked scan (also filter and expand):
// `threads` work-items, each owning `chunk` consecutive elements.
struct ScanShape {
  int64_t threads, chunk;
};
inline ScanShape scan_shape(int64_t n) {
  int64_t t = std::max<int64_t>(1, std::min<int64_t>(1024, (n + 31) / 32));
  return {t, (n + t - 1) / t};
}
inline int64_t read_count(arrc::Context &ctx, const arrc::BufferPtr &buf, int64_t index) {
  int64_t v = 0;
  ctx.read(buf->mem(), size_t(index) * sizeof(int64_t), sizeof(int64_t), &v);
  return v;
}
} // namespace gen
} // namespace arrc
#endif // ARRC_GENERATED_HELPERS_V1

)CPP";
  }

  const std::string &name(int v) const { return names_.at(static_cast<size_t>(v)); }
  const ir::Type &typeOf(int v) const { return m_.vars.at(static_cast<size_t>(v)).type; }
  std::string devName(int v) const {
    auto it = devAlias_.find(v);
    return it != devAlias_.end() ? it->second : name(v);
  }
  void noteType(ScalarKind k) {
    if (k == ScalarKind::Double) usesDouble_ = true;
  }

  // ---------------------------------------------------------------- expressions
  std::string exp(const ExpP &e, bool dev) {
    if (!e) fail("null expression");
    ScalarKind k = e->type.elem;
    if (dev) noteType(k);
    auto arg = [&](size_t i) { return exp(e->args.at(i), dev); };
    switch (e->kind) {
    case Exp::Const:
      if (isFloating(k)) return floatLit(e->fval, k, dev);
      return intLit(e->ival, k, dev);
    case Exp::Var:
      return dev ? devName(e->var) : name(e->var);
    case Exp::Unary: {
      std::string a = arg(0);
      switch (e->unop) {
      case UnOp::Neg:
        if (isIntegral(k))
          return dev ? "((" + std::string(clScalar(k)) + ")(0" + (k == ScalarKind::Long ? "ul" : "u") +
                           " - (" + (k == ScalarKind::Long ? "ulong" : "uint") + ")(" + a + ")))"
                     : "arrc::gen::wneg<" + std::string(cppScalar(k)) + ">(" + a + ")";
        return "(-" + a + ")";
      case UnOp::Not: return "(!" + a + ")";
      case UnOp::BitNot:
        if (k == ScalarKind::Bool) return "(!" + a + ")";
        return dev ? "(~" + a + ")" : std::string(cppScalar(k)) + "(~" + a + ")";
      }
      break;
    }
    case Exp::Binary: return binary(e, dev);
    case Exp::Convert: {
      std::string a = arg(0);
      if (k == ScalarKind::Bool) return "(" + a + " != 0)";
      return dev ? "((" + std::string(clScalar(k)) + ")(" + a + "))"
                 : "static_cast<" + std::string(cppScalar(k)) + ">(" + a + ")";
    }
    case Exp::Select: return "(" + arg(0) + " ? " + arg(1) + " : " + arg(2) + ")";
    case Exp::Call: return call(e, dev);
    case Exp::Read: return read(e, dev);
    case Exp::Shape: {
      const ExpP &a = e->args.at(0);
      if (a->kind != Exp::Var) fail("Shape of a non-variable array");
      return dev ? devName(a->var) + "_n" + std::to_string(e->axis)
                 : name(a->var) + ".shape(" + std::to_string(e->axis) + ")";
    }
    case Exp::Weight: {
      const ExpP &a = e->args.at(0);
      if (a->kind != Exp::Var) fail("Weight of a non-variable array");
      return dev ? devName(a->var) + "_w" + std::to_string(e->axis)
                 : name(a->var) + ".weight(" + std::to_string(e->axis) + ")";
    }
    }
    fail("unknown expression kind");
  }

  std::string binary(const ExpP &e, bool dev) {
    ScalarKind k = e->args.at(0)->type.elem; // operand type
    std::string a = exp(e->args[0], dev), b = exp(e->args[1], dev);
    bool integral = isIntegral(k);
    const char *cl = clScalar(k);
    std::string ucl = k == ScalarKind::Long ? "ulong" : "uint";
    std::string cpp = cppScalar(k);
    auto wrap = [&](const char *op, const char *fn) {
      if (dev) return "((" + std::string(cl) + ")((" + ucl + ")(" + a + ") " + op + " (" + ucl + ")(" + b + ")))";
      return "arrc::gen::" + std::string(fn) + "<" + cpp + ">(" + a + ", " + b + ")";
    };
    auto plain = [&](const char *op) { return "(" + a + " " + op + " " + b + ")"; };
    switch (e->binop) {
    case BinOp::Add: return integral ? wrap("+", "wadd") : plain("+");
    case BinOp::Sub: return integral ? wrap("-", "wsub") : plain("-");
    case BinOp::Mul: return integral ? wrap("*", "wmul") : plain("*");
    case BinOp::Div:
      if (integral)
        return dev ? "arrc_div_" + std::string(cl) + "(" + a + ", " + b + ")"
                   : "arrc::gen::div<" + cpp + ">(" + a + ", " + b + ")";
      return plain("/");
    case BinOp::Mod:
      if (integral)
        return dev ? "arrc_mod_" + std::string(cl) + "(" + a + ", " + b + ")"
                   : "arrc::gen::mod<" + cpp + ">(" + a + ", " + b + ")";
      return (dev ? "fmod(" : "std::fmod(") + a + ", " + b + ")";
    case BinOp::Eq: return plain("==");
    case BinOp::Ne: return plain("!=");
    case BinOp::Lt: return plain("<");
    case BinOp::Le: return plain("<=");
    case BinOp::Gt: return plain(">");
    case BinOp::Ge: return plain(">=");
    case BinOp::And: return plain("&&");
    case BinOp::Or: return plain("||");
    case BinOp::BitAnd:
    case BinOp::BitOr:
    case BinOp::BitXor: {
      const char *op = e->binop == BinOp::BitAnd ? "&" : e->binop == BinOp::BitOr ? "|" : "^";
      if (k == ScalarKind::Bool) return "((" + a + " " + op + " " + b + ") != 0)";
      return dev ? plain(op) : cpp + plain(op);
    }
    case BinOp::Shl:
      if (dev) {
        std::string bits = k == ScalarKind::Long ? "63" : "31";
        return "((" + std::string(cl) + ")((" + ucl + ")(" + a + ") << ((" + b + ") & " + bits + ")))";
      }
      return "arrc::gen::wshl<" + cpp + ">(" + a + ", " + b + ")";
    case BinOp::Shr:
      if (dev) {
        std::string bits = k == ScalarKind::Long ? "63" : "31";
        return "(" + a + " >> ((" + b + ") & " + bits + "))";
      }
      return "arrc::gen::ashr<" + cpp + ">(" + a + ", " + b + ")";
    case BinOp::Concat: fail("Concat in the core IR");
    }
    fail("unknown binary operator");
  }

  std::string call(const ExpP &e, bool dev) {
    const std::string &f = e->fn;
    std::vector<std::string> a;
    for (auto &x : e->args) a.push_back(exp(x, dev));
    ScalarKind k = e->args.empty() ? e->type.elem : e->args[0]->type.elem;
    std::string cl = clScalar(k), cpp = cppScalar(k);
    auto fn = [&](const std::string &name) {
      return (dev ? name : "std::" + name) + "(" + join(a) + ")";
    };
    if (f == "abs") {
      if (isFloating(k)) return fn("fabs");
      if (dev) return "((" + cl + ")abs(" + a.at(0) + "))";
      return "arrc::gen::iabs<" + cpp + ">(" + a.at(0) + ")";
    }
    if (f == "min" || f == "max") {
      if (a.size() != 2) fail(f + " needs two arguments");
      if (isFloating(k)) return fn(f == "min" ? "fmin" : "fmax");
      if (k == ScalarKind::Bool)
        return "(" + a[0] + (f == "min" ? " && " : " || ") + a[1] + ")";
      if (dev) return f + "(" + a[0] + ", " + a[1] + ")";
      return "std::" + f + "<" + cpp + ">(" + a[0] + ", " + a[1] + ")";
    }
    if (f == "isnan") return dev ? "(isnan(" + a.at(0) + ") != 0)" : "std::isnan(" + a.at(0) + ")";
    static const std::set<std::string> math = {"sqrt", "exp", "log", "pow", "sin", "cos",
                                               "tan", "atan2", "floor", "ceil", "round", "erf",
                                               "asin", "acos", "atan", "sinh", "cosh", "tanh",
                                               "log2", "log10", "exp2", "cbrt", "trunc", "fma", "hypot"};
    if (math.count(f)) {
      if (!isFloating(k)) {
        // math on integers: compute in double, convert back to the result type
        std::vector<std::string> d;
        for (auto &x : a) d.push_back(dev ? "(double)(" + x + ")" : "double(" + x + ")");
        if (dev) usesDouble_ = true;
        std::string r = (dev ? f : "std::" + f) + "(" + join(d) + ")";
        ScalarKind rk = e->type.elem;
        return dev ? "((" + std::string(clScalar(rk)) + ")" + r + ")"
                   : "static_cast<" + std::string(cppScalar(rk)) + ">(" + r + ")";
      }
      return fn(f);
    }
    fail("unknown built-in function '" + f + "'");
  }

  static std::string guardCode(Check::Code code) {
    switch (code) {
    case Check::Bounds: return "ARRC_ERR_BOUNDS";
    case Check::Shape: return "ARRC_ERR_SHAPE";
    case Check::ZipSize: return "ARRC_ERR_ZIP";
    case Check::Empty: return "ARRC_ERR_EMPTY";
    case Check::Irregular: return "ARRC_ERR_SHAPE";
    case Check::Other: break;
    }
    return "ARRC_ERR_GENERIC";
  }

  std::string read(const ExpP &e, bool dev) {
    const ExpP &arr = e->args.at(0);
    if (arr->kind != Exp::Var) fail("Read of a non-variable array");
    int rank = static_cast<int>(e->args.size()) - 1;
    std::vector<std::string> idx;
    for (int k = 1; k <= rank; ++k) idx.push_back(exp(e->args[static_cast<size_t>(k)], dev));
    ScalarKind ek = typeOf(arr->var).elem;
    if (!dev) {
      return "arrc::gen::read<" + std::string(cppScalar(ek)) + ", " + std::to_string(rank) + ">(ctx, " +
             name(arr->var) + ", {" + join(idx) + "}, " + std::to_string(e->checkPos) +
             ", detail::positions, detail::num_positions)";
    }
    std::string a = devName(arr->var);
    std::string addr;
    for (int k = 0; k < rank; ++k) {
      addr += "(" + idx[static_cast<size_t>(k)] + ") * " + a + "_w" + std::to_string(k) + " + ";
    }
    addr += a + "_w" + std::to_string(rank);
    std::string v = a + "[" + addr + "]";
    if (ek == ScalarKind::Bool) v = "(" + v + " != 0)";
    if (e->checkPos < 0) return v;
    std::vector<std::string> checks;
    for (int k = 0; k < rank; ++k)
      checks.push_back("arrc_in_bounds(arrc_err, " + std::to_string(e->checkPos) + ", " +
                       idx[static_cast<size_t>(k)] + ", " + a + "_n" + std::to_string(k) + ", " +
                       std::to_string(k) + ")");
    std::string zero = ek == ScalarKind::Bool ? "false" : "(" + std::string(clScalar(ek)) + ")0";
    // A lowering guard (Module::guards) fails by reading index 1 of its
    // one-element array: report the guarded check's own error, not bounds.
    for (const auto &g : m_.guards)
      if (g.var == arr->var)
        return "((" + idx[0] + ") == 0 ? " + v + " : (arrc_raise(arrc_err, " + guardCode(g.code) +
               ", " + std::to_string(e->checkPos) + ", -1, -1, 0), " + zero + "))";
    return "(" + join(checks, " && ") + " ? " + v + " : " + zero + ")";
  }

  // ---------------------------------------------------------------- device blocks
  std::string decl(int v, bool dev) {
    const ir::Type &t = typeOf(v);
    if (dev) {
      noteType(t.elem);
      return std::string(clScalar(t.elem)) + " " + devName(v);
    }
    std::string d = cppType(t) + " " + name(v);
    if (t.rank == 0 && !used_.count(v)) d = "[[maybe_unused]] " + d;
    return d;
  }

  void devBlock(Code &c, const Block &b) {
    for (auto &s : b.stmts) devStmt(c, *s);
  }

  void devStmt(Code &c, const Stmt &s) {
    switch (s.kind) {
    case StmtKind::Let: {
      auto &x = static_cast<const Let &>(s);
      int v = x.outs.at(0);
      if (typeOf(v).rank > 0) {
        if (x.value->kind != Exp::Var) fail("array Let of a non-variable inside a kernel");
        devAlias_[v] = devName(x.value->var);
        return;
      }
      c.line(decl(v, true) + " = " + exp(x.value, true) + ";");
      return;
    }
    case StmtKind::If: {
      auto &x = static_cast<const ir::If &>(s);
      for (int o : x.outs) {
        if (typeOf(o).rank > 0) fail("array-valued if inside a kernel");
        c.line(decl(o, true) + ";");
      }
      c.open("if (" + exp(x.cond, true) + ")");
      devBlock(c, x.thenB);
      for (size_t i = 0; i < x.outs.size(); ++i)
        c.line(devName(x.outs[i]) + " = " + exp(x.thenB.results.at(i), true) + ";");
      c.close();
      c.open("else");
      devBlock(c, x.elseB);
      for (size_t i = 0; i < x.outs.size(); ++i)
        c.line(devName(x.outs[i]) + " = " + exp(x.elseB.results.at(i), true) + ";");
      c.close();
      return;
    }
    case StmtKind::Loop: {
      auto &x = static_cast<const ir::Loop &>(s);
      for (size_t i = 0; i < x.params.size(); ++i) {
        if (typeOf(x.params[i]).rank > 0) fail("array-valued loop inside a kernel");
        c.line(decl(x.params[i], true) + " = " + exp(x.init.at(i), true) + ";");
      }
      if (x.form == ir::Loop::For) {
        std::string iv = devName(x.index);
        std::string it = clScalar(typeOf(x.index).elem);
        c.open("for (" + it + " " + iv + " = 0; " + iv + " < " + exp(x.count, true) + "; ++" + iv + ")");
      } else {
        c.open("for (;;)");
        devBlock(c, x.cond);
        c.line("if (!(" + exp(x.cond.results.at(0), true) + ")) break;");
      }
      devBlock(c, x.body);
      loopAssign(c, x, true);
      c.close();
      for (size_t i = 0; i < x.outs.size(); ++i)
        c.line(decl(x.outs[i], true) + " = " + devName(x.params.at(i)) + ";");
      return;
    }
    case StmtKind::Write: {
      auto &x = static_cast<const Write &>(s);
      std::string a = devName(x.array);
      std::string addr;
      for (size_t k = 0; k < x.indices.size(); ++k)
        addr += "(" + exp(x.indices[k], true) + ") * " + a + "_w" + std::to_string(k) + " + ";
      addr += a + "_w" + std::to_string(x.indices.size());
      ScalarKind ek = typeOf(x.array).elem;
      std::string v = exp(x.value, true);
      if (ek == ScalarKind::Bool) v = "(uchar)(" + v + ")";
      c.line(a + "[" + addr + "] = " + v + ";");
      return;
    }
    default:
      fail("host-level statement (kind " + std::to_string(int(s.kind)) + ") inside a kernel body");
    }
  }

  // params = body.results, through temporaries (they may refer to each other).
  void loopAssign(Code &c, const ir::Loop &x, bool dev) {
    if (x.params.size() == 1) {
      c.line((dev ? devName(x.params[0]) : name(x.params[0])) + " = " +
             exp(x.body.results.at(0), dev) + ";");
      return;
    }
    for (size_t i = 0; i < x.params.size(); ++i) {
      const ir::Type &t = typeOf(x.params[i]);
      std::string ty = dev ? clScalar(t.elem) : cppType(t);
      c.line(ty + " next_" + std::to_string(i) + " = " + exp(x.body.results.at(i), dev) + ";");
    }
    for (size_t i = 0; i < x.params.size(); ++i)
      c.line((dev ? devName(x.params[i]) : name(x.params[i])) + " = " +
             (dev ? "next_" + std::to_string(i) : "std::move(next_" + std::to_string(i) + ")") + ";");
  }

  // ---------------------------------------------------------------- kernel pieces
  // Free variables of device code: arrays as buffer + shape + weights, scalars by value.
  KernelArgs freeArgs(const std::set<int> &vars) {
    KernelArgs k;
    for (int v : vars) {
      const ir::Type &t = typeOf(v);
      const std::string &n = name(v);
      noteType(t.elem);
      if (t.rank == 0) {
        std::string h = t.elem == ScalarKind::Bool ? "uint8_t(" + n + ")" : n;
        k.add(std::string(clStore(t.elem)) + " " + n, h);
        continue;
      }
      k.add("__global " + std::string(clStore(t.elem)) + " *" + n, n);
      for (int a = 0; a < t.rank; ++a)
        k.add("long " + n + "_n" + std::to_string(a), n + ".shape(" + std::to_string(a) + ")");
      for (int a = 0; a <= t.rank; ++a)
        k.add("long " + n + "_w" + std::to_string(a), n + ".weight(" + std::to_string(a) + ")");
    }
    return k;
  }

  static std::set<int> freeOf(const std::vector<const Block *> &blocks,
                              const std::vector<const ir::Lambda *> &lambdas,
                              const std::vector<int> &bound) {
    std::set<int> u, d(bound.begin(), bound.end());
    for (auto *b : blocks) usesBlock(*b, u, d);
    for (auto *l : lambdas) usesLambda(*l, u, d);
    std::set<int> r;
    for (int v : u)
      if (!d.count(v)) r.insert(v);
    return r;
  }

  Producer bodyProducer(const Block &body, std::vector<int> indexVars) {
    return [this, &body, indexVars](Code &c, const std::string &idx, const std::vector<std::string> &outs) {
      c.open("");
      if (!indexVars.empty() && indexVars[0] >= 0)
        c.line(decl(indexVars[0], true) + " = " + idx + ";");
      devBlock(c, body);
      for (size_t k = 0; k < outs.size(); ++k) c.line(outs[k] + " = " + exp(body.results.at(k), true) + ";");
      c.close();
    };
  }

  OpFn lambdaOp(const ir::Lambda &op) {
    return [this, &op](Code &c, const std::vector<std::string> &a, const std::vector<std::string> &b,
                       const std::vector<std::string> &out) {
      size_t K = a.size();
      if (op.params.size() != 2 * K) fail("operator arity does not match its element");
      c.open("");
      for (size_t i = 0; i < K; ++i) c.line(decl(op.params[i], true) + " = " + a[i] + ";");
      for (size_t i = 0; i < K; ++i) c.line(decl(op.params[K + i], true) + " = " + b[i] + ";");
      devBlock(c, op.body);
      for (size_t i = 0; i < K; ++i) c.line(out[i] + " = " + exp(op.body.results.at(i), true) + ";");
      c.close();
    };
  }

  std::string newKernel(const std::string &kind, const Stmt &s) {
    std::string base = fnName_ + "_" + kind + std::to_string(kernelCounter_++);
    if (!s.outs.empty()) base += "_" + sanitize(m_.vars.at(static_cast<size_t>(s.outs[0])).name.empty()
                                                    ? std::string("t")
                                                    : m_.vars[static_cast<size_t>(s.outs[0])].name);
    return base;
  }

  void beginKernel(Code &k, const std::string &name, const std::string &comment,
                   const std::vector<std::string> &params) {
    devAlias_.clear();
    k.line("");
    k.line("// " + comment);
    std::vector<std::string> p = params;
    p.push_back("__global long *arrc_err");
    k.line("__kernel void " + name + "(");
    for (size_t i = 0; i < p.size(); ++i) k.line("    " + p[i] + (i + 1 < p.size() ? "," : ")"));
    k.open("");
  }

  std::string launch(const std::string &kernel, const std::string &global, const std::string &local,
                     const std::vector<std::string> &args) {
    std::vector<std::string> a = args;
    a.push_back("ctx.error_buffer()");
    return "ctx.launch(detail::kernel(ctx, \"" + kernel + "\"), " + global + ", " + local + ",\n" +
           "           " + join(a) + ");";
  }

  // Host code writes each line through this (current indentation).
  Code *host_ = nullptr;
  void h(const std::string &l) { host_->line(l); }

  // ---------------------------------------------------------------- host blocks
  void hostBlock(const Block &b) {
    for (auto &s : b.stmts) hostStmt(*s);
  }

  void hostStmt(const Stmt &s) {
    switch (s.kind) {
    case StmtKind::Let: {
      auto &x = static_cast<const Let &>(s);
      int v = x.outs.at(0);
      h(decl(v, false) + " = " + exp(x.value, false) + ";");
      return;
    }
    case StmtKind::If: {
      auto &x = static_cast<const ir::If &>(s);
      for (int o : x.outs) h(decl(o, false) + "{};");
      host_->open("if (" + exp(x.cond, false) + ")");
      hostBlock(x.thenB);
      for (size_t i = 0; i < x.outs.size(); ++i) h(name(x.outs[i]) + " = " + exp(x.thenB.results.at(i), false) + ";");
      host_->close();
      host_->open("else");
      hostBlock(x.elseB);
      for (size_t i = 0; i < x.outs.size(); ++i) h(name(x.outs[i]) + " = " + exp(x.elseB.results.at(i), false) + ";");
      host_->close();
      return;
    }
    case StmtKind::Loop: {
      auto &x = static_cast<const ir::Loop &>(s);
      for (size_t i = 0; i < x.params.size(); ++i) h(decl(x.params[i], false) + " = " + exp(x.init.at(i), false) + ";");
      if (x.form == ir::Loop::For) {
        std::string iv = name(x.index);
        std::string it = cppScalar(typeOf(x.index).elem);
        host_->open("for (" + it + " " + iv + " = 0, " + iv + "_end = " + exp(x.count, false) + "; " + iv +
                    " < " + iv + "_end; ++" + iv + ")");
      } else {
        host_->open("for (;;)");
        hostBlock(x.cond);
        h("if (!(" + exp(x.cond.results.at(0), false) + ")) break;");
      }
      hostBlock(x.body);
      loopAssign(*host_, x, false);
      host_->close();
      for (size_t i = 0; i < x.outs.size(); ++i) h(decl(x.outs[i], false) + " = " + name(x.params.at(i)) + ";");
      return;
    }
    case StmtKind::Alloc: {
      auto &x = static_cast<const Alloc &>(s);
      int v = x.outs.at(0);
      const ir::Type &t = typeOf(v);
      std::vector<std::string> d;
      for (auto &e : x.dims) d.push_back(exp(e, false));
      h(decl(v, false) + " = " + cppType(t) + (x.zero ? "::zeros" : "::alloc") + "(ctx, {" + join(d) + "});");
      return;
    }
    case StmtKind::View: {
      auto &x = static_cast<const View &>(s);
      int v = x.outs.at(0);
      if (x.source->kind != Exp::Var) fail("View of a non-variable");
      std::vector<std::string> sh, w;
      for (auto &e : x.shape) sh.push_back(exp(e, false));
      for (auto &e : x.weights) w.push_back(exp(e, false));
      h(decl(v, false) + "(" + name(x.source->var) + ".buffer_ptr(), {" + join(sh) + "}, {" + join(w) + "});");
      return;
    }
    case StmtKind::Literal: {
      auto &x = static_cast<const Literal &>(s);
      int v = x.outs.at(0);
      const ir::Type &t = typeOf(v);
      std::vector<std::string> vals;
      if (isFloating(t.elem))
        for (double d : x.fvals) vals.push_back(floatLit(d, t.elem, false));
      else
        for (int64_t i : x.ivals) vals.push_back(intLit(i, t.elem, false));
      std::vector<std::string> sh;
      for (int64_t n : x.shape) sh.push_back(std::to_string(n));
      h(decl(v, false) + " = " + cppType(t) + "::from(ctx, std::vector<" + cppScalar(t.elem) + ">{" + join(vals) +
        "}, std::array<int64_t, " + std::to_string(t.rank) + ">{" + join(sh) + "});");
      return;
    }
    case StmtKind::Check: return check(static_cast<const Check &>(s));
    case StmtKind::Map: return map(static_cast<const Map &>(s));
    case StmtKind::Reduce: return reduce(static_cast<const Reduce &>(s));
    case StmtKind::Scan: {
      auto &x = static_cast<const Scan &>(s);
      return scanLike(s, x.n, x.index, x.body, x.op, x.ne, x.exclusive, false);
    }
    case StmtKind::SegScan: {
      auto &x = static_cast<const SegScan &>(s);
      return scanLike(s, x.n, x.index, x.body, x.op, x.ne, false, true);
    }
    case StmtKind::SegReduce: return segReduce(static_cast<const SegReduce &>(s));
    case StmtKind::Filter: return filter(static_cast<const Filter &>(s));
    case StmtKind::Scatter: return scatter(static_cast<const Scatter &>(s));
    case StmtKind::Hist: return hist(static_cast<const Hist &>(s));
    case StmtKind::Sort: return sort(static_cast<const Sort &>(s));
    case StmtKind::Expand: return expand(static_cast<const Expand &>(s));
    case StmtKind::Write: fail("Write at host level");
    }
  }

  void check(const Check &x) {
    auto v = [&](size_t i) { return i < x.values.size() ? "int64_t(" + exp(x.values[i], false) + ")" : std::string("0"); };
    std::string pos = "detail::position(" + std::to_string(x.pos) + ")";
    std::string err;
    switch (x.code) {
    case Check::Bounds: err = "arrc::format_error(arrc::ErrorCode::bounds, " + pos + ", " + v(0) + ", " + v(1) + ", " + v(2) + ")"; break;
    case Check::Shape:
      if (x.values.size() > 2 && x.values.size() % 2 == 0) {
        // (a0, b0, a1, b1, ...): the two shapes axis by axis
        std::string a = "\"[\"", b = "\"[\"";
        for (size_t i = 0; i < x.values.size(); i += 2) {
          std::string sep = i ? " + \", \" + " : " + ";
          a += sep + "std::to_string(" + v(i) + ")";
          b += sep + "std::to_string(" + v(i + 1) + ")";
        }
        err = "(" + pos + " + \": shape mismatch: \" + " + a + " + \"] vs \" + " + b + " + \"]\")";
      } else {
        err = "arrc::format_error(arrc::ErrorCode::shape, " + pos + ", " + v(0) + ", " + v(1) + ", 0)";
      }
      break;
    case Check::ZipSize: err = "arrc::format_error(arrc::ErrorCode::zip, " + pos + ", " + v(0) + ", " + v(1) + ", 0)"; break;
    case Check::Empty: err = "arrc::format_error(arrc::ErrorCode::empty, " + pos + ", 0, 0, 0)"; break;
    case Check::Irregular:
      err = "(" + pos + " + \": irregular array: inner sizes \" + std::to_string(" + v(0) +
            ") + \" and \" + std::to_string(" + v(1) + ") + \" differ\")";
      break;
    case Check::Other:
      err = "(" + pos + " + \": " + (x.message.empty() ? std::string("runtime check failed") : quote(x.message).substr(1, quote(x.message).size() - 2)) + "\")";
      break;
    }
    h("if (!(" + exp(x.cond, false) + "))");
    h("  throw arrc::Error(" + err + ");");
  }

  // ---------------------------------------------------------------- Map
  void map(const Map &x) {
    std::string kn = newKernel("map", x);
    size_t D = x.dims.size();
    if (D == 0) fail("Map with no dimensions");
    std::set<int> fv = freeOf({&x.body}, {}, x.index);
    KernelArgs args = freeArgs(fv);
    std::vector<std::string> dimNames;
    for (size_t k = 0; k < D; ++k) dimNames.push_back("d" + std::to_string(k));
    h("// " + std::string(x.outs.empty() ? "parallel for-each" : "map") + (where(x).empty() ? "" : " (" + where(x) + ")") + ": kernel " + kn);
    for (int o : x.outs) h(decl(o, false) + ";");
    host_->open("");
    for (size_t k = 0; k < D; ++k) h("const int64_t " + dimNames[k] + " = " + exp(x.dims[k], false) + ";");
    std::vector<std::string> ocl = args.cl, oh = args.host;
    for (int o : x.outs) {
      const ir::Type &t = typeOf(o);
      noteType(t.elem);
      h(name(o) + " = " + cppType(t) + "::alloc(ctx, {" + join(dimNames) + "});");
      ocl.push_back("__global " + std::string(clStore(t.elem)) + " *" + name(o));
      oh.push_back(name(o));
    }
    for (size_t k = 0; k < D; ++k) {
      ocl.push_back("long " + dimNames[k]);
      oh.push_back(dimNames[k]);
    }
    std::string cond = join(dimNames, " > 0 && ") + " > 0";
    std::string global;
    if (D <= 3) {
      std::vector<std::string> g;
      for (size_t k = 0; k < D; ++k) g.push_back("size_t(" + dimNames[D - 1 - k] + ")");
      global = "arrc::NDRange(" + join(g) + ")";
    } else {
      global = "arrc::NDRange(size_t(" + join(dimNames, " * ") + "))";
    }
    h("if (" + cond + ")");
    h("  " + launch(kn, global, "arrc::NDRange()", oh));
    host_->close();

    Code k;
    k.ind = 0;
    beginKernel(k, kn, (x.outs.empty() ? "for-each" : "map") + std::string(where(x).empty() ? "" : " at " + where(x)), ocl);
    if (D <= 3) {
      for (size_t j = 0; j < D; ++j)
        k.line(decl(x.index[j], true) + " = (" + clScalar(typeOf(x.index[j]).elem) + ")get_global_id(" + std::to_string(D - 1 - j) + ");");
    } else {
      k.line("long lin = get_global_id(0);");
      for (size_t jj = D; jj-- > 0;) {
        k.line(decl(x.index[jj], true) + " = lin % " + dimNames[jj] + ";");
        if (jj) k.line("lin /= " + dimNames[jj] + ";");
      }
    }
    devBlock(k, x.body);
    if (!x.outs.empty()) {
      std::string lin = devName(x.index[0]);
      for (size_t j = 1; j < D; ++j) lin = "(" + lin + ") * " + dimNames[j] + " + " + devName(x.index[j]);
      k.line("long out_index = " + lin + ";");
      for (size_t o = 0; o < x.outs.size(); ++o) {
        std::string v = exp(x.body.results.at(o), true);
        if (typeOf(x.outs[o]).elem == ScalarKind::Bool) v = "(uchar)(" + v + ")";
        k.line(name(x.outs[o]) + "[out_index] = " + v + ";");
      }
    }
    k.close();
    kernels_ += k.s;
  }

  // ---------------------------------------------------------------- Reduce
  // Two stages: `groups` work-groups each fold consecutive chunks per
  // work-item and combine them in order in local memory (order-preserving
  // tree: the operator need not be commutative); one work-group then folds
  // the per-group partials.
  void reduce(const Reduce &x) {
    std::string kn = newKernel("reduce", x);
    size_t K = x.outs.size();
    std::vector<ScalarKind> ty;
    for (int o : x.outs) ty.push_back(typeOf(o).elem);
    std::set<int> fvBody = freeOf({&x.body}, {&x.op}, {x.index});
    std::set<int> fvOp = freeOf({}, {&x.op}, {});
    KernelArgs a1 = freeArgs(fvBody), a2 = freeArgs(fvOp);
    KernelArgs ne;
    for (size_t i = 0; i < K; ++i) {
      std::string n = "ne" + std::to_string(i);
      ne.add(std::string(clStore(ty[i])) + " " + n, "");
    }
    h("// reduce" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": kernels " + kn + "_groups, " + kn + "_final");
    for (int o : x.outs) h(decl(o, false) + "{};");
    host_->open("");
    h("const int64_t n = " + exp(x.n, false) + ";");
    for (size_t i = 0; i < K; ++i) {
      std::string ex = exp(x.ne.at(i), false);
      ne.host[i] = ty[i] == ScalarKind::Bool ? "uint8_t(" + ex + ")" : std::string(cppScalar(ty[i])) + "(" + ex + ")";
    }
    h("const arrc::gen::ReduceShape rs = arrc::gen::reduce_shape(ctx, n);");
    std::vector<std::string> h1 = a1.host, h2 = a2.host, c1 = a1.cl, c2 = a2.cl;
    h1.insert(h1.end(), ne.host.begin(), ne.host.end());
    h2.insert(h2.end(), ne.host.begin(), ne.host.end());
    c1.insert(c1.end(), ne.cl.begin(), ne.cl.end());
    c2.insert(c2.end(), ne.cl.begin(), ne.cl.end());
    h1.push_back("n");
    h1.push_back("rs.chunk");
    h2.push_back("int64_t(rs.groups)");
    h2.push_back("rs.chunk2");
    c1.push_back("long n");
    c1.push_back("long chunk");
    c2.push_back("long n");
    c2.push_back("long chunk");
    for (size_t i = 0; i < K; ++i) {
      std::string st = cppStore(ty[i]), cs = clStore(ty[i]), is = std::to_string(i);
      h("arrc::BufferPtr part" + is + " = ctx.alloc(rs.groups * sizeof(" + st + "));");
      h("arrc::BufferPtr result" + is + " = ctx.alloc(sizeof(" + st + "));");
      h1.push_back("part" + is);
      c1.push_back("__global " + cs + " *part" + is);
      h2.push_back("part" + is);
      c2.push_back("__global " + cs + " *part" + is);
      h2.push_back("result" + is);
      c2.push_back("__global " + cs + " *result" + is);
    }
    for (size_t i = 0; i < K; ++i) {
      std::string st = cppStore(ty[i]), cs = clStore(ty[i]), is = std::to_string(i);
      h1.push_back("arrc::LocalMem{rs.local * sizeof(" + st + ")}");
      h2.push_back("arrc::LocalMem{rs.local * sizeof(" + st + ")}");
      c1.push_back("__local " + cs + " *scratch" + is);
      c2.push_back("__local " + cs + " *scratch" + is);
    }
    h(launch(kn + "_groups", "arrc::NDRange(rs.groups * rs.local)", "arrc::NDRange(rs.local)", h1));
    h(launch(kn + "_final", "arrc::NDRange(rs.local)", "arrc::NDRange(rs.local)", h2));
    for (size_t i = 0; i < K; ++i)
      h(name(x.outs[i]) + " = arrc::gen::read_result<" + cppScalar(ty[i]) + ">(ctx, result" + std::to_string(i) + ");");
    h("detail::check(ctx);");
    host_->close();

    Producer prod = bodyProducer(x.body, {x.index});
    OpFn op = lambdaOp(x.op);
    foldKernel(kn + "_groups", "reduce at " + where(x) + ": per-group partial results", c1, ty, prod, op, "part", "get_group_id(0)");
    Producer readPart = [ty](Code &c, const std::string &idx, const std::vector<std::string> &outs) {
      for (size_t i = 0; i < outs.size(); ++i) c.line(outs[i] + " = part" + std::to_string(i) + "[" + idx + "];");
    };
    foldKernel(kn + "_final", "reduce at " + where(x) + ": final result", c2, ty, readPart, op, "result", "0");
  }

  void foldKernel(const std::string &kname, const std::string &comment, const std::vector<std::string> &params,
                  const std::vector<ScalarKind> &ty, const Producer &prod, const OpFn &op,
                  const std::string &outBuf, const std::string &outIndex) {
    Code k;
    beginKernel(k, kname, comment, params);
    size_t K = ty.size();
    std::vector<std::string> acc, v, sa, sb;
    for (size_t i = 0; i < K; ++i) {
      std::string is = std::to_string(i);
      noteType(ty[i]);
      k.line(std::string(clScalar(ty[i])) + " acc" + is + " = ne" + is + ";");
      k.line(std::string(clScalar(ty[i])) + " x" + is + ";");
      acc.push_back("acc" + is);
      v.push_back("x" + is);
    }
    k.line("const long lid = get_local_id(0), L = get_local_size(0);");
    k.line("const long lo = (long)get_global_id(0) * chunk, hi = min(lo + chunk, n);");
    k.open("for (long i = lo; i < hi; ++i)");
    prod(k, "i", v);
    op(k, acc, v, acc);
    k.close();
    for (size_t i = 0; i < K; ++i) k.line("scratch" + std::to_string(i) + "[lid] = acc" + std::to_string(i) + ";");
    k.line("barrier(CLK_LOCAL_MEM_FENCE);");
    k.open("for (long s = 1; s < L; s <<= 1)");
    k.open("if ((lid & (2 * s - 1)) == 0 && lid + s < L)");
    for (size_t i = 0; i < K; ++i) {
      std::string is = std::to_string(i);
      k.line(std::string(clScalar(ty[i])) + " l" + is + " = scratch" + is + "[lid], r" + is + " = scratch" + is + "[lid + s];");
      sa.push_back("l" + is);
      sb.push_back("r" + is);
    }
    op(k, sa, sb, sa);
    for (size_t i = 0; i < K; ++i) k.line("scratch" + std::to_string(i) + "[lid] = l" + std::to_string(i) + ";");
    k.close();
    k.line("barrier(CLK_LOCAL_MEM_FENCE);");
    k.close();
    k.open("if (lid == 0)");
    for (size_t i = 0; i < K; ++i)
      k.line(outBuf + std::to_string(i) + "[" + outIndex + "] = scratch" + std::to_string(i) + "[0];");
    k.close();
    k.close();
    kernels_ += k.s;
  }

  // ---------------------------------------------------------------- chunked scan
  // Three phases over `threads` work-items owning `chunk` consecutive
  // elements: (1) each folds its chunk, (2) one work-item scans the partials
  // (exclusive; the total lands at index `threads`), (3) each rescans its chunk
  // from its prefix and writes. Used by scan, segmented scan, filter and expand.
  struct ScanSpec {
    std::string kname, comment;
    std::vector<ScalarKind> ty;
    Producer prod;
    OpFn op;
    KernelArgs free1;  // free variables of producer + operator
    KernelArgs freeOp; // free variables of the operator
    std::vector<std::string> neHost; // host expressions of the neutral elements (storage type)
    // phase 3: given the running accumulator `acc*` before element i and the
    // element `x*`, write the outputs (and update acc). Extra params for it:
    std::function<void(Code &, const std::vector<std::string> &acc, const std::vector<std::string> &x)> phase3;
    KernelArgs out3;
    bool phase3Produces = false; // phase3 evaluates the element itself
  };

  // Emits the three kernels and the host launches (inside the current host
  // scope, which must define `n`, `sg`). The host allocates `part<i>` with
  // threads + 1 entries; after the call the total is at part<i>[threads].
  void chunkedScan(const ScanSpec &sp) {
    size_t K = sp.ty.size();
    KernelArgs ne;
    for (size_t i = 0; i < K; ++i) ne.add(std::string(clStore(sp.ty[i])) + " ne" + std::to_string(i), sp.neHost.at(i));
    KernelArgs parts;
    for (size_t i = 0; i < K; ++i) {
      std::string is = std::to_string(i);
      h("arrc::BufferPtr part" + is + " = ctx.alloc(size_t(sg.threads + 1) * sizeof(" + cppStore(sp.ty[i]) + "));");
      parts.add("__global " + std::string(clStore(sp.ty[i])) + " *part" + is, "part" + is);
    }
    KernelArgs p1 = sp.free1;
    p1.append(ne);
    p1.add("long n", "n");
    p1.add("long chunk", "sg.chunk");
    p1.append(parts);
    KernelArgs p2 = sp.freeOp;
    p2.append(ne);
    p2.add("long threads", "sg.threads");
    p2.append(parts);
    KernelArgs p3 = p1;
    p3.append(sp.out3);
    h(launch(sp.kname + "_chunks", "arrc::NDRange(size_t(sg.threads))", "arrc::NDRange()", p1.host));
    h(launch(sp.kname + "_partials", "arrc::NDRange(1)", "arrc::NDRange()", p2.host));
    pendingPhase3_ = launch(sp.kname + "_write", "arrc::NDRange(size_t(sg.threads))", "arrc::NDRange()", p3.host);

    std::vector<std::string> acc, v, t;
    for (size_t i = 0; i < K; ++i) {
      acc.push_back("acc" + std::to_string(i));
      v.push_back("x" + std::to_string(i));
      t.push_back("t" + std::to_string(i));
    }
    auto declAcc = [&](Code &k, const std::string &init) {
      for (size_t i = 0; i < K; ++i) {
        std::string is = std::to_string(i);
        noteType(sp.ty[i]);
        k.line(std::string(clScalar(sp.ty[i])) + " acc" + is + " = " + init + is + ";");
        k.line(std::string(clScalar(sp.ty[i])) + " x" + is + ";");
      }
    };
    { // phase 1
      Code k;
      beginKernel(k, sp.kname + "_chunks", sp.comment + ": fold each chunk", p1.cl);
      k.line("const long t = get_global_id(0);");
      declAcc(k, "ne");
      k.line("const long lo = t * chunk, hi = min(lo + chunk, n);");
      k.open("for (long i = lo; i < hi; ++i)");
      sp.prod(k, "i", v);
      sp.op(k, acc, v, acc);
      k.close();
      for (size_t i = 0; i < K; ++i) k.line("part" + std::to_string(i) + "[t] = acc" + std::to_string(i) + ";");
      k.close();
      kernels_ += k.s;
    }
    { // phase 2
      Code k;
      beginKernel(k, sp.kname + "_partials", sp.comment + ": exclusive scan of the chunk totals", p2.cl);
      declAcc(k, "ne");
      k.open("for (long t = 0; t < threads; ++t)");
      for (size_t i = 0; i < K; ++i) {
        std::string is = std::to_string(i);
        k.line("x" + is + " = part" + is + "[t];");
        k.line("part" + is + "[t] = acc" + is + ";");
      }
      sp.op(k, acc, v, acc);
      k.close();
      for (size_t i = 0; i < K; ++i) k.line("part" + std::to_string(i) + "[threads] = acc" + std::to_string(i) + ";");
      k.close();
      kernels_ += k.s;
    }
    { // phase 3
      Code k;
      beginKernel(k, sp.kname + "_write", sp.comment + ": rescan each chunk and write", p3.cl);
      k.line("const long t = get_global_id(0);");
      declAcc(k, "ne");
      for (size_t i = 0; i < K; ++i) k.line("acc" + std::to_string(i) + " = part" + std::to_string(i) + "[t];");
      k.line("const long lo = t * chunk, hi = min(lo + chunk, n);");
      k.open("for (long i = lo; i < hi; ++i)");
      if (!sp.phase3Produces) sp.prod(k, "i", v);
      sp.phase3(k, acc, v);
      k.close();
      k.close();
      kernels_ += k.s;
    }
  }
  std::string pendingPhase3_;

  std::vector<std::string> neHost(const std::vector<ExpP> &ne, const std::vector<ScalarKind> &ty) {
    std::vector<std::string> r;
    for (size_t i = 0; i < ty.size(); ++i) {
      std::string ex = exp(ne.at(i), false);
      r.push_back(ty[i] == ScalarKind::Bool ? "uint8_t(" + ex + ")" : std::string(cppScalar(ty[i])) + "(" + ex + ")");
    }
    return r;
  }

  // Scan and segmented scan (the latter lifts the operator to (flag, value) pairs).
  void scanLike(const Stmt &s, const ExpP &n, int index, const Block &body, const ir::Lambda &lop,
                const std::vector<ExpP> &neE, bool exclusive, bool segmented,
                std::vector<std::string> *tempOuts = nullptr) {
    std::string kn = newKernel(segmented ? "segscan" : "scan", s);
    size_t K = segmented ? body.results.size() - 1 : body.results.size();
    std::vector<ScalarKind> ty;
    for (size_t i = 0; i < K; ++i) ty.push_back(neE.at(i)->type.elem);
    ScanSpec sp;
    sp.kname = kn;
    sp.comment = std::string(segmented ? "segmented scan" : exclusive ? "exclusive scan" : "scan") + " at " + where(s);
    sp.free1 = freeArgs(freeOf({&body}, {&lop}, {index}));
    sp.freeOp = freeArgs(freeOf({}, {&lop}, {}));
    OpFn base = lambdaOp(lop);
    std::vector<std::string> outNames;
    if (tempOuts) outNames = *tempOuts;
    else
      for (int o : s.outs) outNames.push_back(name(o));
    h("// " + sp.comment + ": kernels " + kn + "_chunks, _partials, _write");
    if (!tempOuts)
      for (int o : s.outs) h(decl(o, false) + ";");
    host_->open("");
    h("const int64_t n = " + exp(n, false) + ";");
    for (size_t i = 0; i < K; ++i)
      h(outNames[i] + " = " + cppArray(ty[i], 1) + "::alloc(ctx, {n});");
    for (size_t i = 0; i < K; ++i) {
      noteType(ty[i]);
      sp.out3.add("__global " + std::string(clStore(ty[i])) + " *out" + std::to_string(i), outNames[i]);
    }
    std::vector<std::string> neh = neHost(neE, ty);
    if (!segmented) {
      sp.ty = ty;
      sp.prod = bodyProducer(body, {index});
      sp.op = base;
      sp.neHost = neh;
      sp.phase3 = [K, exclusive, base, ty](Code &c, const std::vector<std::string> &acc, const std::vector<std::string> &x) {
        auto store = [&](size_t i) {
          std::string v = acc[i];
          if (ty[i] == ScalarKind::Bool) v = "(uchar)" + v;
          c.line("out" + std::to_string(i) + "[i] = " + v + ";");
        };
        if (exclusive)
          for (size_t i = 0; i < K; ++i) store(i);
        base(c, acc, x, acc);
        if (!exclusive)
          for (size_t i = 0; i < K; ++i) store(i);
      };
    } else {
      sp.ty = {ScalarKind::Bool};
      sp.ty.insert(sp.ty.end(), ty.begin(), ty.end());
      sp.prod = bodyProducer(body, {index});
      sp.op = [base, K](Code &c, const std::vector<std::string> &a, const std::vector<std::string> &b,
                        const std::vector<std::string> &out) {
        std::vector<std::string> av(a.begin() + 1, a.end()), bv(b.begin() + 1, b.end()),
            ov(out.begin() + 1, out.end());
        c.open("if (" + b[0] + ")");
        for (size_t i = 0; i < K; ++i) c.line(ov[i] + " = " + bv[i] + ";");
        c.close();
        c.open("else");
        base(c, av, bv, ov);
        c.close();
        c.line(out[0] + " = " + a[0] + " || " + b[0] + ";");
      };
      sp.neHost = {"uint8_t(0)"};
      sp.neHost.insert(sp.neHost.end(), neh.begin(), neh.end());
      OpFn lifted = sp.op;
      sp.phase3 = [K, lifted, ty](Code &c, const std::vector<std::string> &acc, const std::vector<std::string> &x) {
        lifted(c, acc, x, acc);
        for (size_t i = 0; i < K; ++i) {
          std::string v = acc[i + 1];
          if (ty[i] == ScalarKind::Bool) v = "(uchar)" + v;
          c.line("out" + std::to_string(i) + "[i] = " + v + ";");
        }
      };
    }
    host_->open("if (n > 0)");
    h("const arrc::gen::ScanShape sg = arrc::gen::scan_shape(n);");
    chunkedScan(sp);
    h(pendingPhase3_);
    host_->close();
    host_->close();
  }

  // ---------------------------------------------------------------- Filter
  void filterLike(const std::string &kn, const std::string &comment, const std::set<int> &fv,
                  const Producer &prod, const std::vector<ScalarKind> &ty,
                  const std::vector<std::string> &outNames, const KernelArgs &extra) {
    // prod yields (keep, v0..vK-1)
    size_t K = ty.size();
    ScanSpec sp;
    sp.kname = kn;
    sp.comment = comment;
    sp.ty = {ScalarKind::Long};
    sp.free1 = freeArgs(fv);
    sp.free1.append(extra);
    sp.neHost = {"int64_t(0)"};
    std::vector<std::string> keepVals = {"keep"};
    for (size_t i = 0; i < K; ++i) keepVals.push_back("v" + std::to_string(i));
    sp.prod = [prod, ty, K](Code &c, const std::string &idx, const std::vector<std::string> &outs) {
      c.open("");
      c.line("bool keep;");
      for (size_t i = 0; i < K; ++i) c.line(std::string(clScalar(ty[i])) + " v" + std::to_string(i) + ";");
      std::vector<std::string> kv = {"keep"};
      for (size_t i = 0; i < K; ++i) kv.push_back("v" + std::to_string(i));
      prod(c, idx, kv);
      c.line(outs[0] + " = keep ? 1 : 0;");
      c.close();
    };
    sp.op = [](Code &c, const std::vector<std::string> &a, const std::vector<std::string> &b,
               const std::vector<std::string> &out) { c.line(out[0] + " = " + a[0] + " + " + b[0] + ";"); };
    for (size_t i = 0; i < K; ++i) {
      noteType(ty[i]);
      sp.out3.add("__global " + std::string(clStore(ty[i])) + " *out" + std::to_string(i), outNames[i]);
    }
    sp.phase3 = [prod, ty, K](Code &c, const std::vector<std::string> &acc, const std::vector<std::string> &) {
      // re-evaluate the element (the producer is pure) and write it if kept
      c.open("");
      c.line("bool keep;");
      for (size_t i = 0; i < K; ++i) c.line(std::string(clScalar(ty[i])) + " v" + std::to_string(i) + ";");
      std::vector<std::string> kv = {"keep"};
      for (size_t i = 0; i < K; ++i) kv.push_back("v" + std::to_string(i));
      prod(c, "i", kv);
      c.open("if (keep)");
      for (size_t i = 0; i < K; ++i) {
        std::string v = "v" + std::to_string(i);
        if (ty[i] == ScalarKind::Bool) v = "(uchar)" + v;
        c.line("out" + std::to_string(i) + "[" + acc[0] + "] = " + v + ";");
      }
      c.line(acc[0] + " += 1;");
      c.close();
      c.close();
    };
    sp.phase3Produces = true;
    host_->open("if (n > 0)");
    h("const arrc::gen::ScanShape sg = arrc::gen::scan_shape(n);");
    chunkedScan(sp);
    h("const int64_t count = arrc::gen::read_count(ctx, part0, sg.threads);");
    for (size_t i = 0; i < K; ++i) h(outNames[i] + " = " + cppArray(ty[i], 1) + "::alloc(ctx, {count});");
    h("if (count > 0)");
    h("  " + pendingPhase3_);
    host_->close();
    host_->open("else");
    for (size_t i = 0; i < K; ++i) h(outNames[i] + " = " + cppArray(ty[i], 1) + "::alloc(ctx, {0});");
    host_->close();
  }

  void filter(const Filter &x) {
    std::string kn = newKernel("filter", x);
    std::vector<ScalarKind> ty;
    for (int o : x.outs) ty.push_back(typeOf(o).elem);
    std::vector<std::string> outNames;
    for (int o : x.outs) outNames.push_back(name(o));
    h("// filter" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": kernels " + kn + "_chunks, _partials, _write");
    for (int o : x.outs) h(decl(o, false) + ";");
    host_->open("");
    h("const int64_t n = " + exp(x.n, false) + ";");
    filterLike(kn, "filter at " + where(x), freeOf({&x.body}, {}, {x.index}), bodyProducer(x.body, {x.index}), ty,
               outNames, {});
    host_->close();
  }

  // Segmented reduce = segmented scan into temporaries, then keep the last
  // element of each segment (element 0 always starts a segment).
  void segReduce(const SegReduce &x) {
    size_t K = x.outs.size();
    std::vector<ScalarKind> ty;
    for (int o : x.outs) ty.push_back(typeOf(o).elem);
    std::vector<std::string> temps, outNames;
    for (size_t i = 0; i < K; ++i) {
      temps.push_back(name(x.outs[i]) + "_scan");
      outNames.push_back(name(x.outs[i]));
    }
    h("// segmented reduce" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": segmented scan, then the last element of each segment");
    for (size_t i = 0; i < K; ++i) h(cppArray(ty[i], 1) + " " + temps[i] + ";");
    for (int o : x.outs) h(decl(o, false) + ";");
    scanLike(x, x.n, x.index, x.body, x.op, x.ne, false, true, &temps);
    std::string kn = newKernel("segends", x);
    host_->open("");
    h("const int64_t n = " + exp(x.n, false) + ";");
    KernelArgs extra;
    for (size_t i = 0; i < K; ++i) {
      extra.add("__global " + std::string(clStore(ty[i])) + " *seg" + std::to_string(i), temps[i]);
    }
    const Block &body = x.body;
    int index = x.index;
    Producer prod = [this, &body, index, K](Code &c, const std::string &idx, const std::vector<std::string> &outs) {
      // outs = (keep, v...): keep the last element of a segment
      c.line("bool next_flag = false;");
      c.open("if (" + idx + " + 1 < n)");
      std::vector<std::string> fl = {"next_flag"};
      c.open("");
      for (size_t i = 1; i < body.results.size(); ++i)
        c.line(std::string(clScalar(body.results[i]->type.elem)) + " unused" + std::to_string(i) + ";");
      for (size_t i = 1; i < body.results.size(); ++i) fl.push_back("unused" + std::to_string(i));
      bodyProducer(body, {index})(c, idx + " + 1", fl);
      c.close();
      c.close();
      c.line(outs[0] + " = next_flag || " + idx + " + 1 == n;");
      for (size_t i = 0; i < K; ++i) c.line(outs[i + 1] + " = seg" + std::to_string(i) + "[" + idx + "];");
    };
    std::set<int> fv = freeOf({&x.body}, {}, {x.index});
    filterLike(kn, "segmented reduce at " + where(x) + ": segment ends", fv, prod, ty, outNames, extra);
    host_->close();
  }

  // ---------------------------------------------------------------- Scatter
  void scatter(const Scatter &x) {
    std::string kn = newKernel("scatter", x);
    size_t K = x.outs.size();
    h("// scatter" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": copy the destinations, then kernel " + kn);
    for (size_t i = 0; i < K; ++i) {
      if (x.dests.at(i)->kind != Exp::Var) fail("scatter destination is not a variable");
      h(decl(x.outs[i], false) + " = " + name(x.dests[i]->var) + ".clone();");
    }
    std::set<int> fv = freeOf({&x.body}, {}, {x.index});
    KernelArgs a = freeArgs(fv);
    for (size_t i = 0; i < K; ++i) {
      ScalarKind ek = typeOf(x.outs[i]).elem;
      a.add("__global " + std::string(clStore(ek)) + " *out" + std::to_string(i), name(x.outs[i]));
    }
    a.add("long n", "n");
    a.add("long length", name(x.outs.at(0)) + ".shape(0)");
    host_->open("");
    h("const int64_t n = " + exp(x.n, false) + ";");
    h("if (n > 0)");
    h("  " + launch(kn, "arrc::NDRange(size_t(n))", "arrc::NDRange()", a.host));
    host_->close();
    Code k;
    beginKernel(k, kn, "scatter at " + where(x), a.cl);
    k.line("const long i = get_global_id(0);");
    std::vector<std::string> vals = {"idx"};
    k.line("long idx;");
    for (size_t i = 0; i < K; ++i) {
      ScalarKind ek = typeOf(x.outs[i]).elem;
      k.line(std::string(clScalar(ek)) + " v" + std::to_string(i) + ";");
      vals.push_back("v" + std::to_string(i));
    }
    bodyProducer(x.body, {x.index})(k, "i", vals);
    k.open("if (idx >= 0 && idx < length)");
    for (size_t i = 0; i < K; ++i) {
      std::string v = "v" + std::to_string(i);
      if (typeOf(x.outs[i]).elem == ScalarKind::Bool) v = "(uchar)" + v;
      k.line("out" + std::to_string(i) + "[idx] = " + v + ";");
    }
    k.close();
    k.close();
    kernels_ += k.s;
  }

  // ---------------------------------------------------------------- Hist
  // Runtime path: one component of int/long/float/double, operator `+`, `*`,
  // `min` or `max` (either argument order) and a constant neutral element (the
  // identity for + and *; any constant for the idempotent min/max) go to
  // arrc::histogram (local-memory / global atomics or compare-and-swap loops)
  // with the body fused in as arrc_bin / arrc_load. The order of combination
  // is unspecified (float sums may differ in rounding from the sequential
  // fold). Everything else uses the exact fallback below.
  struct HistOp {
    std::string kind, expr;
  };
  bool runtimeHistOp(const Hist &x, ScalarKind t, HistOp &r) {
    if (x.outs.size() != 1 || x.op.params.size() != 2 || !x.op.body.stmts.empty() ||
        x.op.body.results.size() != 1 || x.ne.size() != 1)
      return false;
    if (!(isIntegral(t) || isFloating(t))) return false;
    const ExpP &e = x.op.body.results[0];
    const ExpP &ne = x.ne[0];
    if (!ne || ne->kind != Exp::Const) return false;
    if (e->args.size() != 2) return false;
    int a = x.op.params[0], b = x.op.params[1];
    auto isVar = [](const ExpP &v, int id) { return v && v->kind == Exp::Var && v->var == id; };
    if (!((isVar(e->args[0], a) && isVar(e->args[1], b)) || (isVar(e->args[0], b) && isVar(e->args[1], a))))
      return false;
    double nev = isFloating(t) ? ne->fval : double(ne->ival);
    if (e->kind == Exp::Binary && e->binop == BinOp::Add && nev == 0) r = {"Add", "a + b"};
    else if (e->kind == Exp::Binary && e->binop == BinOp::Mul && nev == 1) r = {"Mul", "a * b"};
    else if (e->kind == Exp::Call && e->fn == "min") r = {"Min", isFloating(t) ? "fmin(a, b)" : "min(a, b)"};
    else if (e->kind == Exp::Call && e->fn == "max") r = {"Max", isFloating(t) ? "fmax(a, b)" : "max(a, b)"};
    else return false;
    return true;
  }

  // Host statements building `arrc::Fused in` with the given free variables
  // as kernel arguments (plus the error buffer) and `source`.
  void fusedArgs(const std::set<int> &vars, const std::string &source) {
    h("arrc::Fused in;");
    h("in.source = R\"ARRC_CL(" + source + ")ARRC_CL\";");
    for (int v : vars) {
      const ir::Type &t = typeOf(v);
      const std::string &n = name(v);
      noteType(t.elem);
      std::string cl = clStore(t.elem), cpp = cppStore(t.elem);
      if (t.rank == 0) {
        std::string hv = t.elem == ScalarKind::Bool ? "uint8_t(" + n + ")" : n;
        h("in.args.push_back(arrc::KernelArg::scalar<" + cpp + ">(\"" + cl + "\", \"" + n + "\", " + hv + "));");
        continue;
      }
      h("in.args.push_back(arrc::KernelArg::buffer(\"__global " + cl + "*\", \"" + n + "\", " + n + ".buffer()));");
      for (int a = 0; a < t.rank; ++a)
        h("in.args.push_back(arrc::KernelArg::scalar<int64_t>(\"long\", \"" + n + "_n" + std::to_string(a) +
          "\", int64_t(" + n + ".shape(" + std::to_string(a) + "))));");
      for (int a = 0; a <= t.rank; ++a)
        h("in.args.push_back(arrc::KernelArg::scalar<int64_t>(\"long\", \"" + n + "_w" + std::to_string(a) +
          "\", int64_t(" + n + ".weight(" + std::to_string(a) + "))));");
    }
    h("in.args.push_back(arrc::KernelArg::error_buffer(ctx));");
  }

  static const char *cgHelpers() {
    return R"CL(
#ifndef ARRC_CG_HELPERS
#define ARRC_CG_HELPERS
static inline int arrc_div_int(int a, int b) { return b == 0 ? 0 : b == -1 ? (int)(0u - (uint)a) : a / b; }
static inline int arrc_mod_int(int a, int b) { return b == 0 || b == -1 ? 0 : a % b; }
static inline long arrc_div_long(long a, long b) { return b == 0 ? 0 : b == -1 ? (long)(0ul - (ulong)a) : a / b; }
static inline long arrc_mod_long(long a, long b) { return b == 0 || b == -1 ? 0 : a % b; }
#endif
)CL";
  }

  bool histRuntime(const Hist &x) {
    ScalarKind t = typeOf(x.outs.at(0)).elem;
    HistOp op;
    if (!runtimeHistOp(x, t, op)) return false;
    noteType(t);
    std::set<int> fv = freeOf({&x.body}, {}, {x.index});
    std::string cl = clScalar(t), cpp = cppScalar(t);
    // fused producer: the body evaluated once for the bin, once for the value
    std::string src = cgHelpers();
    for (int part = 0; part < 2; ++part) {
      Code k;
      devAlias_.clear();
      k.open(std::string(part == 0 ? "long arrc_bin" : cl + " arrc_load") + "(long i ARRC_PARAMS)");
      k.line("long bin;");
      k.line(cl + " v0;");
      bodyProducer(x.body, {x.index})(k, "i", {"bin", "v0"});
      k.line(part == 0 ? "return bin;" : "return v0;");
      k.close();
      src += k.s;
    }
    std::string ne = exp(x.ne[0], true);
    h("// histogram" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": runtime arrc::histogram (" + op.kind +
      ", fused producer)");
    h(decl(x.outs[0], false) + ";");
    host_->open("");
    h("const int64_t n = " + exp(x.n, false) + ";");
    h("const int64_t bins = std::max<int64_t>(0, " + exp(x.bins, false) + ");");
    h(name(x.outs[0]) + " = " + cppArray(t, 1) + "::alloc(ctx, {bins});");
    host_->open("if (bins > 0)");
    fusedArgs(fv, src);
    h("arrc::Operator op = arrc::Operator::custom(\"" + op.expr + "\", \"" + ne + "\", true);");
    h("op.kind = arrc::Operator::" + op.kind + ";");
    h("arrc::histogram(ctx, arrc::ElemType::of<" + cpp + ">(), op, bins, n, in, " + name(x.outs[0]) +
      ".buffer(), 0);");
    host_->close();
    host_->close();
    return true;
  }

  // Fallback (exact for any associative operator, tuples too, in index
  // order): `_keys` evaluates the body once per element into bins (long) and
  // value arrays, the runtime radix sort orders (bin, index) pairs stably,
  // then `_fold` gives each bin one work-item that binary-searches its
  // segment of the sorted bins and folds its values in index order.
  // O(n) work plus the sort (a very full bin is folded by one work-item).
  void hist(const Hist &x) {
    if (histRuntime(x)) return;
    std::string kn = newKernel("hist", x);
    size_t K = x.outs.size();
    std::vector<ScalarKind> ty;
    for (int o : x.outs) ty.push_back(typeOf(o).elem);
    KernelArgs a = freeArgs(freeOf({&x.body}, {}, {x.index}));
    a.add("long n", "n");
    a.add("__global long *bins_out", "keys");
    a.add("__global int *perm_out", "perm");
    for (size_t i = 0; i < K; ++i)
      a.add("__global " + std::string(clStore(ty[i])) + " *vals" + std::to_string(i), "vals" + std::to_string(i));
    KernelArgs f = freeArgs(freeOf({}, {&x.op}, {}));
    std::vector<std::string> neh = neHost(x.ne, ty);
    for (size_t i = 0; i < K; ++i) f.add(std::string(clStore(ty[i])) + " ne" + std::to_string(i), neh[i]);
    f.add("long n", "n");
    f.add("long bins", "bins");
    f.add("__global const long *keys", "keys");
    f.add("__global const int *perm", "perm");
    for (size_t i = 0; i < K; ++i)
      f.add("__global const " + std::string(clStore(ty[i])) + " *vals" + std::to_string(i), "vals" + std::to_string(i));
    for (size_t i = 0; i < K; ++i)
      f.add("__global " + std::string(clStore(ty[i])) + " *out" + std::to_string(i), name(x.outs[i]));
    h("// histogram" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": kernels " + kn + "_keys, runtime sort_pairs, " +
      kn + "_fold (one work-item per bin over its sorted segment)");
    for (int o : x.outs) h(decl(o, false) + ";");
    host_->open("");
    h("const int64_t n = " + exp(x.n, false) + ";");
    h("const int64_t bins = std::max<int64_t>(0, " + exp(x.bins, false) + ");");
    for (size_t i = 0; i < K; ++i) h(name(x.outs[i]) + " = " + cppArray(ty[i], 1) + "::alloc(ctx, {bins});");
    h("if (n > int64_t(INT32_MAX)) throw arrc::Error(\"hist: more than 2^31-1 elements\");");
    h("arrc::Array<int64_t, 1> keys = arrc::Array<int64_t, 1>::alloc(ctx, {std::max<int64_t>(n, 1)});");
    h("arrc::Array<int32_t, 1> perm = arrc::Array<int32_t, 1>::alloc(ctx, {std::max<int64_t>(n, 1)});");
    for (size_t i = 0; i < K; ++i)
      h(cppArray(ty[i], 1) + " vals" + std::to_string(i) + " = " + cppArray(ty[i], 1) +
        "::alloc(ctx, {std::max<int64_t>(n, 1)});");
    host_->open("if (bins > 0)");
    h("if (n > 0)");
    h("  " + launch(kn + "_keys", "arrc::NDRange(size_t(n))", "arrc::NDRange()", a.host));
    h("const arrc::ElemType vt = arrc::ElemType::of<int32_t>();");
    h("if (n > 1) arrc::sort_pairs(ctx, arrc::ElemType::of<int64_t>(), n, keys.buffer(), &vt, perm.buffer());");
    h(launch(kn + "_fold", "arrc::NDRange(size_t(bins))", "arrc::NDRange()", f.host));
    host_->close();
    host_->close();
    {
      Code k;
      beginKernel(k, kn + "_keys", "histogram at " + where(x) + ": bins and values, identity permutation", a.cl);
      k.line("const long i = get_global_id(0);");
      std::vector<std::string> outs = {"bin"};
      k.line("long bin;");
      for (size_t i = 0; i < K; ++i) {
        noteType(ty[i]);
        k.line(std::string(clScalar(ty[i])) + " v" + std::to_string(i) + ";");
        outs.push_back("v" + std::to_string(i));
      }
      bodyProducer(x.body, {x.index})(k, "i", outs);
      k.line("bins_out[i] = bin;");
      k.line("perm_out[i] = (int)i;");
      for (size_t i = 0; i < K; ++i) {
        std::string v = "v" + std::to_string(i);
        if (ty[i] == ScalarKind::Bool) v = "(uchar)" + v;
        k.line("vals" + std::to_string(i) + "[i] = " + v + ";");
      }
      k.close();
      kernels_ += k.s;
    }
    {
      Code k;
      beginKernel(k, kn + "_fold", "histogram at " + where(x) + ": fold each bin's sorted segment in index order", f.cl);
      k.line("const long b = get_global_id(0);");
      k.line("long lo = 0, hi = n;");
      k.open("while (lo < hi)");
      k.line("long m = (lo + hi) / 2;");
      k.line("if (keys[m] < b) lo = m + 1; else hi = m;");
      k.close();
      std::vector<std::string> acc, vs;
      for (size_t i = 0; i < K; ++i) {
        k.line(std::string(clScalar(ty[i])) + " acc" + std::to_string(i) + " = ne" + std::to_string(i) + ";");
        k.line(std::string(clScalar(ty[i])) + " x" + std::to_string(i) + ";");
        acc.push_back("acc" + std::to_string(i));
        vs.push_back("x" + std::to_string(i));
      }
      k.open("for (long j = lo; j < n && keys[j] == b; ++j)");
      k.line("const long p = perm[j];");
      for (size_t i = 0; i < K; ++i) k.line("x" + std::to_string(i) + " = vals" + std::to_string(i) + "[p];");
      lambdaOp(x.op)(k, acc, vs, acc);
      k.close();
      for (size_t i = 0; i < K; ++i) {
        std::string v = acc[i];
        if (ty[i] == ScalarKind::Bool) v = "(uchar)" + v;
        k.line("out" + std::to_string(i) + "[b] = " + v + ";");
      }
      k.close();
      kernels_ += k.s;
    }
  }

  // ---------------------------------------------------------------- Sort
  // The runtime's stable LSD radix sort (arrc::sort_pairs) of (key, original
  // index) pairs: `_init` copies the keys into a contiguous buffer (bool keys
  // widened to int; float keys canonicalised so -0.0 == +0.0 as under `<`)
  // with the identity permutation, then the values -- and the keys where the
  // sorted copy is not the original bit pattern -- are gathered through the
  // permutation.
  void sort(const Sort &x) {
    std::string kn = newKernel("sort", x);
    if (x.keys->kind != Exp::Var) fail("sort keys are not a variable");
    int keys = x.keys->var;
    ScalarKind kt = typeOf(keys).elem;
    noteType(kt);
    bool isBool = kt == ScalarKind::Bool;
    bool gatherKeys = isBool || isFloating(kt);
    std::string sks = isBool ? "int" : clStore(kt), skcpp = isBool ? "int32_t" : cppStore(kt);
    std::string skArr = "arrc::Array<" + skcpp + ", 1>";
    h("// stable sort" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": kernel " + kn +
      "_init, runtime radix sort arrc::sort_pairs, gathers " + kn + "_gather*");
    for (int o : x.outs) h(decl(o, false) + ";");
    host_->open("");
    h("const int64_t n = " + name(keys) + ".shape(0);");
    h(skArr + " skeys = " + skArr + "::alloc(ctx, {n});");
    h("arrc::Array<int32_t, 1> perm = arrc::Array<int32_t, 1>::alloc(ctx, {n});");
    KernelArgs ia = freeArgs({keys});
    ia.add("__global " + sks + " *keys_out", "skeys");
    ia.add("__global int *perm_out", "perm");
    h("if (n > int64_t(INT32_MAX)) throw arrc::Error(\"sort: more than 2^31-1 elements\");");
    h("if (n > 0)");
    h("  " + launch(kn + "_init", "arrc::NDRange(size_t(n))", "arrc::NDRange()", ia.host));
    host_->open("if (n > 1)");
    h("const arrc::ElemType vt = arrc::ElemType::of<int32_t>();");
    h("arrc::sort_pairs(ctx, arrc::ElemType::of<" + skcpp + ">(), n, skeys.buffer(), &vt, perm.buffer());");
    host_->close();
    std::vector<std::pair<int, int>> gathers; // (source var, out var)
    if (gatherKeys) gathers.push_back({keys, x.outs.at(0)});
    else h(name(x.outs.at(0)) + " = skeys;");
    for (size_t v = 0; v < x.values.size(); ++v) {
      if (x.values[v]->kind != Exp::Var) fail("sort values are not variables");
      gathers.push_back({x.values[v]->var, x.outs.at(v + 1)});
    }
    for (size_t g = 0; g < gathers.size(); ++g) {
      int src = gathers[g].first, out = gathers[g].second;
      ScalarKind et = typeOf(src).elem;
      h(name(out) + " = " + cppArray(et, 1) + "::alloc(ctx, {n});");
      KernelArgs ga = freeArgs({src});
      ga.add("__global " + std::string(clStore(et)) + " *out", name(out));
      ga.add("__global const int *perm", "perm");
      std::string gk = kn + "_gather" + std::to_string(g);
      h("if (n > 0)");
      h("  " + launch(gk, "arrc::NDRange(size_t(n))", "arrc::NDRange()", ga.host));
      Code k;
      beginKernel(k, gk, "sort at " + where(x) + ": permute " + (src == keys ? "keys" : "values"), ga.cl);
      k.line("const long i = get_global_id(0);");
      k.line("out[i] = " + name(src) + "[(long)perm[i] * " + name(src) + "_w0 + " + name(src) + "_w1];");
      k.close();
      kernels_ += k.s;
    }
    host_->close();
    {
      Code k;
      beginKernel(k, kn + "_init", "sort at " + where(x) + ": contiguous sort keys, identity permutation", ia.cl);
      k.line("const long i = get_global_id(0);");
      std::string src = name(keys) + "[i * " + name(keys) + "_w0 + " + name(keys) + "_w1]";
      if (isBool) src = "(int)(" + src + " != 0)";
      else if (kt == ScalarKind::Float) src = src + " + 0.0f";
      else if (kt == ScalarKind::Double) src = src + " + 0.0";
      k.line("keys_out[i] = " + src + ";");
      k.line("perm_out[i] = (int)i;");
      k.close();
      kernels_ += k.s;
    }
  }

  // ---------------------------------------------------------------- Expand
  // Exclusive scan of the sizes, then one work-item per output element finds
  // its source by binary search over the offsets (load-balanced).
  void expand(const Expand &x) {
    std::string kn = newKernel("expand", x);
    size_t K = x.outs.size();
    std::vector<ScalarKind> ty;
    for (int o : x.outs) ty.push_back(typeOf(o).elem);
    h("// expand" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": scan of sizes (" + kn +
      "_sizes_*), then kernel " + kn + " (binary search per output element)");
    for (int o : x.outs) h(decl(o, false) + ";");
    host_->open("");
    h("const int64_t n = " + exp(x.n, false) + ";");
    h("arrc::Array<int64_t, 1> offsets = arrc::Array<int64_t, 1>::alloc(ctx, {n});");
    h("int64_t total = 0;");
    ScanSpec sp;
    sp.kname = kn + "_sizes";
    sp.comment = "expand at " + where(x) + ": offsets";
    sp.ty = {ScalarKind::Long};
    sp.free1 = freeArgs(freeOf({&x.size}, {}, {x.index}));
    sp.neHost = {"int64_t(0)"};
    const Block &sizeB = x.size;
    int index = x.index;
    sp.prod = [this, &sizeB, index](Code &c, const std::string &idx, const std::vector<std::string> &outs) {
      bodyProducer(sizeB, {index})(c, idx, outs);
      c.line("if (" + outs[0] + " < 0) " + outs[0] + " = 0;");
    };
    sp.op = [](Code &c, const std::vector<std::string> &a, const std::vector<std::string> &b,
               const std::vector<std::string> &out) { c.line(out[0] + " = " + a[0] + " + " + b[0] + ";"); };
    sp.out3.add("__global long *offsets", "offsets");
    sp.phase3 = [](Code &c, const std::vector<std::string> &acc, const std::vector<std::string> &v) {
      c.line("offsets[i] = " + acc[0] + ";");
      c.line(acc[0] + " += " + v[0] + ";");
    };
    host_->open("if (n > 0)");
    h("const arrc::gen::ScanShape sg = arrc::gen::scan_shape(n);");
    chunkedScan(sp);
    h(pendingPhase3_);
    h("total = arrc::gen::read_count(ctx, part0, sg.threads);");
    host_->close();
    for (size_t i = 0; i < K; ++i) h(name(x.outs[i]) + " = " + cppArray(ty[i], 1) + "::alloc(ctx, {total});");
    KernelArgs a = freeArgs(freeOf({&x.body}, {}, {x.index, x.inner}));
    a.add("__global const long *offsets", "offsets");
    a.add("long n", "n");
    for (size_t i = 0; i < K; ++i)
      a.add("__global " + std::string(clStore(ty[i])) + " *out" + std::to_string(i), name(x.outs[i]));
    h("if (total > 0)");
    h("  " + launch(kn, "arrc::NDRange(size_t(total))", "arrc::NDRange()", a.host));
    host_->close();
    Code k;
    beginKernel(k, kn, "expand at " + where(x) + ": one work-item per output element", a.cl);
    k.line("const long o = get_global_id(0);");
    k.line("long lo = 0, hi = n - 1;");
    k.line("// the last outer element whose offset is <= o (skips empty ones)");
    k.open("while (lo < hi)");
    k.line("long m = (lo + hi + 1) / 2;");
    k.line("if (offsets[m] <= o) lo = m; else hi = m - 1;");
    k.close();
    k.line(decl(x.index, true) + " = lo;");
    k.line(decl(x.inner, true) + " = o - offsets[lo];");
    devBlock(k, x.body);
    for (size_t i = 0; i < K; ++i) {
      std::string v = exp(x.body.results.at(i), true);
      if (ty[i] == ScalarKind::Bool) v = "(uchar)(" + v + ")";
      k.line("out" + std::to_string(i) + "[o] = " + v + ";");
    }
    k.close();
    kernels_ += k.s;
  }

  // ---------------------------------------------------------------- functions
  void function(const Function &f) {
    fnName_ = sanitize(f.name);
    kernelCounter_ = 0;
    used_.clear();
    {
      std::set<int> d;
      usesBlock(f.body, used_, d);
    }
    Code c;
    host_ = &c;
    std::vector<std::string> params;
    for (size_t i = 0; i < f.paramTypes.size(); ++i) {
      std::string pn = i < f.paramNames.size() ? cppIdent(f.paramNames[i]) : "p" + std::to_string(i);
      params.push_back("const " + cppOf(f.paramTypes[i]) + " &" + pn);
    }
    std::string ret = cppOf(f.resultType);
    c.line("// export " + f.name + (f.span.begin.line > 0 ? " (line " + std::to_string(f.span.begin.line) + ")" : ""));
    std::vector<std::string> allParams = {"arrc::Context &ctx"};
    allParams.insert(allParams.end(), params.begin(), params.end());
    c.line("inline " + ret + " " + cppIdent(f.name) + "(" + join(allParams) + ") {");
    c.ind++;
    c.line("(void)ctx;");
    for (size_t i = 0; i < f.paramTypes.size(); ++i) {
      std::string pn = i < f.paramNames.size() ? cppIdent(f.paramNames[i]) : "p" + std::to_string(i);
      std::vector<std::string> leaves;
      flattenAccess(f.paramTypes[i], pn, leaves);
      const auto &vars = f.paramVars.at(i);
      if (vars.size() != leaves.size()) fail("parameter " + pn + " flattens to a different number of variables");
      for (size_t j = 0; j < vars.size(); ++j) c.line(decl(vars[j], false) + " = " + leaves[j] + ";");
    }
    hostBlock(f.body);
    std::vector<std::string> res;
    for (auto &e : f.body.results) res.push_back(exp(e, false));
    c.line("detail::check(ctx);");
    size_t pos = 0;
    c.line("return " + buildValue(f.resultType, res, pos) + ";");
    c.ind--;
    c.line("}");
    c.line("");
    functions_ += c.s;
    host_ = nullptr;
  }
};

} // namespace

// ---- TEMPORARY (fuse branch): replaced by the runtime-primitive codegen at
// merge. This generator has no schedule for an Expand fused with its consumer
// (Expand::into Reduce / Filter, lowering/src/Fuse.cpp), so a copy of the
// module is emitted in which each such Expand is split back into an Expand
// into temporary arrays (the `expand` emitter) followed by the Reduce or
// Filter over them (the existing emitters). Nothing else uses this.
namespace {
ExpP tmpVar(const ir::Module &m, int v) {
  auto e = std::make_shared<Exp>();
  e->kind = Exp::Var;
  e->var = v;
  e->type = m.vars[size_t(v)].type;
  return e;
}
ir::Module splitFusedExpandsTemporary(const ir::Module &module) {
  ir::Module m = module;
  auto newVar = [&](const char *name, ScalarKind k, int rank) { return m.newVar(name, ir::Type{k, rank}); };
  std::function<void(ir::Block &)> hostBlock = [&](ir::Block &b) {
    std::vector<StmtP> out;
    for (auto &sp : b.stmts) {
      if (sp->kind == StmtKind::If) {
        auto c = std::make_shared<ir::If>(static_cast<const ir::If &>(*sp));
        hostBlock(c->thenB);
        hostBlock(c->elseB);
        out.push_back(c);
        continue;
      }
      if (sp->kind == StmtKind::Loop) {
        auto c = std::make_shared<ir::Loop>(static_cast<const ir::Loop &>(*sp));
        hostBlock(c->body);
        out.push_back(c);
        continue;
      }
      if (sp->kind != StmtKind::Expand || static_cast<const Expand &>(*sp).into == Expand::Array) {
        out.push_back(sp);
        continue;
      }
      auto e = std::make_shared<Expand>(static_cast<const Expand &>(*sp));
      bool isReduce = e->into == Expand::Reduce;
      std::vector<ExpP> cols; // the temporary arrays, one per body result
      e->outs.clear();
      for (auto &r : e->body.results) {
        int t = newVar("expanded", r->type.elem, 1);
        e->outs.push_back(t);
        cols.push_back(tmpVar(m, t));
      }
      e->into = Expand::Array;
      e->op = ir::Lambda{};
      e->ne.clear();
      int i = newVar("i", ScalarKind::Long, 0);
      ir::Block body;
      for (auto &col : cols) {
        auto rd = std::make_shared<Exp>();
        rd->kind = Exp::Read;
        rd->type = ir::Type{col->type.elem, 0};
        rd->args = {col, tmpVar(m, i)};
        body.results.push_back(rd);
      }
      auto n = std::make_shared<Exp>();
      n->kind = Exp::Shape;
      n->type = ir::Type{ScalarKind::Long, 0};
      n->axis = 0;
      n->args = {cols[0]};
      StmtP consumer;
      if (isReduce) {
        auto r = std::make_shared<ir::Reduce>();
        auto &orig = static_cast<const Expand &>(*sp);
        r->op = orig.op;
        r->ne = orig.ne;
        r->n = n;
        r->index = i;
        r->body = body;
        consumer = r;
      } else {
        auto f = std::make_shared<ir::Filter>();
        f->n = n;
        f->index = i;
        f->body = body;
        consumer = f;
      }
      consumer->outs = sp->outs;
      consumer->note = sp->note;
      consumer->span = sp->span;
      e->note = "expand (materialised for its fused consumer)";
      out.push_back(e);
      out.push_back(consumer);
    }
    b.stmts = std::move(out);
  };
  for (auto &f : m.functions) hostBlock(f.body);
  return m;
}
} // namespace
// ---- end TEMPORARY

std::string emitOpenCL(const ir::Module &module) {
  ir::Module split = splitFusedExpandsTemporary(module);
  Generator g(split);
  g.run();
  return g.openclSource();
}

std::string emitHeader(const ir::Module &module) {
  ir::Module split = splitFusedExpandsTemporary(module);
  Generator g(split);
  g.run();
  return g.header();
}

} // namespace arrc

namespace arrc {
std::string cppTypeOf(const TypeP &type) { return cppOf(type); }
std::string cppIdentifier(const std::string &name) { return cppIdent(name); }
} // namespace arrc
