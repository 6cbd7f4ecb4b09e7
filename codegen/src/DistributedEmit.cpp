// The distributed overload's frame and host statements (Distributed.h).
// Scalars are replicated: every rank runs the host code on the same values
// (reductions end with every rank folding the same partial results in rank
// order). Arrays are held replicated (R) or block-distributed (B); a SOAC
// that reads a B array runs distributed and yields B arrays, one that reads
// only R arrays runs on every rank. Conversions: R -> B is a view of the
// rank's rows; B -> R is an MPI_Allgatherv, made once per scope where the
// array is defined (so not again in every iteration of a loop).
#include "Distributed.h"

namespace arrc::cg {

namespace {

std::string replaceAll(std::string s, const std::string &from, const std::string &to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

// C++ type of a source type in the distributed overload (arrays as arrc::DistArray).
std::string distCppOf(const TypeP &t) { return replaceAll(cppOf(t), "arrc::Array<", "arrc::DistArray<"); }

bool isArrayType(const TypeP &t) { return t && t->kind == arrc::Type::Array; }

// Component k of an array of tuples, as an array of that component.
TypeP componentArray(const TypeP &t, size_t k) {
  auto a = std::make_shared<arrc::Type>(*t);
  a->elem = t->elem->elems.at(k);
  return a;
}

} // namespace

DistEmitter::DistEmitter(Generator &outer, const Function &f) : outer_(outer), f_(f), m_(outer.m_) {}

bool DistEmitter::isGuard(int v) const {
  for (const auto &gd : m_.guards)
    if (gd.var == v) return true;
  return false;
}

Form DistEmitter::formOf(int v) const {
  auto it = form_.find(v);
  return it == form_.end() ? Form::R : it->second;
}

void DistEmitter::setForm(int v, Form f) {
  form_[v] = f;
  level_[v] = scopes_.empty() ? 0 : scopes_.size() - 1;
}

int DistEmitter::newVar(const std::string &name, ir::Type t) {
  int v = m_.newVar(name, t);
  used_.insert(v);
  return v;
}

int DistEmitter::rform(int v) {
  if (!isArray(v) || formOf(v) != Form::B) return v;
  for (size_t k = scopes_.size(); k-- > 0;) {
    auto it = scopes_[k].rforms.find(v);
    if (it != scopes_[k].rforms.end()) return it->second;
  }
  size_t level = level_.count(v) ? level_.at(v) : 0;
  if (level >= scopes_.size()) level = scopes_.size() - 1;
  int r = newVar(m_.vars.at(static_cast<size_t>(v)).name + "_all", typeOf(v));
  form_[r] = Form::R;
  level_[r] = level;
  scopes_[level].rforms[v] = r;
  scopes_[level].steps.push_back([this, v, r] {
    h(g().decl(r, false) + " = arrc::dist::replicate(" + N(v) + "); // MPI_Allgatherv");
  });
  return r;
}

std::string DistEmitter::distType(int v) const {
  const ir::Type &t = typeOf(v);
  return "arrc::DistArray<" + std::string(cppScalar(t.elem)) + ", " + std::to_string(t.rank) + ">";
}

std::string DistEmitter::declAs(int v) {
  if (isArray(v) && formOf(v) == Form::B) return distType(v) + " " + N(v);
  return g().decl(v, false);
}

std::string DistEmitter::asForm(int v, Form to) {
  Form from = formOf(v);
  if (!isArray(v) || from == to) return N(v);
  if (to == Form::B) return "arrc::dist::blocked(cl, " + N(v) + ")";
  return "arrc::dist::replicate(" + N(v) + ")";
}

ExpP DistEmitter::hostExp(const ExpP &e) {
  return rewriteExp(e, [&](const ExpP &x) -> ExpP {
    if (x->kind == Exp::Weight && x->args[0]->kind == Exp::Var && formOf(x->args[0]->var) == Form::B) {
      auto y = std::make_shared<Exp>(*x);
      y->args[0] = varExp(m_, rform(x->args[0]->var));
      return y;
    }
    return nullptr;
  });
}

StmtP DistEmitter::localClone(const Stmt &s, std::map<int, ExpP> &sub) {
  StmtP c = cloneStmt(s);
  forEachBlock(*c, [&](Block &b) { b = cloneFresh(m_, b, sub); });
  forEachExp(*c, [&](ExpP &e) { e = hostExp(substitute(e, sub)); });
  std::set<int> u;
  stmtUses(*c, u);
  used_.insert(u.begin(), u.end());
  return c;
}

// ------------------------------------------------------------------ statements

void DistEmitter::block(const Block &b) {
  for (auto &s : b.stmts) stmt(*s);
}

void DistEmitter::stmt(const Stmt &s) {
  switch (s.kind) {
  case StmtKind::Let: {
    auto &x = static_cast<const Let &>(s);
    int v = x.outs.at(0);
    if (isArray(v)) {
      if (x.value->kind != Exp::Var) fail("array Let of a non-variable");
      int src = x.value->var;
      setForm(v, formOf(src));
      emit([this, v, src] { h(declAs(v) + " = " + N(src) + ";"); });
      return;
    }
    return hostStmt(s);
  }
  case StmtKind::Check:
  case StmtKind::Alloc:
  case StmtKind::Literal: return hostStmt(s);
  case StmtKind::View: {
    auto &x = static_cast<const View &>(s);
    std::map<int, ExpP> sub;
    if (x.source->kind == Exp::Var && formOf(x.source->var) == Form::B)
      sub[x.source->var] = varExp(m_, rform(x.source->var));
    StmtP c = localClone(s, sub);
    setForm(x.outs.at(0), Form::R);
    emit([this, c] { g().hostStmt(*c); });
    return;
  }
  case StmtKind::If: return ifStmt(static_cast<const ir::If &>(s));
  case StmtKind::Loop: return loopStmt(static_cast<const ir::Loop &>(s));
  case StmtKind::Map: return map(static_cast<const Map &>(s));
  case StmtKind::Reduce: return reduce(static_cast<const Reduce &>(s));
  case StmtKind::Scan: return scan(static_cast<const Scan &>(s));
  case StmtKind::SegScan: return segScan(static_cast<const SegScan &>(s));
  case StmtKind::SegReduce: return segReduce(static_cast<const SegReduce &>(s));
  case StmtKind::Filter: return filter(static_cast<const Filter &>(s));
  case StmtKind::Hist: return hist(static_cast<const Hist &>(s));
  case StmtKind::MultiHist: return multiHist(static_cast<const MultiHist &>(s));
  case StmtKind::HistAdd: fail("HistAdd at host level");
  case StmtKind::Sort: return sort(static_cast<const Sort &>(s));
  case StmtKind::Expand: return expand(static_cast<const Expand &>(s));
  case StmtKind::Scatter: return replicated(s);
  case StmtKind::Write: fail("Write at host level");
  }
}

void DistEmitter::hostStmt(const Stmt &s) {
  std::map<int, ExpP> sub;
  StmtP c = localClone(s, sub);
  for (int o : s.outs)
    if (isArray(o)) setForm(o, Form::R);
  emit([this, c] { g().hostStmt(*c); });
}

// Every rank runs the statement on whole (replicated) arrays.
void DistEmitter::replicated(const Stmt &s) {
  std::set<int> u;
  stmtUses(s, u);
  std::map<int, ExpP> sub;
  for (int v : u)
    if (isArray(v) && formOf(v) == Form::B) sub[v] = varExp(m_, rform(v));
  StmtP c = localClone(s, sub);
  for (int o : s.outs)
    if (isArray(o)) setForm(o, Form::R);
  std::string what = where(s);
  emit([this, c, what] {
    h("// replicated: every rank runs this statement on whole arrays" + (what.empty() ? "" : " (" + what + ")"));
    g().hostStmt(*c);
  });
}

void DistEmitter::ifStmt(const ir::If &x) {
  ExpP cond = hostExp(x.cond);
  auto branch = [&](const Block &b) {
    scopes_.emplace_back();
    block(b);
    auto steps = std::make_shared<std::vector<Emit>>(std::move(scopes_.back().steps));
    scopes_.pop_back();
    return steps;
  };
  auto thenS = branch(x.thenB);
  auto elseS = branch(x.elseB);
  for (size_t i = 0; i < x.outs.size(); ++i) {
    int o = x.outs[i];
    if (!isArray(o)) continue;
    Form f = Form::R;
    for (const Block *b : {&x.thenB, &x.elseB}) {
      const ExpP &r = b->results.at(i);
      if (r->kind != Exp::Var) fail("array result of an If that is not a variable");
      if (formOf(r->var) == Form::B) f = Form::B;
    }
    setForm(o, f);
  }
  std::vector<ExpP> thenR, elseR;
  for (auto &r : x.thenB.results) thenR.push_back(hostExp(r));
  for (auto &r : x.elseB.results) elseR.push_back(hostExp(r));
  std::vector<int> outs = x.outs;
  emit([this, outs, cond, thenS, elseS, thenR, elseR] {
    for (int o : outs) h(declAs(o) + "{};");
    auto assign = [&](const std::vector<ExpP> &res) {
      for (size_t i = 0; i < outs.size(); ++i) {
        int o = outs[i];
        if (isArray(o)) h(N(o) + " = " + asForm(res[i]->var, formOf(o)) + ";");
        else h(N(o) + " = " + g().exp(res[i], false) + ";");
      }
    };
    g().host_->open("if (" + Generator::outerParensOff(g().exp(cond, false)) + ")");
    run(*thenS);
    assign(thenR);
    g().host_->close();
    g().host_->open("else");
    run(*elseS);
    assign(elseR);
    g().host_->close();
  });
}

void DistEmitter::loopStmt(const ir::Loop &x) {
  // The form of each array carried by the loop: block-distributed if it
  // starts so or any iteration makes it so (a fixed point; forms only go R -> B).
  std::vector<Form> forms;
  for (size_t k = 0; k < x.params.size(); ++k) {
    Form f = Form::R;
    if (isArray(x.params[k])) {
      if (x.init[k]->kind != Exp::Var) fail("array loop state initialised from a non-variable");
      f = formOf(x.init[k]->var);
    }
    forms.push_back(f);
  }
  auto planIteration = [&]() {
    scopes_.emplace_back();
    for (size_t k = 0; k < x.params.size(); ++k)
      if (isArray(x.params[k])) setForm(x.params[k], forms[k]);
    if (x.form == ir::Loop::While) {
      block(x.cond);
      ExpP c = hostExp(x.cond.results.at(0));
      emit([this, c] { h("if (!(" + g().exp(c, false) + ")) break;"); });
    }
    block(x.body);
    auto steps = std::make_shared<std::vector<Emit>>(std::move(scopes_.back().steps));
    scopes_.pop_back();
    return steps;
  };
  for (int round = 0; round < 4; ++round) {
    planIteration(); // discarded: only the forms of the results matter here
    bool changed = false;
    for (size_t k = 0; k < x.params.size(); ++k) {
      if (!isArray(x.params[k])) continue;
      const ExpP &r = x.body.results.at(k);
      if (r->kind != Exp::Var) fail("array loop state updated from a non-variable");
      if (forms[k] == Form::R && formOf(r->var) == Form::B) {
        forms[k] = Form::B;
        changed = true;
      }
    }
    if (!changed) break;
  }
  auto steps = planIteration();
  std::vector<ExpP> init, next;
  for (auto &e : x.init) init.push_back(hostExp(e));
  for (auto &e : x.body.results) next.push_back(hostExp(e));
  ExpP count = x.form == ir::Loop::For ? hostExp(x.count) : nullptr;
  for (size_t k = 0; k < x.params.size(); ++k)
    if (isArray(x.params[k])) {
      form_[x.params[k]] = forms[k];
      setForm(x.outs[k], forms[k]);
    }
  int id = soacCounter_++;
  const ir::Loop *lp = &x;
  emit([this, lp, steps, init, next, count, id] {
    const ir::Loop &x = *lp;
    for (size_t k = 0; k < x.params.size(); ++k) {
      int p = x.params[k];
      if (isArray(p)) h(declAs(p) + " = " + asForm(init[k]->var, formOf(p)) + ";");
      else h(g().decl(p, false) + " = " + g().exp(init[k], false) + ";");
    }
    if (x.form == ir::Loop::For) {
      std::string iv = N(x.index);
      std::string it = cppScalar(typeOf(x.index).elem);
      g().host_->open("for (" + it + " " + iv + " = 0, " + iv + "_end = " + g().exp(count, false) + "; " + iv + " < " +
                      iv + "_end; ++" + iv + ")");
    } else {
      g().host_->open("for (;;)");
    }
    run(*steps);
    // the next state, computed before any of it is assigned
    for (size_t k = 0; k < x.params.size(); ++k) {
      int p = x.params[k];
      std::string t = isArray(p) && formOf(p) == Form::B ? distType(p) : cppType(typeOf(p));
      std::string v = isArray(p) ? asForm(next[k]->var, formOf(p)) : g().exp(next[k], false);
      h(t + " arrc_next" + std::to_string(id) + "_" + std::to_string(k) + " = " + v + ";");
    }
    for (size_t k = 0; k < x.params.size(); ++k)
      h(N(x.params[k]) + " = arrc_next" + std::to_string(id) + "_" + std::to_string(k) + ";");
    g().host_->close();
    for (size_t k = 0; k < x.outs.size(); ++k) h(declAs(x.outs[k]) + " = " + N(x.params[k]) + ";");
  });
}

// ------------------------------------------------------------------ the overload

void DistEmitter::plan() {
  scopes_.clear();
  scopes_.emplace_back();
  form_.clear();
  level_.clear();
  for (auto &vars : f_.paramVars)
    for (int v : vars)
      if (isArray(v)) setForm(v, Form::B);
  block(f_.body);
  for (auto &r : f_.body.results)
    if (r->type.rank > 0 && r->kind != Exp::Var) fail("array result that is not a variable");
}

std::string DistEmitter::emitFunction(bool distributedBody, const std::string &why) {
  g_ = std::make_unique<Generator>(m_);
  Generator &gen = *g_;
  gen.fnName_ = "dist_" + sanitize(f_.name);
  gen.distributed_ = true;
  {
    std::set<int> d;
    usesBlock(f_.body, gen.used_, d);
    gen.used_.insert(used_.begin(), used_.end());
  }
  Code c;
  gen.host_ = &c;
  std::vector<std::string> params{"arrc::Cluster &cl"}, names;
  for (size_t i = 0; i < f_.paramTypes.size(); ++i) {
    std::string pn = i < f_.paramNames.size() ? exportedName(f_.paramNames[i], NameRole::Parameter) : "p" + std::to_string(i);
    names.push_back(pn);
    params.push_back("const " + distCppOf(f_.paramTypes[i]) + " &" + pn);
  }
  std::string ret = distCppOf(f_.resultType);
  c.line("// export " + f_.name + (f_.span.begin.line > 0 ? " (line " + std::to_string(f_.span.begin.line) + ")" : "") +
         ", over the ranks of an arrc::Cluster" +
         (distributedBody ? "" : ": every rank runs the single-device code on whole arrays (" + why + ")"));
  c.line("inline " + ret + " " + cppIdent(f_.name) + "(" + join(params) + ") {");
  c.ind++;
  c.line("return cl.run([&]() -> " + ret + " {");
  c.ind++;
  c.line("arrc::Context &ctx = cl.context();");
  c.line("(void)ctx;");
  if (distributedBody) {
    for (size_t i = 0; i < f_.paramTypes.size(); ++i) {
      std::vector<std::string> leaves;
      flattenAccess(f_.paramTypes[i], names[i], leaves);
      const auto &vars = f_.paramVars.at(i);
      if (vars.size() != leaves.size()) fail("parameter flattens to a different number of variables");
      for (auto &check : componentChecks(f_.paramTypes[i], f_.paramNames.size() > i ? f_.paramNames[i] : names[i],
                                         gen.positionOf(f_.span), leaves))
        c.line(check);
      for (size_t j = 0; j < vars.size(); ++j) c.line(declAs(vars[j]) + " = " + leaves[j] + ";");
    }
    run(scopes_.at(0).steps);
    if (gen.mayRaise_) c.line("detail::check(ctx);");
    std::vector<std::string> leaves;
    for (auto &r : f_.body.results) {
      if (r->type.rank > 0 && formOf(r->var) == Form::R)
        leaves.push_back(distType(r->var) + "::replicated(cl, " + N(r->var) + ")");
      else
        leaves.push_back(r->type.rank > 0 ? N(r->var) : gen.exp(r, false));
    }
    size_t pos = 0;
    c.line("return " + replaceAll(buildValue(f_.resultType, leaves, pos), "arrc::Array<", "arrc::DistArray<") + ";");
  } else {
    // the single-device function on whole arrays
    std::function<std::string(const TypeP &, const std::string &)> whole = [&](const TypeP &t, const std::string &e) {
      if (isArrayType(t) && t->elem->kind != arrc::Type::Tuple) return e + ".gather()";
      if (isArrayType(t) || t->kind == arrc::Type::Tuple) {
        size_t n = isArrayType(t) ? t->elem->elems.size() : t->elems.size();
        std::vector<std::string> parts;
        for (size_t k = 0; k < n; ++k) {
          TypeP ct = t->kind == arrc::Type::Tuple ? t->elems[k] : componentArray(t, k);
          parts.push_back(whole(ct, "std::get<" + std::to_string(k) + ">(" + e + ")"));
        }
        return cppOf(t) + "(" + join(parts) + ")";
      }
      return e;
    };
    std::function<std::string(const TypeP &, const std::string &)> back = [&](const TypeP &t, const std::string &e) {
      if (isArrayType(t) && t->elem->kind != arrc::Type::Tuple) return distCppOf(t) + "::replicated(cl, " + e + ")";
      if (isArrayType(t) || t->kind == arrc::Type::Tuple) {
        size_t n = isArrayType(t) ? t->elem->elems.size() : t->elems.size();
        std::vector<std::string> parts;
        for (size_t k = 0; k < n; ++k) {
          TypeP ct = t->kind == arrc::Type::Tuple ? t->elems[k] : componentArray(t, k);
          parts.push_back(back(ct, "std::get<" + std::to_string(k) + ">(r)"));
        }
        return distCppOf(t) + "(" + join(parts) + ")";
      }
      return e;
    };
    std::vector<std::string> args{"ctx"};
    for (size_t i = 0; i < f_.paramTypes.size(); ++i) args.push_back(whole(f_.paramTypes[i], names[i]));
    c.line("auto r = ::" + exportedName(m_.name, NameRole::Namespace) + "::" + cppIdent(f_.name) + "(" + join(args) + ");");
    c.line("return " + back(f_.resultType, "r") + ";");
  }
  c.ind--;
  c.line("});");
  c.ind--;
  c.line("}");
  c.line("");
  gen.host_ = nullptr;
  return c.s;
}

void DistEmitter::run() {
  std::string text;
  try {
    plan();
    text = emitFunction(true, "");
  } catch (const std::exception &e) {
    // what the planner does not handle still runs, on whole arrays
    // (docs/distributed.md; no program of the test suite needs it)
    text = emitFunction(false, e.what());
  }
  outer_.dist_.functions += text;
  outer_.dist_.exports.push_back(cppIdent(f_.name));
  outer_.dist_.kernels += g_->kernels_;
  outer_.dist_.usesDouble = outer_.dist_.usesDouble || g_->usesDouble_;
  for (auto &fu : g_->fused_) outer_.dist_.fused.push_back(fu);
}

// ------------------------------------------------------------------ Generator hooks

void Generator::distributed(const Function &f) {
  // Never at the cost of the single-device header: an export whose overload
  // cannot be written at all (not even the fallback) has none.
  try {
    DistEmitter(*this, f).run();
  } catch (const std::exception &) {
  }
}

std::string Generator::distributedSection() const {
  std::string ns = exportedName(m_.name, NameRole::Namespace);
  std::string h;
  h += "// Distributed overloads (docs/distributed.md): every export also runs over the\n"
       "// ranks of an arrc::Cluster (MPI). Compiled where ARRC_MPI is defined: link the\n"
       "// CMake target arrc::cluster, which defines it.\n";
  h += "#if defined(ARRC_MPI)\n#include <arrc/cluster.h>\n\n";
  h += "namespace " + ns + " {\nnamespace dist {\nnamespace detail {\n";
  h += "using namespace " + ns + "::detail;\n";
  // the distributed functions' own kernels: a program apart from the
  // module's, so that single-device users never build them
  Generator kernels(m_);
  kernels.kernels_ = dist_.kernels;
  kernels.usesDouble_ = dist_.usesDouble;
  h += sourcePieces(kernels.openclSource());
  h += "inline arrc::ProgramSource &program() {\n"
       "  static arrc::ProgramSource source(std::string(arrc::kernel_prelude()) + opencl_text());\n"
       "  return source;\n}\n";
  h += "inline arrc::ProgramSource &program_unit_stride() {\n"
       "  static arrc::ProgramSource source(std::string(arrc::kernel_prelude()) + \"" +
       std::string("#define ARRC_LW(w) 1\\n") + "\" + opencl_text());\n  return source;\n}\n";
  h += "inline cl_kernel kernel(arrc::Context &ctx, const char *name, bool unit_stride = false) {\n"
       "  require_fp64(ctx);\n"
       "  return ctx.kernel(unit_stride ? program_unit_stride() : program(), name);\n}\n";
  for (auto &f : dist_.fused)
    h += "// " + f.comment + "\ninline const char *const " + f.id + " = R\"ARRC_CL(" + f.text + ")ARRC_CL\";\n";
  h += "} // namespace detail\n\n";
  h += dist_.functions;
  h += "} // namespace dist\n";
  for (auto &e : dist_.exports) h += "using dist::" + e + ";\n";
  h += "} // namespace " + ns + "\n#endif // ARRC_MPI\n";
  return h;
}

} // namespace arrc::cg
