// Hist (body results: the bin, then the K values): the runtime's
// arrc::histogram, the body fused in as arrc_bin and arrc_load, the bins
// written by arrc_store. The runtime picks the schedule (docs/runtime.md):
// private or shared local-memory histograms for commutative operators that
// it recognises (+, *, min, max per component), global atomics for many
// bins, and for any other operator the exact ordered path (sort by bin,
// fold each bin in index order); CPUs fold per chunk and merge in order.
//
// bin k = ne op (the values of bin k) must hold for any `ne` (LANGUAGE.md
// §7), also one that is not an identity of op. Unless codegen sees that it
// is one (+ 0, * 1, min, max), the element is lifted: member f0 says
// whether a value is present, the runtime folds with the identity
// (false, _), and the store hook applies `ne op` once per bin.
#include "Generator.h"

namespace arrc::cg {

// The store hook of a lifted histogram: out_k[b] = ne op acc, or ne.
std::string Generator::liftedHistStore(const Hist &x, const Element &el) {
  size_t K = x.outs.size();
  std::set<int> opFree = freeOf({}, {&x.op}, {});
  Code k;
  k.open("inline void arrc_store(long arrc_i, T arrc_v ARRC_PARAMS)");
  std::vector<std::string> neText;
  for (size_t c = 0; c < K; ++c) {
    neText.push_back(x.ne[c]->kind == Exp::Const ? exp(x.ne[c], true) : "arrc_hne" + std::to_string(c));
    k.line(std::string(clScalar(el.kinds[1 + c])) + " arrc_x" + std::to_string(c) + ";");
  }
  k.open("if (!arrc_v.f0)");
  for (size_t c = 0; c < K; ++c) k.line("arrc_x" + std::to_string(c) + " = " + neText[c] + ";");
  k.close();
  k.open("else");
  for (int v : opFree) devAlias_[v] = "arrc_sa_" + name(v);
  for (size_t c = 0; c < K; ++c) {
    k.line(decl(x.op.params[c], true) + " = " + neText[c] + ";");
    k.line(decl(x.op.params[K + c], true) + " = " + el.field("arrc_v", 1 + c) + ";");
  }
  devBlock(k, x.op.body);
  for (size_t c = 0; c < K; ++c) k.line("arrc_x" + std::to_string(c) + " = " + exp(x.op.body.results[c], true) + ";");
  devAlias_.clear();
  k.close();
  for (size_t c = 0; c < K; ++c)
    k.line("arrc_o" + std::to_string(c) + "[arrc_i] = arrc_x" + std::to_string(c) + ";");
  k.close();
  return k.s;
}

// The row form of a flattened producer (k-means' sums over
// [ids[i] * d + j | i <- iota(M), j <- iota(d)]): the body's top-level
// `i / D` and `i % D` (i the index, D from outside the body). The first
// `i % D`'s D is the row width, a hint to the runtime's GPU schedule
// (arrc::histogram's row_width): any bins stay right. Where every such D
// equals it at run time (arrc_rows_exact), the hooks arrc_bin_rc and
// arrc_load_rc take the row and column instead of i, without dividing.
struct RowForm {
  const ExpP *width = nullptr;
  std::vector<const ExpP *> divisors;
  std::map<const Stmt *, bool> lets;  // true: i / D (the row), false: i % D
  bool columnBins = false;            // the bin: something + the column (see columnBins)
};

// Whether the bin is `b + c` with c the column (i % width, through
// conversions) and b not depending on it: k-means' `ids[i / d] * d + i % d`,
// the premise of the runtime's GPU rows schedule (each work-item of a lane
// owns the bins of its column). A histogram per column walked along rows
// (HistOrder.cpp: bin `offs[c] + ids[r]`) does not fit it; its row width
// only gives the row hooks.
static bool columnBins(const Hist &x, const RowForm &f) {
  std::map<int, ExpP> lets;
  for (auto &st : x.body.stmts)
    if (st->kind == StmtKind::Let) lets[st->outs[0]] = static_cast<const Let &>(*st).value;
  // the column Let's variable (the first i % D, D the width)
  int col = -1;
  for (auto &[st, row] : f.lets)
    if (!row && &static_cast<const Let &>(*st).value->args[1] == f.width) col = st->outs[0];
  if (col < 0 || x.body.results.empty()) return false;
  // e itself, through conversions and Lets: the column is what leads to
  // the column Let's own value
  auto strip = [&](ExpP e) {
    for (int d = 0; e && d < 16; ++d) {
      if (e->kind == Exp::Convert) e = e->args[0];
      else if (e->kind == Exp::Var && lets.count(e->var)) e = lets.at(e->var);
      else break;
    }
    return e;
  };
  auto isCol = [&](const ExpP &e) { return strip(e) == lets.at(col); };
  // variables e depends on, through the body's Lets
  std::function<bool(const ExpP &, int)> usesCol = [&](const ExpP &e, int depth) {
    if (depth > 32) return true;
    std::set<int> vs;
    expVars(e, vs);
    for (int v : vs)
      if (v == col || (lets.count(v) && usesCol(lets.at(v), depth + 1))) return true;
    return false;
  };
  ExpP b = strip(x.body.results[0]);
  if (!b || b->kind != Exp::Binary || b->binop != BinOp::Add) return false;
  return (isCol(b->args[1]) && !usesCol(b->args[0], 0)) || (isCol(b->args[0]) && !usesCol(b->args[1], 0));
}

static RowForm rowForm(const Hist &x) {
  RowForm f;
  std::set<int> inside;
  blockDefs(x.body, inside);
  inside.insert(x.index);
  for (auto &st : x.body.stmts) {
    if (st->kind != StmtKind::Let) continue;
    const ExpP &e = static_cast<const Let &>(*st).value;
    if (e->kind != Exp::Binary || (e->binop != BinOp::Mod && e->binop != BinOp::Div) ||
        e->args[0]->kind != Exp::Var || e->args[0]->var != x.index || e->type.elem != ScalarKind::Long)
      continue;
    std::set<int> vs;
    expVars(e->args[1], vs);
    bool outside = !hasCheckedRead(e->args[1]);
    for (int v : vs) outside = outside && !inside.count(v);
    if (!outside) continue;
    if (!f.width && e->binop == BinOp::Mod) f.width = &e->args[1];
    f.divisors.push_back(&e->args[1]);
    f.lets[st.get()] = e->binop == BinOp::Div;
  }
  f.columnBins = f.width && columnBins(x, f);
  return f;
}

// arrc_rows_exact, arrc_bin_rc and arrc_load_rc (RowForm): the hooks'
// body with the index, and its row and column Lets, bound to the
// parameters.
std::string Generator::rowHooks(const Hist &x, const RowForm &f, const HookTail &bin, const HookTail &load) {
  if (!f.width) return "";
  std::string exact;
  std::set<std::string> seen;
  for (const ExpP *d : f.divisors)
    if (seen.insert(expKey(*d)).second) exact += (exact.empty() ? "" : " && ") + ("(" + exp(*d, true) + ") == arrc_rw");
  std::vector<std::pair<int, std::string>> binds{{x.index, "arrc_row * (" + exp(*f.width, true) + ") + arrc_col"}};
  Block rest;
  rest.results = x.body.results;
  for (auto &st : x.body.stmts) {
    auto l = f.lets.find(st.get());
    if (l == f.lets.end()) rest.stmts.push_back(st);
    else binds.push_back({st->outs[0], l->second ? "arrc_row" : "arrc_col"});
  }
  return "#define ARRC_ROW_HOOKS 1\nint arrc_rows_exact(long arrc_rw ARRC_PARAMS) {\n  return " + exact + ";\n}\n" +
         hook("long arrc_bin_rc(long arrc_row, long arrc_col ARRC_PARAMS)", binds, rest, bin) +
         hook("T arrc_load_rc(long arrc_row, long arrc_col ARRC_PARAMS)", binds, rest, load);
}

void Generator::hist(const Hist &x) {
  size_t K = x.outs.size();
  bool lifted = !neutralIsIdentity(x.op, x.ne);
  std::vector<ScalarKind> kinds = kindsOf(x.outs);
  if (lifted) kinds.insert(kinds.begin(), ScalarKind::Bool);
  Element el = elementOf(kinds);
  HookTail load = returnElement(el, 1);
  if (lifted)
    load = [el, K](Code &c, const std::vector<std::string> &r) {
      c.line("T arrc_r;");
      c.line("arrc_r.f0 = 1;");
      for (size_t k = 0; k < K; ++k) c.line(el.field("arrc_r", 1 + k) + " = " + r.at(1 + k) + ";");
      c.line("return arrc_r;");
    };
  const RowForm rows = rowForm(x);
  std::string id = fusedSource(
      "hist", where(x),
      hook("long arrc_bin(long arrc_i ARRC_PARAMS)", {{x.index, "arrc_i"}}, x.body, returnResult(0, "long")) +
          hook("T arrc_load(long arrc_i ARRC_PARAMS)", {{x.index, "arrc_i"}}, x.body, load) +
          rowHooks(x, rows, returnResult(0, "long"), load) + (lifted ? liftedHistStore(x, el) : storeHook(el, K)));
  h("// histogram" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": runtime arrc::histogram, body " + id +
    (lifted ? " (lifted: ne applied once per bin)" : ""));
  for (int o : x.outs) h(decl(o, false) + ";");
  host_->open("");
  h("const int64_t n = " + exp(x.n, false) + ";");
  h("const int64_t bins = std::max<int64_t>(0, " + exp(x.bins, false) + ");");
  for (int o : x.outs) h(name(o) + " = " + cppType(typeOf(o)) + "::alloc(ctx, {bins});");
  elemDecl(el);
  operatorDecl(x, x.op, x.ne, el, "op", lifted);
  fusedDecl("in", id, freeOf({&x.body}, {}, {x.index}), x.outs);
  if (lifted) {
    // what the store hook reads: the operator's free variables, run-time ne
    for (int v : freeOf({}, {&x.op}, {})) fusedArg("in", v, "arrc_sa_");
    for (size_t c = 0; c < K; ++c)
      if (x.ne[c]->kind != Exp::Const) {
        ScalarKind kk = el.kinds[1 + c];
        h("in.args.push_back(arrc::KernelArg::scalar<" + std::string(cppStore(kk)) + ">(\"" + clStore(kk) +
          "\", \"arrc_hne" + std::to_string(c) + "\", " + cppStore(kk) + "(" + exp(x.ne[c], false) + ")));");
      }
  }
  h("arrc::histogram(ctx, et, op, bins, n, in, nullptr, 0" +
    (rows.width ? ", " + exp(*rows.width, false) + (rows.columnBins ? "" : ", false") : "") + ");");
  if (blockMayRaise(x.body) || (lifted && blockMayRaise(x.op.body))) h("detail::check(ctx);");
  host_->close();
}

} // namespace arrc::cg
