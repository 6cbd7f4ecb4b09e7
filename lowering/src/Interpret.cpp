// The reference interpreter of the core IR (Interpret.h).
#include "arrc/Interpret.h"
#include "arrc/IRBuilder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <unistd.h>

namespace arrc::ir {

static int64_t normInt(int64_t v, ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool: return v != 0;
  case ScalarKind::Int: return int32_t(uint32_t(uint64_t(v)));
  default: return v;
  }
}

Value Value::scalarInt(int64_t v, ScalarKind k) {
  Value r;
  r.type = scalarT(k);
  if (isFloatKind(k)) r.f = k == ScalarKind::Float ? double(float(v)) : double(v);
  else r.i = normInt(v, k);
  return r;
}
Value Value::scalarFloat(double v, ScalarKind k) {
  Value r;
  r.type = scalarT(k);
  if (!isFloatKind(k)) r.i = normInt(int64_t(v), k);
  else r.f = k == ScalarKind::Float ? double(float(v)) : v;
  return r;
}
static std::vector<int64_t> rowMajor(const std::vector<int64_t> &shape) {
  std::vector<int64_t> w(shape.size() + 1, 0);
  int64_t s = 1;
  for (int k = int(shape.size()) - 1; k >= 0; --k) {
    w[k] = s;
    s *= shape[k];
  }
  return w;
}
Value Value::arrayInt(std::vector<int64_t> data, std::vector<int64_t> shape, ScalarKind k) {
  Value r;
  r.type = arrayT(k, int(shape.size()));
  for (auto &x : data) x = normInt(x, k);
  r.ibuf = std::make_shared<std::vector<int64_t>>(std::move(data));
  r.weights = rowMajor(shape);
  r.shape = std::move(shape);
  return r;
}
Value Value::arrayFloat(std::vector<double> data, std::vector<int64_t> shape, ScalarKind k) {
  Value r;
  r.type = arrayT(k, int(shape.size()));
  if (k == ScalarKind::Float)
    for (auto &x : data) x = float(x);
  r.fbuf = std::make_shared<std::vector<double>>(std::move(data));
  r.weights = rowMajor(shape);
  r.shape = std::move(shape);
  return r;
}
// The interpreter keeps 8 bytes an element: an array larger than this
// machine's memory is an error here, where Linux would hand out the pages
// and its out-of-memory killer end the process later.
static void checkFits(int64_t n) { // n: the product of the extents (< 0 where it wrapped)
  if (n < 0) throw RuntimeError("out of memory: the interpreter's array has more than 2^63 elements", Check::Other, -1);
  static const double phys = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
  if (phys > 0 && double(n) * 8.0 > phys)
    throw RuntimeError("out of memory: the interpreter's array of " + std::to_string(n) + " elements (" +
                           (n > INT64_MAX / 8 ? std::string("more than 2^63") : std::to_string(n * 8)) +
                           " bytes) exceeds this machine's memory",
                       Check::Other, -1);
}
Value Value::zeros(Type t, std::vector<int64_t> shape) {
  // the element count, -1 where it wraps (no wrap with an empty axis)
  int64_t n = 1;
  if (std::any_of(shape.begin(), shape.end(), [](int64_t s) { return s <= 0; })) n = 0;
  for (auto s : shape) n = n <= 0 ? n : n > INT64_MAX / s ? -1 : n * s;
  checkFits(n);
  if (isFloatKind(t.elem)) return arrayFloat(std::vector<double>(n, 0.0), shape, t.elem);
  return arrayInt(std::vector<int64_t>(n, 0), shape, t.elem);
}
bool Value::isFloat() const { return isFloatKind(type.elem); }
int64_t Value::count() const {
  int64_t n = 1;
  for (auto s : shape) n *= s;
  return n;
}
int64_t Value::offset(const std::vector<int64_t> &idx) const {
  int64_t o = weights.empty() ? 0 : weights.back();
  for (size_t k = 0; k < idx.size(); ++k) o += idx[k] * weights[k];
  return o;
}
template <class F> static void eachIndex(const std::vector<int64_t> &shape, F &&f) {
  for (auto s : shape)
    if (s <= 0) return;
  std::vector<int64_t> idx(shape.size(), 0);
  while (true) {
    f(idx);
    int k = int(shape.size()) - 1;
    while (k >= 0 && ++idx[k] == shape[k]) idx[k--] = 0;
    if (k < 0) return;
  }
}
std::vector<int64_t> Value::ints() const {
  std::vector<int64_t> r;
  eachIndex(shape, [&](const std::vector<int64_t> &i) {
    r.push_back(isFloat() ? int64_t((*fbuf)[offset(i)]) : (*ibuf)[offset(i)]);
  });
  return r;
}
std::vector<double> Value::floats() const {
  std::vector<double> r;
  eachIndex(shape, [&](const std::vector<int64_t> &i) {
    r.push_back(isFloat() ? (*fbuf)[offset(i)] : double((*ibuf)[offset(i)]));
  });
  return r;
}

static std::string scalarText(const Value &v) {
  if (v.type.elem == ScalarKind::Bool) return v.i ? "true" : "false";
  if (!v.isFloat()) return std::to_string(v.i) + (v.type.elem == ScalarKind::Long ? "L" : "");
  char buf[64];
  std::snprintf(buf, sizeof buf, v.type.elem == ScalarKind::Float ? "%.9g" : "%.17g", v.f);
  std::string s = buf;
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  if (v.type.elem == ScalarKind::Float) s += "f";
  return s;
}

std::string formatValue(const Value &v) {
  if (v.type.rank == 0) return scalarText(v);
  std::function<std::string(int, std::vector<int64_t> &)> rec = [&](int axis, std::vector<int64_t> &idx) {
    std::string s = "[";
    for (int64_t j = 0; j < v.shape[axis]; ++j) {
      idx[axis] = j;
      if (j) s += ", ";
      if (axis + 1 == v.type.rank) {
        Value e;
        e.type = scalarT(v.type.elem);
        if (v.isFloat()) e.f = (*v.fbuf)[v.offset(idx)];
        else e.i = (*v.ibuf)[v.offset(idx)];
        s += scalarText(e);
      } else s += rec(axis + 1, idx);
    }
    return s + "]";
  };
  std::vector<int64_t> idx(v.type.rank, 0);
  return rec(0, idx);
}

namespace {
struct Interp {
  const Module &m;
  std::vector<Value> env;

  [[noreturn]] void fail(const std::string &msg, Check::Code c = Check::Other, int pos = -1) {
    if (pos < 0 || pos >= int(m.positions.size())) throw RuntimeError(msg, c, pos);
    // A position inside a stdlib or imported function carries notes after
    // the user's call site ("file:l:c\nnote: in take at ..."): they follow the text.
    const std::string &p = m.positions[pos];
    size_t nl = p.find('\n');
    if (nl == std::string::npos) throw RuntimeError(p + ": " + msg, c, pos);
    std::string notes = p.substr(nl + 1);
    while (!notes.empty() && notes.back() == '\n') notes.pop_back();
    throw RuntimeError(p.substr(0, nl) + ": " + msg + "\n" + notes, c, pos);
  }

  Value &get(int v) {
    if (v < 0 || v >= int(env.size())) fail("internal: bad variable " + std::to_string(v));
    return env[v];
  }
  void set(int v, Value x) { get(v) = std::move(x); }

  Value mkScalar(ScalarKind k, int64_t i, double f, bool isF) {
    return isF ? Value::scalarFloat(f, k) : Value::scalarInt(i, k);
  }

  int64_t idx(const Value &v) { return v.isFloat() ? int64_t(v.f) : v.i; }

  Value element(const Value &a, const std::vector<int64_t> &ix) {
    Value r;
    r.type = scalarT(a.type.elem);
    int64_t o = a.offset(ix);
    if (a.isFloat()) {
      if (!a.fbuf || o < 0 || o >= int64_t(a.fbuf->size())) fail("internal: read outside buffer");
      r.f = (*a.fbuf)[o];
    } else {
      if (!a.ibuf || o < 0 || o >= int64_t(a.ibuf->size())) fail("internal: read outside buffer");
      r.i = (*a.ibuf)[o];
    }
    return r;
  }
  void store(Value &a, int64_t o, const Value &x) {
    if (a.isFloat()) {
      if (o < 0 || o >= int64_t(a.fbuf->size())) fail("internal: write outside buffer");
      double f = x.isFloat() ? x.f : double(x.i);
      (*a.fbuf)[o] = a.type.elem == ScalarKind::Float ? double(float(f)) : f;
    } else {
      if (o < 0 || o >= int64_t(a.ibuf->size())) fail("internal: write outside buffer");
      (*a.ibuf)[o] = normInt(x.isFloat() ? int64_t(x.f) : x.i, a.type.elem);
    }
  }

  Value eval(const ExpP &e) {
    switch (e->kind) {
    case Exp::Const: return mkScalar(e->type.elem, e->ival, e->fval, isFloatKind(e->type.elem));
    case Exp::Var: return get(e->var);
    case Exp::Unary: {
      Value a = eval(e->args[0]);
      switch (e->unop) {
      case UnOp::Neg: return a.isFloat() ? Value::scalarFloat(-a.f, a.type.elem) : Value::scalarInt(int64_t(0ULL - uint64_t(a.i)), a.type.elem);
      case UnOp::Not: return Value::scalarInt(!a.i, ScalarKind::Bool);
      case UnOp::BitNot: return Value::scalarInt(~a.i, a.type.elem);
      }
      break;
    }
    case Exp::Binary: {
      // left to right (as written: the first read that fails raises), not in
      // the unspecified order of a call's arguments
      Value a = eval(e->args[0]);
      Value b = eval(e->args[1]);
      return binary(e->binop, a, b, e->type.elem);
    }
    case Exp::Convert: {
      Value a = eval(e->args[0]);
      ScalarKind k = e->type.elem;
      if (k == ScalarKind::Bool) return Value::boolean(a.isFloat() ? a.f != 0 : a.i != 0);
      if (isFloatKind(k)) return Value::scalarFloat(a.isFloat() ? a.f : double(a.i), k);
      if (a.isFloat()) return Value::scalarInt(saturatingInt(a.f, k), k);
      return Value::scalarInt(a.i, k);
    }
    case Exp::Select: {
      Value c = eval(e->args[0]);
      Value a = eval(e->args[1]), b = eval(e->args[2]);
      return c.i ? a : b;
    }
    case Exp::Call: return call(e);
    case Exp::Read: {
      Value a = eval(e->args[0]);
      if (e->args[0]->kind == Exp::Var)
        for (auto &g : m.guards)
          if (g.var == e->args[0]->var) {
            // a lowering guard: guard[select(ok, 0, 1), reported values...]
            if (idx(eval(e->args[1])) == 0) return element(a, {0});
            std::vector<std::string> v;
            for (size_t k = 2; k < e->args.size(); ++k) v.push_back(std::to_string(idx(eval(e->args[k]))));
            std::ostringstream msg;
            switch (g.code) {
            case Check::Bounds:
              if (v.size() == 3) msg << "index " << v[0] << " out of bounds for axis " << v[2] << " of size " << v[1];
              else msg << "index out of bounds";
              break;
            case Check::Shape: msg << "shape mismatch"; break;
            case Check::ZipSize: msg << "zip of arrays of unequal sizes"; break;
            case Check::Empty: msg << "empty array"; break;
            case Check::Irregular: msg << "irregular nested array"; break;
            case Check::Other: msg << "check failed"; break;
            case Check::Negative: msg << "negative size"; break;
            }
            if (g.code != Check::Bounds && v.size() >= 2) msg << ": " << v[0] << " vs " << v[1];
            fail(msg.str(), g.code, e->checkPos);
          }
      if (int(e->args.size()) - 1 != a.type.rank) fail("internal: read with wrong number of indices");
      std::vector<int64_t> ix;
      for (size_t k = 1; k < e->args.size(); ++k) {
        int64_t i = idx(eval(e->args[k]));
        if (i < 0 || i >= a.shape[k - 1]) {
          std::ostringstream msg;
          msg << "index " << i << " out of bounds for axis " << (k - 1) << " of size " << a.shape[k - 1];
          if (e->checkPos < 0) fail("internal: unchecked " + msg.str());
          if (e->args[0]->kind == Exp::Var)
            for (auto &g : m.guards)
              if (g.var == e->args[0]->var) {
                static const char *what[] = {"index out of bounds", "shape mismatch", "zip of arrays of different sizes",
                                             "empty array", "irregular nested array", "check failed"};
                fail(what[g.code], g.code, e->checkPos);
              }
          fail(msg.str(), Check::Bounds, e->checkPos);
        }
        ix.push_back(i);
      }
      return element(a, ix);
    }
    case Exp::Shape: {
      Value a = eval(e->args[0]);
      if (e->axis < 0 || e->axis >= int(a.shape.size())) fail("internal: bad shape axis");
      return Value::scalarInt(a.shape[e->axis], ScalarKind::Long);
    }
    case Exp::Weight: {
      Value a = eval(e->args[0]);
      if (e->axis < 0 || e->axis >= int(a.weights.size())) fail("internal: bad weight axis");
      return Value::scalarInt(a.weights[e->axis], ScalarKind::Long);
    }
    }
    fail("internal: bad expression");
  }

  Value binary(BinOp op, const Value &a, const Value &b, ScalarKind rk) {
    bool fl = a.isFloat();
    ScalarKind k = a.type.elem;
    auto B = [](bool x) { return Value::boolean(x); };
    if (fl) {
      double x = a.f, y = b.isFloat() ? b.f : double(b.i);
      switch (op) {
      case BinOp::Add: return Value::scalarFloat(x + y, k);
      case BinOp::Sub: return Value::scalarFloat(x - y, k);
      case BinOp::Mul: return Value::scalarFloat(x * y, k);
      case BinOp::Div: return Value::scalarFloat(x / y, k);
      case BinOp::Mod: return Value::scalarFloat(std::fmod(x, y), k);
      case BinOp::Eq: return B(x == y);
      case BinOp::Ne: return B(x != y);
      case BinOp::Lt: return B(x < y);
      case BinOp::Le: return B(x <= y);
      case BinOp::Gt: return B(x > y);
      case BinOp::Ge: return B(x >= y);
      default: fail("internal: bad float operator");
      }
    }
    int64_t x = a.i, y = b.isFloat() ? int64_t(b.f) : b.i;
    uint64_t ux = uint64_t(x), uy = uint64_t(y);
    switch (op) {
    case BinOp::Add: return Value::scalarInt(int64_t(ux + uy), k);
    case BinOp::Sub: return Value::scalarInt(int64_t(ux - uy), k);
    case BinOp::Mul: return Value::scalarInt(int64_t(ux * uy), k);
    // as the compiled program: x / -1 negates with wrap-around (INT64_MIN / -1 = INT64_MIN)
    case BinOp::Div: return Value::scalarInt(y == 0 ? 0 : y == -1 ? int64_t(0ull - uint64_t(x)) : x / y, k);
    case BinOp::Mod: return Value::scalarInt(y == 0 || y == -1 ? 0 : x % y, k);
    case BinOp::Eq: return B(x == y);
    case BinOp::Ne: return B(x != y);
    case BinOp::Lt: return B(x < y);
    case BinOp::Le: return B(x <= y);
    case BinOp::Gt: return B(x > y);
    case BinOp::Ge: return B(x >= y);
    case BinOp::And: return B(x && y);
    case BinOp::Or: return B(x || y);
    case BinOp::BitAnd: return Value::scalarInt(x & y, k);
    case BinOp::BitOr: return Value::scalarInt(x | y, k);
    case BinOp::BitXor: return Value::scalarInt(x ^ y, k);
    case BinOp::Shl: return Value::scalarInt(int64_t(ux << (uy & (k == ScalarKind::Int ? 31 : 63))), k);
    case BinOp::Shr: return Value::scalarInt(x >> (uy & (k == ScalarKind::Int ? 31 : 63)), k);
    default: break;
    }
    (void)rk;
    fail("internal: bad integer operator");
  }

  Value call(const ExpP &e) {
    std::vector<Value> a;
    for (auto &x : e->args) a.push_back(eval(x));
    const std::string &f = e->fn;
    ScalarKind k = e->type.elem;
    if (f == "isnan") return Value::boolean(a[0].isFloat() && std::isnan(a[0].f));
    // plans by device: either gives the same result
    if (f == "items_in_one_pass" || f == "inner_loops_sequential") return Value::boolean(true);
    if (f == "group_by_hist_bins") return Value::scalarInt(int64_t(1) << 23, ScalarKind::Long);
    // split loops in three chunks (or not), so that the tests run the split plan
    if (f == "loop_chunks") return Value::scalarInt(a[1].i >= 3 ? 3 : 0, ScalarKind::Long);
    if (!isFloatKind(k)) {
      int64_t x = a.empty() ? 0 : a[0].i;
      if (f == "abs") return Value::scalarInt(x < 0 ? -x : x, k);
      if (f == "min") return Value::scalarInt(std::min(x, a[1].i), k);
      if (f == "max") return Value::scalarInt(std::max(x, a[1].i), k);
      fail("internal: unknown integer function " + f);
    }
    double x = a.empty() ? 0 : a[0].asDouble();
    double y = a.size() > 1 ? a[1].asDouble() : 0;
    double r;
    if (f == "sqrt") r = std::sqrt(x);
    else if (f == "exp") r = std::exp(x);
    else if (f == "log") r = std::log(x);
    else if (f == "pow") r = std::pow(x, y);
    else if (f == "sin") r = std::sin(x);
    else if (f == "cos") r = std::cos(x);
    else if (f == "tan") r = std::tan(x);
    else if (f == "atan2") r = std::atan2(x, y);
    else if (f == "abs") r = std::fabs(x);
    else if (f == "min") r = std::fmin(x, y);
    else if (f == "max") r = std::fmax(x, y);
    else if (f == "floor") r = std::floor(x);
    else if (f == "ceil") r = std::ceil(x);
    else if (f == "round") r = std::round(x);
    else if (f == "erf") r = std::erf(x);
    else fail("internal: unknown function " + f);
    return Value::scalarFloat(r, k);
  }

  // The histograms of the MultiHist whose body runs (HistAdd adds to them).
  struct MultiAcc {
    const MultiHist *stmt;
    std::vector<std::vector<Value>> bins;
  };
  MultiAcc *multi_ = nullptr;

  std::vector<Value> block(const Block &b) {
    for (auto &s : b.stmts) stmt(*s);
    std::vector<Value> r;
    for (auto &e : b.results) r.push_back(eval(e));
    return r;
  }
  std::vector<Value> applyOp(const Lambda &op, const std::vector<Value> &x, const std::vector<Value> &y) {
    size_t K = x.size();
    for (size_t k = 0; k < K; ++k) {
      set(op.params[k], x[k]);
      set(op.params[K + k], y[k]);
    }
    return block(op.body);
  }
  std::vector<Value> evalAll(const std::vector<ExpP> &es) {
    std::vector<Value> r;
    for (auto &e : es) r.push_back(eval(e));
    return r;
  }
  std::vector<Value> freshOuts(const Stmt &s, const std::vector<int64_t> &shape) {
    std::vector<Value> r;
    for (int o : s.outs) r.push_back(Value::zeros(m.vars[o].type, shape));
    return r;
  }
  void assignOuts(const Stmt &s, std::vector<Value> vals) {
    if (vals.size() != s.outs.size()) fail("internal: result count mismatch");
    for (size_t k = 0; k < vals.size(); ++k) set(s.outs[k], std::move(vals[k]));
  }
  // Builds rank-1 arrays from per-element values.
  std::vector<Value> collect(const Stmt &s, const std::vector<std::vector<Value>> &rows, size_t skip = 0) {
    auto outs = freshOuts(s, {int64_t(rows.size())});
    for (size_t i = 0; i < rows.size(); ++i)
      for (size_t k = 0; k < outs.size(); ++k) store(outs[k], int64_t(i), rows[i][k + skip]);
    return outs;
  }

  // A statement; an out-of-memory error (raised with no position) gets the
  // statement's, as the compiled program reports it.
  void stmt(const Stmt &s) {
    try {
      stmtAt(s);
    } catch (const RuntimeError &e) {
      if (e.pos >= 0 || std::string(e.what()).rfind("out of memory", 0) != 0 || !s.span.valid() ||
          size_t(s.span.file) >= m.files.size())
        throw;
      throw RuntimeError(m.files[size_t(s.span.file)] + ":" + std::to_string(s.span.begin.line) + ":" +
                             std::to_string(s.span.begin.col) + ": " + e.what(),
                         e.code, -1);
    }
  }
  void stmtAt(const Stmt &s) {
    switch (s.kind) {
    case StmtKind::Let: set(s.outs[0], eval(static_cast<const Let &>(s).value)); break;
    case StmtKind::If: {
      auto &x = static_cast<const If &>(s);
      assignOuts(s, eval(x.cond).i ? block(x.thenB) : block(x.elseB));
      break;
    }
    case StmtKind::Loop: {
      auto &x = static_cast<const Loop &>(s);
      std::vector<Value> st = evalAll(x.init);
      auto bind = [&] { for (size_t k = 0; k < st.size(); ++k) set(x.params[k], st[k]); };
      if (x.form == Loop::For) {
        Value n = eval(x.count);
        for (int64_t i = 0; i < idx(n); ++i) {
          bind();
          set(x.index, Value::scalarInt(i, n.type.elem));
          st = block(x.body);
        }
      } else {
        while (true) {
          bind();
          if (!block(x.cond).at(0).i) break;
          bind();
          st = block(x.body);
        }
      }
      assignOuts(s, st);
      break;
    }
    case StmtKind::Write: {
      auto &x = static_cast<const Write &>(s);
      Value &a = get(x.array);
      std::vector<int64_t> ix;
      for (size_t k = 0; k < x.indices.size(); ++k) {
        ix.push_back(idx(eval(x.indices[k])));
        if (ix.back() < 0 || ix.back() >= a.shape.at(k)) fail("internal: write index out of range");
      }
      Value v = eval(x.value);
      store(a, a.offset(ix), v);
      break;
    }
    case StmtKind::Alloc: {
      auto &x = static_cast<const Alloc &>(s);
      std::vector<int64_t> sh;
      for (auto &d : x.dims) {
        sh.push_back(idx(eval(d)));
        if (sh.back() < 0) fail("negative array size " + std::to_string(sh.back()), Check::Other, -1);
      }
      set(s.outs[0], Value::zeros(m.vars[s.outs[0]].type, sh));
      break;
    }
    case StmtKind::View: {
      auto &x = static_cast<const View &>(s);
      Value src = eval(x.source);
      Value r = src;
      r.type = m.vars[s.outs[0]].type;
      r.shape.clear();
      r.weights.clear();
      for (auto &e : x.shape) r.shape.push_back(idx(eval(e)));
      for (auto &e : x.weights) r.weights.push_back(idx(eval(e)));
      set(s.outs[0], r);
      break;
    }
    case StmtKind::Literal: {
      auto &x = static_cast<const Literal &>(s);
      Type t = m.vars[s.outs[0]].type;
      set(s.outs[0], isFloatKind(t.elem) ? Value::arrayFloat(x.fvals, x.shape, t.elem)
                                         : Value::arrayInt(x.ivals, x.shape, t.elem));
      break;
    }
    case StmtKind::Check: {
      auto &x = static_cast<const Check &>(s);
      if (eval(x.cond).i) break;
      std::ostringstream msg;
      auto vals = evalAll(x.values);
      // integers as the compiled program prints them (3, not 3L)
      auto vs = [&](size_t k) {
        if (k >= vals.size()) return std::string("?");
        const Value &v = vals[k];
        return v.type.rank == 0 && !v.isFloat() && v.type.elem != ScalarKind::Bool ? std::to_string(v.i)
                                                                                  : formatValue(v);
      };
      switch (x.code) {
      case Check::Bounds: msg << "index " << vs(0) << " out of bounds for axis " << vs(2) << " of size " << vs(1); break;
      case Check::Shape:
        if (vals.size() > 2 && vals.size() % 2 == 0) { // (a0, b0, a1, b1, ...): the shapes axis by axis
          std::string a, b;
          for (size_t i = 0; i < vals.size(); i += 2) a += (i ? ", " : "") + vs(i), b += (i ? ", " : "") + vs(i + 1);
          msg << "shape mismatch: [" << a << "] vs [" << b << "]";
        } else {
          msg << "shape mismatch: " << vs(0) << " vs " << vs(1);
        }
        break;
      case Check::ZipSize:
        msg << (x.message.empty() ? "zip of arrays of unequal sizes" : x.message + " differ in size") << ": " << vs(0)
            << " vs " << vs(1);
        break;
      case Check::Empty: msg << "empty array"; break;
      case Check::Irregular: msg << "irregular nested array: inner sizes " << vs(0) << " and " << vs(1); break;
      case Check::Other: msg << (x.message.empty() ? "check failed" : x.message); break;
      case Check::Negative: msg << "negative size " << vs(0); break;
      }
      if (x.code != Check::Other && x.code != Check::ZipSize && !x.message.empty()) msg << " (" << x.message << ")";
      fail(msg.str(), x.code, x.pos);
    }
    case StmtKind::Map: {
      auto &x = static_cast<const Map &>(s);
      std::vector<int64_t> sh;
      for (auto &d : x.dims) sh.push_back(std::max<int64_t>(0, idx(eval(d))));
      auto outs = freshOuts(s, sh);
      eachIndex(sh, [&](const std::vector<int64_t> &ix) {
        for (size_t k = 0; k < ix.size(); ++k) set(x.index[k], Value::scalarInt(ix[k], ScalarKind::Long));
        auto r = block(x.body);
        for (size_t k = 0; k < outs.size(); ++k) store(outs[k], outs[k].offset(ix), r.at(k));
      });
      assignOuts(s, outs);
      break;
    }
    case StmtKind::Reduce: {
      auto &x = static_cast<const Reduce &>(s);
      auto acc = evalAll(x.ne);
      int64_t n = idx(eval(x.n));
      for (int64_t i = 0; i < n; ++i) {
        set(x.index, Value::scalarInt(i, ScalarKind::Long));
        auto e = block(x.body);
        acc = applyOp(x.op, acc, e);
      }
      assignOuts(s, acc);
      break;
    }
    case StmtKind::Scan: {
      auto &x = static_cast<const Scan &>(s);
      auto acc = evalAll(x.ne);
      int64_t n = std::max<int64_t>(0, idx(eval(x.n)));
      auto outs = freshOuts(s, {n});
      for (int64_t i = 0; i < n; ++i) {
        set(x.index, Value::scalarInt(i, ScalarKind::Long));
        auto e = block(x.body);
        if (x.exclusive)
          for (size_t k = 0; k < outs.size(); ++k) store(outs[k], i, acc[k]);
        acc = applyOp(x.op, acc, e);
        if (!x.exclusive)
          for (size_t k = 0; k < outs.size(); ++k) store(outs[k], i, acc[k]);
      }
      assignOuts(s, outs);
      break;
    }
    case StmtKind::Filter: {
      auto &x = static_cast<const Filter &>(s);
      int64_t n = idx(eval(x.n));
      std::vector<std::vector<Value>> rows;
      for (int64_t i = 0; i < n; ++i) {
        set(x.index, Value::scalarInt(i, ScalarKind::Long));
        auto r = block(x.body);
        if (r.at(0).i) rows.push_back(r);
      }
      assignOuts(s, collect(s, rows, 1));
      break;
    }
    case StmtKind::Scatter: {
      auto &x = static_cast<const Scatter &>(s);
      std::vector<Value> outs;
      for (auto &d : x.dests) {
        Value src = eval(d);
        Value c = isFloatKind(src.type.elem) ? Value::arrayFloat(src.floats(), src.shape, src.type.elem)
                                             : Value::arrayInt(src.ints(), src.shape, src.type.elem);
        outs.push_back(c);
      }
      int64_t n = idx(eval(x.n));
      for (int64_t i = 0; i < n; ++i) {
        set(x.index, Value::scalarInt(i, ScalarKind::Long));
        auto r = block(x.body);
        int64_t j = idx(r.at(0));
        for (size_t k = 0; k < outs.size(); ++k)
          if (j >= 0 && j < outs[k].shape.at(0)) store(outs[k], j, r.at(k + 1));
      }
      assignOuts(s, outs);
      break;
    }
    case StmtKind::Hist: {
      auto &x = static_cast<const Hist &>(s);
      int64_t bins = std::max<int64_t>(0, idx(eval(x.bins)));
      auto ne = evalAll(x.ne);
      std::vector<std::vector<Value>> acc(bins, ne);
      int64_t n = idx(eval(x.n));
      for (int64_t i = 0; i < n; ++i) {
        set(x.index, Value::scalarInt(i, ScalarKind::Long));
        auto r = block(x.body);
        int64_t b = idx(r.at(0));
        if (b < 0 || b >= bins) continue;
        acc[b] = applyOp(x.op, acc[b], std::vector<Value>(r.begin() + 1, r.end()));
      }
      assignOuts(s, collect(s, acc));
      break;
    }
    case StmtKind::MultiHist: {
      auto &x = static_cast<const MultiHist &>(s);
      MultiAcc acc{&x, {}};
      for (size_t h = 0; h < x.ops.size(); ++h)
        acc.bins.push_back(std::vector<Value>(std::max<int64_t>(0, idx(eval(x.bins[h]))), eval(x.ne[h])));
      MultiAcc *outer = multi_;
      multi_ = &acc;
      int64_t n = idx(eval(x.n));
      for (int64_t i = 0; i < n; ++i) {
        set(x.index, Value::scalarInt(i, ScalarKind::Long));
        block(x.body);
      }
      multi_ = outer;
      std::vector<Value> outs;
      for (size_t h = 0; h < x.ops.size(); ++h) {
        Value a = Value::zeros(m.vars[s.outs[h]].type, {int64_t(acc.bins[h].size())});
        for (size_t b = 0; b < acc.bins[h].size(); ++b) store(a, int64_t(b), acc.bins[h][b]);
        outs.push_back(std::move(a));
      }
      assignOuts(s, outs);
      break;
    }
    case StmtKind::HistAdd: {
      auto &x = static_cast<const HistAdd &>(s);
      if (!multi_) fail("internal: hist_add outside a multihist");
      int64_t b = idx(eval(x.bin));
      Value v = eval(x.value);  // evaluated whatever the bin (its errors too)
      auto &bins = multi_->bins.at(x.hist);
      if (b >= 0 && b < int64_t(bins.size()))
        bins[b] = applyOp(multi_->stmt->ops.at(x.hist), {bins[b]}, {v}).at(0);
      break;
    }
    case StmtKind::Sort: {
      auto &x = static_cast<const Sort &>(s);
      Value keys = eval(x.keys);
      std::vector<Value> vals = evalAll(x.values);
      int64_t n = keys.shape.at(0);
      std::vector<int64_t> perm(n);
      std::iota(perm.begin(), perm.end(), 0);
      if (keys.isFloat()) {
        // the runtime's order: NaNs with the sign bit first, the others
        // last, -0.0 equal to 0.0 (a strict weak order, unlike `<` with NaN)
        auto k = keys.floats();
        auto rank = [](double x) { return std::isnan(x) ? (std::signbit(x) ? 0 : 2) : 1; };
        std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
          int ra = rank(k[a]), rb = rank(k[b]);
          return ra != rb ? ra < rb : ra == 1 && k[a] < k[b];
        });
      } else {
        auto k = keys.ints();
        std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) { return k[a] < k[b]; });
      }
      std::vector<Value> all = {keys};
      all.insert(all.end(), vals.begin(), vals.end());
      std::vector<std::vector<Value>> rows;
      for (int64_t i = 0; i < n; ++i) {
        std::vector<Value> row;
        for (auto &a : all) row.push_back(element(a, {perm[i]}));
        rows.push_back(row);
      }
      assignOuts(s, collect(s, rows));
      break;
    }
    case StmtKind::SegScan:
    case StmtKind::SegReduce: {
      bool scan = s.kind == StmtKind::SegScan;
      const Block &body = scan ? static_cast<const SegScan &>(s).body : static_cast<const SegReduce &>(s).body;
      const Lambda &op = scan ? static_cast<const SegScan &>(s).op : static_cast<const SegReduce &>(s).op;
      auto ne = evalAll(scan ? static_cast<const SegScan &>(s).ne : static_cast<const SegReduce &>(s).ne);
      int index = scan ? static_cast<const SegScan &>(s).index : static_cast<const SegReduce &>(s).index;
      int64_t n = idx(eval(scan ? static_cast<const SegScan &>(s).n : static_cast<const SegReduce &>(s).n));
      std::vector<std::vector<Value>> rows;
      std::vector<Value> acc = ne;
      for (int64_t i = 0; i < n; ++i) {
        set(index, Value::scalarInt(i, ScalarKind::Long));
        auto r = block(body);
        bool start = i == 0 || r.at(0).i;
        if (start && i > 0 && !scan) rows.push_back(acc);
        std::vector<Value> x(r.begin() + 1, r.end());
        // a segment starts with its first element (IR.h: ne is not folded in)
        acc = start ? x : applyOp(op, acc, x);
        if (scan) rows.push_back(acc);
      }
      if (!scan && n > 0) rows.push_back(acc);
      assignOuts(s, collect(s, rows));
      break;
    }
    case StmtKind::Expand: {
      auto &x = static_cast<const Expand &>(s);
      // The expanded elements in order, consumed as `into` says (IR.h).
      std::vector<Value> acc = x.into == Expand::Reduce ? evalAll(x.ne) : std::vector<Value>{};
      int64_t n = idx(eval(x.n));
      std::vector<std::vector<Value>> rows;
      for (int64_t i = 0; i < n; ++i) {
        set(x.index, Value::scalarInt(i, ScalarKind::Long));
        int64_t sz = idx(block(x.size).at(0));
        for (int64_t j = 0; j < sz; ++j) {
          set(x.index, Value::scalarInt(i, ScalarKind::Long));
          set(x.inner, Value::scalarInt(j, ScalarKind::Long));
          auto r = block(x.body);
          switch (x.into) {
          case Expand::Array: rows.push_back(std::move(r)); break;
          case Expand::Reduce: acc = applyOp(x.op, acc, r); break;
          case Expand::Filter:
            if (r.at(0).i) rows.push_back(std::move(r));
            break;
          }
        }
      }
      if (x.into == Expand::Reduce) assignOuts(s, acc);
      else assignOuts(s, collect(s, rows, x.into == Expand::Filter ? 1 : 0));
      break;
    }
    }
  }
};
} // namespace

std::vector<Value> interpret(const Module &module, const Function &fn, const std::vector<Value> &args) {
  Interp in{module, std::vector<Value>(module.vars.size())};
  size_t a = 0;
  for (auto &pv : fn.paramVars)
    for (int v : pv) {
      if (a >= args.size()) throw std::runtime_error("interpret: too few arguments for " + fn.name);
      Value x = args[a++];
      if (x.type.rank != module.vars[v].type.rank)
        throw std::runtime_error("interpret: argument of wrong rank for " + fn.name);
      // Convert scalars to the parameter's type.
      if (x.type.rank == 0 && x.type.elem != module.vars[v].type.elem)
        x = x.isFloat() ? Value::scalarFloat(x.f, module.vars[v].type.elem)
                        : Value::scalarInt(x.i, module.vars[v].type.elem);
      in.env[v] = x;
    }
  return in.block(fn.body);
}

std::vector<Value> interpret(const Module &module, const std::string &name, const std::vector<Value> &args) {
  for (auto &f : module.functions)
    if (f.name == name) return interpret(module, f, args);
  throw std::runtime_error("interpret: no function " + name);
}

} // namespace arrc::ir
