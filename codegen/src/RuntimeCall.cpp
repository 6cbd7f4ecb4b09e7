// The pieces of a call to a runtime primitive (runtime/include/arrc/
// primitives.h): the element type, the operator, and the fused producer --
// the SOAC's body as the hooks the primitive calls (arrc_load, arrc_keep,
// arrc_bin, arrc_store, ...) with the body's free variables as extra kernel
// arguments. The primitive owns the schedule; this file only writes the
// pieces (DESIGN.md: one schedule per SOAC per device class).
#include "Generator.h"

namespace arrc::cg {

std::vector<ScalarKind> Generator::kindsOf(const std::vector<int> &vars) const {
  std::vector<ScalarKind> k;
  for (int v : vars) k.push_back(typeOf(v).elem);
  return k;
}

std::string Generator::hook(const std::string &signature,
                            const std::vector<std::pair<int, std::string>> &binds, const Block &body,
                            const HookTail &tail, const std::vector<std::string> &prologue) {
  Code k;
  k.open(signature);
  for (auto &l : prologue) k.line(l);
  for (auto &b : binds) k.line(decl(b.first, true) + " = " + b.second + ";");
  devBlock(k, body);
  std::vector<std::string> results;
  for (auto &r : body.results) results.push_back(exp(r, true));
  tail(k, results);
  k.close();
  return k.s;
}

Generator::HookTail Generator::returnElement(const Element &el, size_t from) {
  return [el, from](Code &c, const std::vector<std::string> &r) {
    if (!el.isRecord()) {
      c.line("return " + r.at(from) + ";");
      return;
    }
    c.line("T arrc_r;");
    for (size_t k = 0; k < el.kinds.size(); ++k) c.line(el.field("arrc_r", k) + " = " + r.at(from + k) + ";");
    c.line("return arrc_r;");
  };
}

Generator::HookTail Generator::returnResult(size_t k, const std::string &cast) {
  return [k, cast](Code &c, const std::vector<std::string> &r) {
    c.line("return " + (cast.empty() ? r.at(k) : "(" + cast + ")(" + r.at(k) + ")") + ";");
  };
}

std::string Generator::storeHook(const Element &el, size_t outs, size_t from) {
  Code k;
  k.open("inline void arrc_store(long arrc_i, T arrc_v ARRC_PARAMS)");
  for (size_t o = 0; o < outs; ++o)
    k.line("arrc_o" + std::to_string(o) + "[arrc_i] = " + el.field("arrc_v", from + o) + ";");
  k.close();
  return k.s;
}

std::string Generator::fusedSource(const std::string &what, const std::string &at, const std::string &text) {
  std::string id = fusedName(fused_.size(), fnName_, what);
  bool divMod = text.find("arrc_div_") != std::string::npos || text.find("arrc_mod_") != std::string::npos;
  bool weights = text.find("ARRC_LW(") != std::string::npos;
  fused_.push_back({id, what + (at.empty() ? "" : " at " + at),
                    std::string(weights ? kUnitStrideDefault() : "") + (divMod ? divModHelpers() : "") + text});
  return "detail::" + id;
}

void Generator::elemDecl(const Element &el, const std::string &var) {
  h("static const arrc::ElemType " + var + " = " + el.hostExpr + ";");
}

bool Generator::neutralIsIdentity(const ir::Lambda &op, const std::vector<ExpP> &ne) {
  return ir::neutralIsIdentity(op, ne);
}

bool Generator::operatorDecl(const Stmt &at, const ir::Lambda &op, const std::vector<ExpP> &ne,
                             const Element &el, const std::string &var, bool lifted) {
  size_t K = ne.size(), from = lifted ? 1 : 0;
  if (op.params.size() != 2 * K || op.body.results.size() != K || el.kinds.size() != K + from)
    fail("operator arity does not match its element");
  // Free variables of the operator and run-time neutral elements become
  // operator arguments (arrc_oa_<name>, arrc_ne<k>).
  std::set<int> opFree = freeOf({}, {&op}, {});
  std::map<int, std::string> aliases;
  for (int v : opFree) aliases[v] = "arrc_oa_" + name(v);
  std::vector<std::string> neText, argLines;
  for (size_t k = 0; k < K && !lifted; ++k) {
    if (ne[k]->kind == Exp::Const) {
      neText.push_back(exp(ne[k], true));
      continue;
    }
    std::string n = "arrc_ne" + std::to_string(k);
    neText.push_back(n);
    ScalarKind kk = el.kinds[k];
    std::string hv = exp(ne[k], false);
    argLines.push_back(var + ".args.push_back(arrc::KernelArg::scalar<" + std::string(cppStore(kk)) +
                       ">(\"" + clStore(kk) + "\", \"" + n + "\", " + cppStore(kk) + "(" + hv + ")));");
  }
  std::vector<const char *> kinds(K, nullptr);
  bool simple = true;
  for (size_t k = 0; k < K; ++k) simple = ir::simpleComponent(op, K, k, kinds[k]) && simple;
  // The expression of component k over `a` and `b` (simple components only).
  auto componentExpr = [&](size_t k) {
    devAlias_ = aliases;
    devAlias_[op.params[k]] = "a";
    devAlias_[op.params[K + k]] = "b";
    std::string e = exp(op.body.results[k], true);
    devAlias_.clear();
    return e;
  };
  std::string build;
  if (K == 1 && simple && !lifted) {
    build = "arrc::Operator::make(" + quote(componentExpr(0)) + ", " + quote(neText[0]) +
            ", arrc::Operator::" + kinds[0] + ")";
  } else {
    // The operator (and for records the neutral element) as functions.
    // Lifted: member f0 says whether the element holds a value at all, so
    // that (false, _) is a true identity whatever `ne` is.
    std::vector<std::pair<int, std::string>> binds;
    for (size_t k = 0; k < K; ++k) {
      binds.push_back({op.params[k], el.field("arrc_a", from + k)});
      binds.push_back({op.params[K + k], el.field("arrc_b", from + k)});
    }
    devAlias_ = aliases;
    std::string save = errName_;
    errName_ = "arrc_oerr";
    std::vector<std::string> prologue;
    if (lifted) prologue = {"if (!arrc_a.f0) return arrc_b;", "if (!arrc_b.f0) return arrc_a;"};
    std::string prelude = hook("inline T arrc_cg_op(T arrc_a, T arrc_b ARRC_OP_PARAMS)", binds, op.body,
                               [&](Code &c, const std::vector<std::string> &r) {
      if (!lifted) return returnElement(el)(c, r);
      c.line("T arrc_r;");
      c.line("arrc_r.f0 = 1;");
      for (size_t k = 0; k < K; ++k) c.line(el.field("arrc_r", 1 + k) + " = " + r.at(k) + ";");
      c.line("return arrc_r;");
    }, prologue);
    errName_ = save;
    devAlias_.clear();
    std::string neutral = lifted ? "" : neText[0];
    if (el.isRecord()) {
      Code k;
      k.open("inline T arrc_cg_ne(int arrc_unused ARRC_OP_PARAMS)");
      k.line("T arrc_r;");
      for (size_t c = 0; c < el.kinds.size(); ++c)
        k.line(el.field("arrc_r", c) + " = " + (lifted ? std::string("0") : neText[c]) + ";");
      k.line("return arrc_r;");
      k.close();
      prelude += k.s;
      neutral = "arrc_cg_ne(0 ARRC_OP_ARGS)";
    }
    std::string src = fusedSource("op", where(at), prelude);
    build = "arrc::Operator::custom(\"arrc_cg_op(a, b ARRC_OP_ARGS)\", " + quote(neutral) + ", " +
            (simple ? "true" : "false") + ", " + src + ")";
  }
  bool needsErr = blockMayRaise(op.body);
  bool dynamic = !opFree.empty() || !argLines.empty() || needsErr;
  std::vector<std::string> fieldOps;
  if (K > 1 && simple && !lifted)
    for (size_t k = 0; k < K; ++k)
      fieldOps.push_back("arrc::Operator::make(" + quote(componentExpr(k)) + ", " + quote(neText[k]) +
                         ", arrc::Operator::" + kinds[k] + ")");
  if (!dynamic && fieldOps.empty()) {
    h("static const arrc::Operator " + var + " = " + build + ";");
    return simple;
  }
  if (!dynamic) {
    h("static const arrc::Operator " + var + " = [] {");
    h("  arrc::Operator o = " + build + ";");
    h("  o.fields = {" + join(fieldOps, ",\n                ") + "};");
    h("  return o;");
    h("}();");
    return simple;
  }
  h("arrc::Operator " + var + " = " + build + ";");
  if (!fieldOps.empty()) h(var + ".fields = {" + join(fieldOps) + "};");
  for (int v : opFree) fusedArg(var, v, "arrc_oa_");
  for (auto &l : argLines) h(l);
  if (needsErr)
    h(var + ".args.push_back(arrc::KernelArg::buffer(\"__global long*\", \"arrc_oerr\", ctx.error_buffer()));");
  return simple;
}

void Generator::fusedArg(const std::string &var, int v, const std::string &prefix) {
  if (isGuard(v)) return;
  const ir::Type &t = typeOf(v);
  std::string n = name(v), p = prefix + n;
  noteType(t.elem);
  std::string cl = clStore(t.elem), cpp = cppStore(t.elem);
  if (t.rank == 0) {
    std::string hv = t.elem == ScalarKind::Bool ? "uint8_t(" + n + ")" : n;
    h(var + ".args.push_back(arrc::KernelArg::scalar<" + cpp + ">(\"" + cl + "\", \"" + p + "\", " + hv + "));");
    return;
  }
  h("arrc::gen::add_array(" + var + ", \"" + p + "\", " + n + ");");
}

void Generator::fusedDecl(const std::string &var, const std::string &source, const std::set<int> &vars,
                          const std::vector<int> &outs) {
  h("arrc::Fused " + var + ";");
  std::string unit = unitStride(vars);
  if (unit.empty()) {
    h(var + ".source = " + source + ";");
  } else {
    // the unit-stride variant when the arrays are contiguous along their last axis
    std::string u = var + "_unit_stride";
    h("static const std::string " + u + " = std::string(\"" + std::string("#undef ARRC_LW\\n#define ARRC_LW(w) 1\\n") +
      "\") + " + source + ";");
    h(var + ".source = " + unit + " ? " + u + " : std::string(" + source + ");");
  }
  for (int v : vars) fusedArg(var, v, "");
  h(var + ".args.push_back(arrc::KernelArg::error_buffer(ctx));");
  for (size_t o = 0; o < outs.size(); ++o)
    h(var + ".args.push_back(arrc::KernelArg::buffer(\"__global " + clStore(typeOf(outs[o]).elem) +
      "*\", \"arrc_o" + std::to_string(o) + "\", " + name(outs[o]) + ".buffer()));");
}

void Generator::readElement(const Element &el, const std::string &buf, const std::vector<int> &vars,
                            bool checked) {
  std::string n = std::to_string(el.size);
  h("unsigned char bytes[" + n + "];");
  if (checked)
    h("ctx.read_checked(" + buf + "->mem(), 0, " + n + ", bytes, detail::positions, detail::num_positions);");
  else
    h("ctx.read(" + buf + "->mem(), 0, " + n + ", bytes);");
  for (size_t k = 0; k < vars.size(); ++k)
    h(name(vars[k]) + " = arrc::gen::member<" + cppScalar(el.kinds[k]) + ">(bytes, " +
      std::to_string(el.offsets[k]) + ");");
}

} // namespace arrc::cg
