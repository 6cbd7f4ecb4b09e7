// Device code: IR expressions and scalar statements as OpenCL C (and the
// same expressions as C++ for host code), kernel parameters and launches.
#include "Generator.h"

#include <cmath>
#include <regex>

namespace arrc::cg {

Generator::Generator(const ir::Module &m) : m_(m) {
  for (size_t i = 0; i < m.vars.size(); ++i) {
    names_.push_back(localName(static_cast<int>(i), m.vars[i].name));
  }
}

std::string Generator::devName(int v) const {
  auto it = devAlias_.find(v);
  return it != devAlias_.end() ? it->second : name(v);
}
void Generator::noteType(ScalarKind k) {
  if (k == ScalarKind::Double) usesDouble_ = true;
}


// ---------------------------------------------------------------- expressions
std::string Generator::exp(const ExpP &e, bool dev) {
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
    // floating point to an integer: toward zero, saturating, NaN as 0 (the
    // same on every device and on the host: a plain cast is undefined there)
    // (NaN tested first: NVIDIA's convert_int_sat(double) gives INT_MIN for it)
    if (isFloating(e->args.at(0)->type.elem) && !isFloating(k))
      return dev ? "(isnan(" + a + ") ? (" + clScalar(k) + ")0 : convert_" + std::string(clScalar(k)) + "_sat(" + a + "))"
                 : "arrc::gen::fsat<" + std::string(cppScalar(k)) + ">(" + a + ")";
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

// An integer constant that is neither 0 nor -1 (the divisors Arr defines
// differently from C: x / 0 == 0, MIN / -1 == MIN).
static bool plainDivisor(const ExpP &b) {
  return b->kind == Exp::Const && b->ival != 0 && b->ival != -1;
}

// Whether e reads an array or calls a function (anything but arithmetic on values).
static bool readsOrCalls(const ExpP &e) {
  if (e->kind == Exp::Read || e->kind == Exp::Call) return true;
  for (auto &a : e->args)
    if (readsOrCalls(a)) return true;
  return false;
}

std::string Generator::binary(const ExpP &e, bool dev) {
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
    // a constant divisor other than 0 and -1: C's own division agrees with
    // Arr's, and compilers turn it into a multiplication (and vectorise it)
    if (integral && plainDivisor(e->args[1])) return plain("/");
    if (integral)
      return dev ? "arrc_div_" + std::string(cl) + "(" + a + ", " + b + ")"
                 : "arrc::gen::div<" + cpp + ">(" + a + ", " + b + ")";
    return plain("/");
  case BinOp::Mod:
    if (integral && plainDivisor(e->args[1])) return plain("%");
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
  // In device code, && and || over a right side that reads nothing (and so
  // cannot raise or read out of range) are & and |: both sides are
  // evaluated, no branch (argmin's fold `b < a || (b == a && j < i)` kept
  // PoCL's compiler from vectorising the loop around it)
  case BinOp::And: return plain(dev && !readsOrCalls(e->args[1]) ? "&" : "&&");
  case BinOp::Or: return plain(dev && !readsOrCalls(e->args[1]) ? "|" : "||");
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

std::string Generator::call(const ExpP &e, bool dev) {
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
  if (f == "items_in_one_pass" || f == "inner_loops_sequential" || f == "group_by_hist_bins" || f == "loop_chunks") {
    if (dev) fail(f + " in device code");
    return "ctx." + f + "(" + join(a) + ")";
  }
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

static const char *hostGuardCode(Check::Code code) {
  switch (code) {
  case Check::Bounds: return "bounds";
  case Check::Shape: case Check::Irregular: return "shape";
  case Check::ZipSize: return "zip";
  case Check::Empty: return "empty";
  case Check::Other: case Check::Negative: break;
  }
  return "generic";
}

static std::string guardCode(Check::Code code) {
  switch (code) {
  case Check::Bounds: return "ARRC_ERR_BOUNDS";
  case Check::Shape: return "ARRC_ERR_SHAPE";
  case Check::ZipSize: return "ARRC_ERR_ZIP";
  case Check::Empty: return "ARRC_ERR_EMPTY";
  case Check::Irregular: return "ARRC_ERR_SHAPE";
  case Check::Other: case Check::Negative: break;
  }
  return "ARRC_ERR_GENERIC";
}

std::string Generator::read(const ExpP &e, bool dev) {
  const ExpP &arr = e->args.at(0);
  if (arr->kind != Exp::Var) fail("Read of a non-variable array");
  int rank = static_cast<int>(e->args.size()) - 1;
  std::vector<std::string> idx;
  for (int k = 1; k <= rank; ++k) idx.push_back(exp(e->args[static_cast<size_t>(k)], dev));
  ScalarKind ek = typeOf(arr->var).elem;
  if (!dev && isGuard(arr->var)) {
    // a guard read that simplification moved to the host: 0, or the error
    for (const auto &g : m_.guards)
      if (g.var == arr->var)
        return "((" + idx.at(0) + ") == 0 ? " + std::string(cppScalar(ek)) + "(0) : arrc::gen::guard_failed<" +
               cppScalar(ek) + ">(arrc::ErrorCode::" + hostGuardCode(g.code) + ", detail::position(" +
               std::to_string(e->checkPos) + "), " + (idx.size() > 1 ? "int64_t(" + idx[1] + ")" : "-1") + ", " +
               (idx.size() > 2 ? "int64_t(" + idx[2] + ")" : "-1") + ", " +
               (idx.size() > 3 ? "int64_t(" + idx[3] + ")" : "0") + "))";
  }
  if (!dev) {
    return "arrc::gen::read<" + std::string(cppScalar(ek)) + ", " + std::to_string(rank) + ">(ctx, " +
           name(arr->var) + ", {" + join(idx) + "}, " + std::to_string(e->checkPos) +
           ", detail::positions, detail::num_positions)";
  }
  std::string a = devName(arr->var);
  std::string addr;
  for (int k = 0; k < rank; ++k) {
    std::string w = a + "_w" + std::to_string(k);
    if (k == rank - 1) w = "ARRC_LW(" + w + ")"; // 1 in the unit-stride variant
    addr += "(" + idx[static_cast<size_t>(k)] + ") * " + w + " + ";
  }
  addr += a + "_w" + std::to_string(rank);
  std::string v = a + "[" + addr + "]";
  if (rank == 2 && staged_.count(arr->var)) {
    // rows of this work-group staged in local memory (SoacMap.cpp)
    std::string r = "(" + idx[0] + ")", c = "(" + idx[1] + ")";
    v = "ARRC_STAGED(" + r + " - stg_base >= 0 && " + r + " - stg_base < stg_rows_" + a + " && " + c + " >= 0 && " + c +
        " < " + a + "_n1, stg_" + a + "[(" + r + " - stg_base) * stg_pitch_" + a + " + " + c + "], " + v + ")";
  }
  if (ek == ScalarKind::Bool) v = "(" + v + " != 0)";
  if (e->checkPos < 0 || uncheckedReads_.count(e.get())) return v;
  mayRaise_ = true;
  std::vector<std::string> checks;
  for (int k = 0; k < rank; ++k)
    checks.push_back("arrc_in_bounds(" + errName_ + ", " + std::to_string(e->checkPos) + ", " +
                     idx[static_cast<size_t>(k)] + ", " + a + "_n" + std::to_string(k) + ", " +
                     std::to_string(k) + ")");
  std::string zero = ek == ScalarKind::Bool ? "false" : "(" + std::string(clScalar(ek)) + ")0";
  // A lowering guard (Module::guards) fails by reading index 1 of its
  // one-element array {0}: report the guarded check's own error, not
  // bounds. Its value is known, so the array itself is never read (nor
  // allocated: see isGuard).
  // The values after the index are what the error reports (index,
  // extent, axis; or the two sizes).
  for (const auto &g : m_.guards)
    if (g.var == arr->var)
      return "((" + idx[0] + ") == 0 ? " + zero + " : (arrc_raise(" + errName_ + ", " + guardCode(g.code) +
             ", " + std::to_string(e->checkPos) + ", " + (idx.size() > 1 ? idx[1] : "-1") + ", " +
             (idx.size() > 2 ? idx[2] : "-1") + ", " + (idx.size() > 3 ? idx[3] : "0") + "), " + zero + "))";
  return "(" + join(checks, " && ") + " ? " + v + " : " + zero + ")";
}


// ---------------------------------------------------------------- device blocks
std::string Generator::decl(int v, bool dev) {
  const ir::Type &t = typeOf(v);
  if (dev) {
    noteType(t.elem);
    return std::string(clScalar(t.elem)) + " " + devName(v);
  }
  std::string d = cppType(t) + " " + name(v);
  if (t.rank == 0 && !used_.count(v)) d = "[[maybe_unused]] " + d;
  return d;
}

void Generator::devBlock(Code &c, const Block &b) {
  for (auto &s : b.stmts) devStmt(c, *s);
}

void Generator::devStmt(Code &c, const Stmt &s) {
  switch (s.kind) {
  case StmtKind::Let: {
    auto &x = static_cast<const Let &>(s);
    int v = x.outs.at(0);
    if (v == skipLet_) return; // a rebased loop's counter (devLoop)
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
    int budget = 12;
    bool flat = ifConvertible(x, budget);
    if (flat) {
      // CPU devices: both branches, then a select per result. The branches
      // have no effects and read only in range whatever the condition, so
      // the loop around can be vectorised without masked loads (a filter's
      // chain of conditions in an expand's walk, docs/codegen.md).
      c.line("#ifdef ARRC_CPU");
      std::string cond = exp(x.cond, true);
      devBlock(c, x.thenB);
      devBlock(c, x.elseB);
      for (size_t i = 0; i < x.outs.size(); ++i)
        c.line(decl(x.outs[i], true) + " = (" + cond + ") ? " + exp(x.thenB.results.at(i), true) + " : " +
               exp(x.elseB.results.at(i), true) + ";");
      c.line("#else");
    }
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
    if (flat) c.line("#endif");
    return;
  }
  case StmtKind::Loop: {
    auto &x = static_cast<const ir::Loop &>(s);
    std::vector<std::string> ranges;
    std::string count = x.form == ir::Loop::For ? devName(x.index) + "_count" : "";
    std::pair<int, std::string> rebase{-1, ""};
    std::set<const Exp *> reads = rangeReads(x, count, ranges, &rebase);
    if (reads.empty()) {
      devLoop(c, x, true);
      return;
    }
    // Reads at base + k for every k < count, checked once before the loop:
    // in range for all k, the loop runs without their checks; otherwise as
    // written (the same first error).
    for (int o : x.outs) c.line(decl(o, true) + ";");
    c.line("const long " + count + " = " + exp(x.count, true) + ";");
    c.open("if (" + count + " <= 0 || (" + join(ranges, " && ") + "))");
    std::set<const Exp *> saved = uncheckedReads_;
    uncheckedReads_.insert(reads.begin(), reads.end());
    const bool rebased = rebase.first >= 0 && &x != strideLoop_ && splitSum(x).empty();
    if (rebased) {
      // the Let `v = base + int(k)` as the loop's int counter, where its
      // last value base + count stays below 2^31 (devLoop)
      c.open("if (" + count + " >= 0 && (long)(" + rebase.second + ") + " + count + " <= 2147483647L)");
      rebaseLoop_ = &x, rebase_ = rebase;
      devLoop(c, x, false);
      rebaseLoop_ = nullptr;
      c.close();
      c.open("else");
    }
    devLoop(c, x, false);
    if (rebased) c.close();
    uncheckedReads_ = saved;
    c.close();
    c.open("else");
    devLoop(c, x, false);
    c.close();
    return;
  }
  case StmtKind::Write: {
    auto &x = static_cast<const Write &>(s);
    std::string a = devName(x.array);
    std::string addr;
    for (size_t k = 0; k < x.indices.size(); ++k)
      addr += "(" + exp(x.indices[k], true) + ") * " +
              (k + 1 == x.indices.size() ? "ARRC_LW(" + a + "_w" + std::to_string(k) + ")"
                                         : a + "_w" + std::to_string(k)) + " + ";
    addr += a + "_w" + std::to_string(x.indices.size());
    ScalarKind ek = typeOf(x.array).elem;
    std::string v = exp(x.value, true);
    if (ek == ScalarKind::Bool) v = "(uchar)(" + v + ")";
    c.line(a + "[" + addr + "] = " + v + ";");
    return;
  }
  case StmtKind::HistAdd: {
    // the runtime's histogram_items defines the update (runtime/src/histogram_items.cpp)
    auto &x = static_cast<const HistAdd &>(s);
    c.line("ARRC_HIST_ADD(" + std::to_string(x.hist) + ", (long)(" + exp(x.bin, true) + "), " + exp(x.value, true) + ");");
    return;
  }
  default:
    fail("host-level statement (kind " + std::to_string(int(s.kind)) + ") inside a kernel body");
  }
}

// Whether an if may run as both branches and a select (devStmt): scalar
// results; branches of Lets (and such ifs) whose expressions have no
// effects, read only where boundsChecks proved the read in range whatever
// the ifs' conditions, and cost little (budget: Lets, a math call 4).
bool Generator::ifConvertible(const ir::If &x, int &budget) const {
  for (int o : x.outs)
    if (typeOf(o).rank > 0) return false;
  std::function<bool(const ExpP &)> pure = [&](const ExpP &e) {
    if (!e) return true;
    if (e->kind == Exp::Read) {
      if (e->checkPos >= 0 || !e->speculable || e->args[0]->kind != Exp::Var || isGuard(e->args[0]->var))
        return false;
    }
    if (e->kind == Exp::Call && (budget -= 4) < 0) return false;
    for (auto &a : e->args)
      if (!pure(a)) return false;
    return true;
  };
  if (!pure(x.cond)) return false;
  for (const Block *b : {&x.thenB, &x.elseB}) {
    for (auto &st : b->stmts) {
      if (--budget < 0) return false;
      if (st->kind == StmtKind::Let) {
        if (typeOf(st->outs[0]).rank > 0 || !pure(static_cast<const Let &>(*st).value)) return false;
      } else if (st->kind == StmtKind::If) {
        if (!ifConvertible(static_cast<const ir::If &>(*st), budget)) return false;
      } else {
        return false;
      }
    }
    for (auto &r : b->results)
      if (!pure(r)) return false;
  }
  return true;
}

// The terms e_i of a reduce's sums `for k < n: p_i = p_i + e_i` (no p used
// anywhere else in the body; several after JamLoops), or none; float sums
// only unless `integers`.
std::vector<const ExpP *> Generator::sumTerms(const ir::Loop &x, bool integers) const {
  if (!x.reassoc || x.form != ir::Loop::For || x.params.empty() || x.body.results.size() != x.params.size())
    return {};
  // each state variable p_i: p_i + term_i, no term and no statement reading any p
  std::vector<const ExpP *> terms;
  std::set<int> ps(x.params.begin(), x.params.end());
  for (size_t i = 0; i < x.params.size(); ++i) {
    const ir::Type &t = typeOf(x.params[i]);
    bool ok = t.elem == ScalarKind::Float || t.elem == ScalarKind::Double ||
              (integers && (t.elem == ScalarKind::Int || t.elem == ScalarKind::Long));
    if (t.rank != 0 || !ok) return {};
    const ExpP &r = x.body.results[i];
    if (r->kind != Exp::Binary || r->binop != BinOp::Add || r->args.size() != 2) return {};
    int p = x.params[i];
    auto isP = [p](const ExpP &e) { return e->kind == Exp::Var && e->var == p; };
    const ExpP *term = isP(r->args[0]) ? &r->args[1] : isP(r->args[1]) ? &r->args[0] : nullptr;
    if (!term) return {};
    terms.push_back(term);
  }
  bool uses = false;
  std::function<void(const ExpP &)> ex = [&](const ExpP &e) {
    if (!e || uses) return;
    if (e->kind == Exp::Var && ps.count(e->var)) uses = true;
    for (auto &a : e->args) ex(a);
  };
  std::function<void(const Block &)> blk = [&](const Block &b) {
    for (auto &st : b.stmts) {
      forEachExp(const_cast<Stmt &>(*st), [&](ExpP &e) { ex(e); });
      forEachBlock(static_cast<const Stmt &>(*st), [&](const Block &in) { blk(in); });
    }
    for (auto &res : b.results) ex(res);
  };
  for (auto &st : x.body.stmts) {
    forEachExp(const_cast<Stmt &>(*st), [&](ExpP &e) { ex(e); });
    forEachBlock(static_cast<const Stmt &>(*st), [&](const Block &in) { blk(in); });
  }
  for (const ExpP *term : terms) ex(*term);
  return uses ? std::vector<const ExpP *>{} : terms;
}

// The terms of sumTerms' float sums where splitting them into partial sums
// pays on CPUs (below), or none.
std::vector<const ExpP *> Generator::splitSum(const ir::Loop &x) const {
  // three sums or more (JamLoops run twice) are as many chains already
  if (x.params.size() > 2) return {};
  std::vector<const ExpP *> terms = sumTerms(x, false);
  if (terms.empty()) return {};
  // Only where k indexes the last (contiguous) axis of what the body reads,
  // directly: a strided walk (dgemm's B[k, j]) or a gather (SpMV's
  // x[cols[k]]) is bound by its loads, not by the additions, and the four
  // partial sums measured 10-20% slower there on PoCL.
  std::set<int> dep{x.index};
  bool strided = false;
  std::function<bool(const ExpP &)> mentions = [&](const ExpP &e) {
    if (!e) return false;
    if (e->kind == Exp::Var && dep.count(e->var)) return true;
    for (auto &a : e->args)
      if (mentions(a)) return true;
    return false;
  };
  std::function<bool(const ExpP &)> hasRead = [&](const ExpP &e) {
    if (!e) return false;
    if (e->kind == Exp::Read) return true;
    for (auto &a : e->args)
      if (hasRead(a)) return true;
    return false;
  };
  std::function<void(const ExpP &)> reads = [&](const ExpP &e) {
    if (!e || strided) return;
    if (e->kind == Exp::Read)
      for (size_t k = 1; k < e->args.size(); ++k)
        if (mentions(e->args[k]) && (k + 1 < e->args.size() || hasRead(e->args[k])))
          strided = true;  // k on an outer axis, or a gather (SpMV's x[cols[k]])
    for (auto &a : e->args) reads(a);
  };
  std::function<void(const Block &)> walk = [&](const Block &b) {
    for (auto &st : b.stmts) {
      if (st->kind == StmtKind::Let && mentions(static_cast<const Let &>(*st).value))
        for (int o : st->outs) dep.insert(o);
      forEachExp(const_cast<Stmt &>(*st), [&](ExpP &e) { reads(e); });
      forEachBlock(static_cast<const Stmt &>(*st), [&](const Block &in) { walk(in); });
    }
    for (auto &res : b.results) reads(res);
  };
  walk(x.body);
  return strided ? std::vector<const ExpP *>{} : terms;
}

// A device loop (splitSum's CPU form included); its results declared here
// (declareOuts) or assigned to variables declared before.
// A long row's loop (strideLoop_, SoacMapLongRows.cpp) is one lane's share:
// every strideStep_-th k from strideStart_, its sums from zero.
void Generator::devLoop(Code &c, const ir::Loop &x, bool declareOuts) {
  const bool strided = &x == strideLoop_;
  for (size_t i = 0; i < x.params.size(); ++i) {
    if (typeOf(x.params[i]).rank > 0) fail("array-valued loop inside a kernel");
    c.line(decl(x.params[i], true) + " = " + (strided ? zeroOf(typeOf(x.params[i]).elem) : exp(x.init.at(i), true)) +
           ";");
  }
  const std::vector<const ExpP *> terms = strided ? std::vector<const ExpP *>{} : splitSum(x);
  if (!terms.empty()) {
    // Float sums of a reduce (associative): on CPU devices four partial
    // sums each, so that four chains of additions overlap instead of one
    // waiting on each addition's latency (k-means' distances, dgemm's and
    // SpMV's dot products), and the device compiler packs each sum's four
    // into one vector (PoCL, k-means with JamLoops' two sums: 7.2 ms per
    // step on one thread; two partial sums each 9.3 ms); GPUs keep the
    // single chain (a work-item each).
    const int U = 4;
    std::string iv = devName(x.index), it = clScalar(typeOf(x.index).elem);
    c.line("#ifdef ARRC_CPU");
    c.open("");
    for (size_t i = 0; i < terms.size(); ++i) {
      std::string p = devName(x.params[i]), ft = clScalar(typeOf(x.params[i]).elem);
      std::string zero = typeOf(x.params[i]).elem == ScalarKind::Float ? "-0.0f" : "-0.0";
      std::string parts;
      for (int u = 1; u < U; ++u) parts += (u > 1 ? ", " : "") + p + "_" + std::to_string(u) + " = " + zero;
      c.line(ft + " " + parts + ";");
    }
    c.line("const " + it + " " + iv + "_n = " + exp(x.count, true) + ";");
    c.line(it + " " + iv + "_0 = 0;");
    c.open("for (; " + iv + "_0 + " + std::to_string(U - 1) + " < " + iv + "_n; " + iv + "_0 += " + std::to_string(U) + ")");
    for (int u = 0; u < U; ++u) {
      c.open("");
      c.line("const " + it + " " + iv + " = " + iv + "_0" + (u ? " + " + std::to_string(u) : "") + ";");
      devBlock(c, x.body);
      for (size_t i = 0; i < terms.size(); ++i) {
        std::string p = devName(x.params[i]);
        std::string acc = u ? p + "_" + std::to_string(u) : p;
        c.line(acc + " = " + acc + " + " + exp(*terms[i], true) + ";");
      }
      c.close();
    }
    c.close();
    c.open("for (; " + iv + "_0 < " + iv + "_n; ++" + iv + "_0)");
    c.line("const " + it + " " + iv + " = " + iv + "_0;");
    devBlock(c, x.body);
    for (size_t i = 0; i < terms.size(); ++i) {
      std::string p = devName(x.params[i]);
      c.line(p + " = " + p + " + " + exp(*terms[i], true) + ";");
    }
    c.close();
    for (size_t i = 0; i < terms.size(); ++i) {
      std::string p = devName(x.params[i]);
      c.line(p + (U == 4 ? " = (" + p + " + " + p + "_1) + (" + p + "_2 + " + p + "_3);" : " = " + p + " + " + p + "_1;"));
    }
    c.close();
    c.line("#else");
  }
  const bool rebased = &x == rebaseLoop_; // devStmt sets it only without partial sums
  const int outerSkip = skipLet_;
  if (x.form == ir::Loop::For) {
    std::string iv = devName(x.index);
    std::string it = clScalar(typeOf(x.index).elem);
    if (strided) {
      c.open("for (" + it + " " + iv + " = " + strideStart_ + "; " + iv + " < " + exp(x.count, true) + "; " + iv +
             " += " + strideStep_ + ")");
    } else if (rebased) {
      // Rebased (devStmt: rangeReads' checks passed, 0 <= count and
      // base + count < 2^31): the Let `v = base + int(k)` is the int counter
      // itself, from base. PoCL then strength-reduces the reads at v;
      // through a long counter, its int conversion and the wrapping add,
      // CSR SpMV's row loop took 1.2-1.3x the time (one thread).
      std::string v = devName(rebase_.first);
      c.open("");
      c.line("const int " + v + "_end = (int)(" + rebase_.second + ") + (int)(" + exp(x.count, true) + ");");
      c.open("for (int " + v + " = (int)(" + rebase_.second + "); " + v + " < " + v + "_end; ++" + v + ")");
      c.line("const " + it + " " + iv + " = (" + it + ")(" + v + " - (int)(" + rebase_.second + "));");
      skipLet_ = rebase_.first;
    } else {
      c.open("for (" + it + " " + iv + " = 0; " + iv + " < " + exp(x.count, true) + "; ++" + iv + ")");
    }
  } else {
    c.open("for (;;)");
    devBlock(c, x.cond);
    c.line("if (!(" + exp(x.cond.results.at(0), true) + ")) break;");
  }
  devBlock(c, x.body);
  skipLet_ = outerSkip;
  loopAssign(c, x, true);
  c.close();
  if (rebased) c.close();
  if (!terms.empty()) c.line("#endif");
  for (size_t i = 0; i < x.outs.size(); ++i)
    c.line((declareOuts ? decl(x.outs[i], true) : devName(x.outs[i])) + " = " + devName(x.params.at(i)) + ";");
}

// The checked reads of a counted loop's body (its top level) that read a
// rank-1 array at base + k, k the loop's counter and base the same for the
// whole loop (SpMV's vals[lo + k] and cols[lo + k]); `conds` gets, per
// read, the condition under which every k < count (the variable named
// `count`, of a positive count) is in range.
std::set<const Exp *> Generator::rangeReads(const ir::Loop &x, const std::string &count,
                                            std::vector<std::string> &conds, std::pair<int, std::string> *rebase) {
  std::set<const Exp *> out;
  if (x.form != ir::Loop::For) return out;
  std::set<int> inside;
  blockDefs(x.body, inside);
  inside.insert(x.index);
  std::map<int, const ExpP *> lets;
  for (auto &st : x.body.stmts)
    if (st->kind == StmtKind::Let) lets[st->outs[0]] = &static_cast<const Let &>(*st).value;
  // the same for every k, and raising no error of its own (it is evaluated
  // before the loop)
  auto invariant = [&](const ExpP &e) {
    std::set<int> vs;
    expVars(e, vs);
    for (int v : vs)
      if (inside.count(v) || isGuard(v)) return false;
    return !hasCheckedRead(e);
  };
  auto intConvert = [](const ExpP &e) {
    return e->kind == Exp::Convert && (e->type.elem == ScalarKind::Int || e->type.elem == ScalarKind::Long);
  };
  // k itself, or int/long conversions of it (through the body's Lets)
  std::function<bool(const ExpP &)> isCounter = [&](const ExpP &e) {
    const ExpP *p = &e;
    while (intConvert(*p)) p = &(*p)->args[0];
    if ((*p)->kind != Exp::Var) return false;
    if ((*p)->var == x.index) return true;
    auto l = lets.find((*p)->var);
    return l != lets.end() && intConvert(*l->second) && isCounter(*l->second);
  };
  // the base of an index base + k (null if the index has another form);
  // the counter alone has base 0
  int via = -1; // the body Let baseOf went through
  auto baseOf = [&](const ExpP &ix) -> std::string {
    const ExpP *p = &ix;
    via = -1;
    while (intConvert(*p)) p = &(*p)->args[0];
    if (isCounter(*p)) return "0";
    if ((*p)->kind == Exp::Var && lets.count((*p)->var)) {
      via = (*p)->var;
      p = lets.at((*p)->var);
    }
    const ExpP &e = *p;
    if (e->kind != Exp::Binary || e->binop != BinOp::Add ||
        (e->type.elem != ScalarKind::Int && e->type.elem != ScalarKind::Long))
      return "";
    for (int side = 0; side < 2; ++side)
      if (isCounter(e->args[side]) && invariant(e->args[1 - side])) {
        if (via >= 0 && rebase && rebase->first < 0 && e->type.elem == ScalarKind::Int &&
            e->args[1 - side]->type.elem == ScalarKind::Int)
          *rebase = {via, exp(e->args[1 - side], true)};
        return exp(e->args[1 - side], true);
      }
    return "";
  };
  std::function<void(const ExpP &)> walk = [&](const ExpP &e) {
    if (!e) return;
    if (e->kind == Exp::Read && e->checkPos >= 0 && e->args.size() == 2 && e->args[0]->kind == Exp::Var &&
        !isGuard(e->args[0]->var) && !out.count(e.get())) {
      std::string base = baseOf(e->args[1]);
      if (!base.empty()) {
        std::string b = "(long)(" + base + ")";
        // below 2^31: an int base + k does not wrap
        conds.push_back(b + " >= 0 && " + b + " + " + count + " <= " + devName(e->args[0]->var) + "_n0 && " + b +
                        " + " + count + " <= 2147483648L");
        out.insert(e.get());
      }
    }
    for (auto &a : e->args) walk(a);
  };
  for (auto &st : x.body.stmts)
    if (st->kind == StmtKind::Let) walk(static_cast<const Let &>(*st).value);
  for (auto &r : x.body.results) walk(r);
  return out;
}

// params = body.results, through temporaries (they may refer to each other).
void Generator::loopAssign(Code &c, const ir::Loop &x, bool dev) {
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
bool Generator::isGuard(int v) const {
  for (const auto &g : m_.guards)
    if (g.var == v) return true;
  return false;
}

KernelArgs Generator::freeArgs(const std::set<int> &vars) {
  KernelArgs k;
  for (int v : vars) {
    if (isGuard(v)) continue;
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

std::set<int> Generator::freeOf(const std::vector<const Block *> &blocks,
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


std::string Generator::newKernel(const std::string &kind, const Stmt &s) {
  std::string out = s.outs.empty() ? std::string() : m_.vars.at(static_cast<size_t>(s.outs[0])).name;
  return kernelName(fnIndex_, kind, kernelCounter_++, fnName_, out);
}

void Generator::beginKernel(Code &k, const std::string &name, const std::string &comment,
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

std::string Generator::rebaseArrays(const std::string &kernel) {
  // One pointer instead of a pointer and an offset per array: an add less
  // per read, and a value less live in the loops (PoCL kept the SpMV
  // loop's base pointers on the stack: one thread, 1.9 -> 1.65 ms).
  size_t open = kernel.find("\n{\n");
  if (open == std::string::npos || kernel.find("__kernel void") == std::string::npos) return kernel;
  std::string params = kernel.substr(0, open), body = kernel.substr(open + 3);
  static const std::regex ptr(R"(\n    __global (?:const )?\w+ \*(\w+)[,)])");
  std::string prologue;
  for (std::sregex_iterator it(params.begin(), params.end(), ptr), end; it != end; ++it) {
    const std::string a = (*it)[1];
    int rank = 0;
    while (params.find("long " + a + "_w" + std::to_string(rank + 1) + ",") != std::string::npos ||
           params.find("long " + a + "_w" + std::to_string(rank + 1) + ")") != std::string::npos)
      ++rank;
    if (rank == 0 || params.find("long " + a + "_n0") == std::string::npos) continue;
    const std::string off = a + "_w" + std::to_string(rank), use = " + " + off + "]";
    std::string out;
    size_t from = 0, reads = 0;
    for (size_t p = body.find(use); p != std::string::npos; from = p + use.size(), p = body.find(use, from), ++reads)
      out += body.substr(from, p - from) + "]";
    out += body.substr(from);
    // every use of the offset was one of those reads
    std::regex word("\\b" + off + "\\b");
    if (reads == 0 || std::regex_search(out, word)) continue;
    body = out;
    prologue += "  " + a + " += " + off + ";\n";
  }
  if (prologue.empty()) return kernel;
  return params + "\n{\n  // each array from its first element (the offsets below are no longer added)\n" + prologue + body;
}

std::string Generator::launch(const std::string &kernel, const std::string &global, const std::string &local,
                   const std::vector<std::string> &args, const std::string &unit) {
  std::vector<std::string> a = args;
  a.push_back("ctx.error_buffer()");
  return "ctx.launch(detail::kernel(ctx, \"" + kernel + "\"" + (unit.empty() ? "" : ", " + unit) + "), " + global +
         ", " + local + ",\n" + "           " + join(a) + ");";
}

std::string Generator::unitStride(const std::set<int> &vars) const {
  std::vector<std::string> c;
  for (int v : vars) {
    const ir::Type &t = typeOf(v);
    if (t.rank > 0 && !isGuard(v)) c.push_back(name(v) + ".weight(" + std::to_string(t.rank - 1) + ") == 1");
  }
  return join(c, " && ");
}

// Host code writes each line through this (current indentation).

} // namespace arrc::cg
