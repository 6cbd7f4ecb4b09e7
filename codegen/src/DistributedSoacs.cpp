// One distributed lowering per SOAC (docs/distributed.md, "Lowering"). Each
// runs the single-device emitter on a rewritten copy of the statement over
// this rank's part of the index space [lo, lo + cnt): the copy's index i'
// counts from 0 and its blocks begin with `let i = lo + i'`, so the body
// computes with global indices; the arrays it reads are windows indexed
// globally (arrc::dist::window) or replicated copies. What completes it:
//   map                local; the result stays distributed
//   filter, expand     local; the result stays distributed, new partition
//   reduce             local, then every rank folds the ranks' partial
//                      results in rank order (MPI_Allgather)
//   scan               local reduce -> carry of the ranks before (as reduce),
//                      then the local scan with the carry folded into its
//                      first element
//   segmented scan     as scan, with the segmented operator (a carry stops
//                      at a segment start)
//   segmented reduce   flags and values, carry, local segmented scan, then
//                      the segment ends kept (a segment may cross ranks)
//   hist               local, then MPI_Reduce_scatter: the bins distributed
//   sort, sort_by      sample sort: local sort, splitters, MPI_Alltoallv,
//                      local sort of what arrived
//   scatter, for-each  replicated
#include "Distributed.h"

namespace arrc::cg {

namespace {


StmtP letOf(int var, ExpP value) {
  auto l = std::make_shared<Let>();
  l->outs = {var};
  l->value = std::move(value);
  return l;
}

size_t storageSize(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool: return 1;
  case ScalarKind::Int: case ScalarKind::Float: return 4;
  default: return 8;
  }
}

// The MPI reduction of a histogram component the runtime can recognise:
// result k is a_k + b_k, a_k * b_k, min or max.
std::string histOp(const ir::Lambda &op, size_t K, size_t k) {
  const char *kind = nullptr;
  if (!ir::simpleComponent(op, K, k, kind)) return "";
  std::string kd = kind;
  return kd == "Add" ? "sum" : kd == "Mul" ? "prod" : kd == "Min" ? "min" : "max";
}

} // namespace

// Whether a SOAC over these blocks runs distributed: when it reads a
// block-distributed array, or no array at all (a generator: its work grows
// with its index space); one that reads only replicated arrays runs on
// every rank, and its result is replicated.
bool DistEmitter::worthDistributing(const std::vector<const Block *> &blocks) const {
  return readsArrays(blocks, false) || !readsArrays(blocks, true);
}

bool DistEmitter::opReadsArrays(const ir::Lambda &op) const {
  std::set<int> u, d;
  usesLambda(op, u, d);
  for (int v : u)
    if (isArray(v) && !isGuard(v)) return true;
  return false;
}

// ------------------------------------------------------------------ index spaces

DistEmitter::Space DistEmitter::space(const ExpP &n, const std::vector<const Block *> &blocks, const Body &b,
                                      std::map<int, ExpP> &sub) {
  Reads r = readsOf(blocks, b);
  Space sp;
  sp.partName = "arrc_part" + std::to_string(soacCounter_++);
  sp.lo = newVar("lo", scalarT(ScalarKind::Long));
  sp.cnt = newVar("cnt", scalarT(ScalarKind::Long));
  // reads that cannot be bounded: the replicated copy (made where the array is defined)
  for (int a : r.whole) sub[a] = varExp(m_, rform(a));
  std::vector<std::pair<int, int>> windows;
  std::map<int, std::vector<ExpP>> rows;
  for (auto &[a, idx] : r.rows) {
    if (r.whole.count(a)) continue;
    int w = newVar(m_.vars.at(static_cast<size_t>(a)).name + "_w", typeOf(a));
    form_[w] = Form::R;
    sub[a] = varExp(m_, w);
    windows.push_back({a, w});
    rows[a] = idx;
  }
  ExpP nn = hostExp(n);
  ExpP factor = r.factor ? hostExp(r.factor) : nullptr;
  int anchor = r.anchor;
  std::string part = sp.partName;
  int lo = sp.lo, cnt = sp.cnt;
  sp.open = [this, nn, factor, anchor, part, lo, cnt, windows, rows, b] {
    std::string n = "int64_t(" + g().exp(nn, false) + ")";
    if (anchor >= 0)
      h("const auto " + part + " = arrc::dist::share(arrc::dist::follow(" + N(anchor) + ", " +
        (factor ? "int64_t(" + g().exp(factor, false) + ")" : std::string("int64_t(1)")) + ", " + n +
        ")); // the rows of " + N(anchor));
    else
      h("const auto " + part + " = arrc::dist::share(arrc::Partition::block(std::max<int64_t>(" + n +
        ", 0), cl.size()));");
    h(g().decl(lo, false) + " = " + part + "->lo(cl.rank());");
    h(g().decl(cnt, false) + " = " + part + "->count(cl.rank());");
    // the rows the body reads, as a function of a rank's indices arrc_I:
    // evaluated for every rank, so windows already held cost nothing
    for (auto &[a, w] : windows) {
      std::string need = "arrc::dist::Iv::none()";
      for (auto &e : rows.at(a)) {
        bool any = false;
        need = "arrc::dist::hull(" + need + ", " + iv(e, b, any, true) + ")";
      }
      h(g().decl(w, false) + " = arrc::dist::window(" + N(a) + ", *" + part +
        ", [&]([[maybe_unused]] const arrc::dist::Iv &arrc_I) { return " + need + "; });");
    }
  };
  return sp;
}

int DistEmitter::offsetIndex(int index, const Space &sp, const std::vector<Block *> &blocks) {
  int ip = newVar(m_.vars.at(static_cast<size_t>(index)).name + "_local", typeOf(index));
  for (Block *blk : blocks)
    blk->stmts.insert(blk->stmts.begin(),
                      letOf(index, binaryExp(BinOp::Add, varExp(m_, sp.lo), varExp(m_, ip))));
  return ip;
}

std::vector<ExpP> DistEmitter::inlineOp(const ir::Lambda &op, const std::vector<ExpP> &a, const std::vector<ExpP> &b,
                                        Block &into) {
  size_t K = op.params.size() / 2;
  std::map<int, ExpP> sub;
  for (size_t k = 0; k < K; ++k) {
    sub[op.params[k]] = a.at(k);
    sub[op.params[K + k]] = b.at(k);
  }
  Block c = cloneFresh(m_, op.body, sub);
  for (auto &s : c.stmts) into.stmts.push_back(s);
  return c.results;
}

// The segmented operator over (flag, value): (fa, a) + (fb, b) = (fa || fb, fb ? b : a op b).
ir::Lambda DistEmitter::liftedSegOp(const ir::Lambda &op) {
  size_t K = op.params.size() / 2;
  ir::Lambda L;
  int af = newVar("af", scalarT(ScalarKind::Bool)), bf = newVar("bf", scalarT(ScalarKind::Bool));
  std::vector<int> a, b;
  for (size_t k = 0; k < K; ++k) a.push_back(newVar("a", typeOf(op.params[k])));
  for (size_t k = 0; k < K; ++k) b.push_back(newVar("b", typeOf(op.params[K + k])));
  L.params.push_back(af);
  L.params.insert(L.params.end(), a.begin(), a.end());
  L.params.push_back(bf);
  L.params.insert(L.params.end(), b.begin(), b.end());
  std::vector<ExpP> ea, eb;
  for (size_t k = 0; k < K; ++k) {
    ea.push_back(varExp(m_, a[k]));
    eb.push_back(varExp(m_, b[k]));
  }
  std::vector<ExpP> o = inlineOp(op, ea, eb, L.body);
  L.body.results.push_back(binaryExp(BinOp::Or, varExp(m_, af), varExp(m_, bf)));
  for (size_t k = 0; k < K; ++k) L.body.results.push_back(selectExp(varExp(m_, bf), eb[k], o[k]));
  return L;
}

// Phase 2: the fold of every rank's partial results (see Distributed.h).
void DistEmitter::combine(const std::vector<int> &parts, const ir::Lambda &op, const Space &sp,
                          const std::vector<std::string> &acc, const std::string &have, bool onlyBefore) {
  size_t K = parts.size(), S = 0;
  std::vector<size_t> off;
  for (int p : parts) {
    off.push_back(S);
    S += storageSize(typeOf(p).elem);
  }
  g().host_->open("");
  h("unsigned char arrc_mine[" + std::to_string(S) + "];");
  for (size_t k = 0; k < K; ++k) {
    std::string st = cppStore(typeOf(parts[k]).elem);
    h("{ const " + st + " v = " + st + "(" + N(parts[k]) + "); std::memcpy(arrc_mine + " + std::to_string(off[k]) +
      ", &v, sizeof v); }");
  }
  h("const std::vector<unsigned char> arrc_all = arrc::dist::partials(cl, arrc_mine, " + std::to_string(S) +
    "); // MPI_Allgather");
  g().host_->open("for (int arrc_r = 0; arrc_r < " + std::string(onlyBefore ? "cl.rank()" : "cl.size()") +
                  "; ++arrc_r)");
  h("if (" + sp.partName + "->count(arrc_r) == 0) continue;");
  h("const unsigned char *arrc_p = arrc_all.data() + size_t(arrc_r) * " + std::to_string(S) + ";");
  auto member = [&](size_t k) {
    return "arrc::gen::member<" + std::string(cppScalar(typeOf(parts[k]).elem)) + ">(arrc_p, " +
           std::to_string(off[k]) + ")";
  };
  g().host_->open("if (!" + have + ")");
  for (size_t k = 0; k < K; ++k) h(acc[k] + " = " + member(k) + ";");
  h(have + " = true;");
  h("continue;");
  g().host_->close();
  for (size_t k = 0; k < K; ++k) {
    h(g().decl(op.params[k], false) + " = " + acc[k] + ";");
    h(g().decl(op.params[K + k], false) + " = " + member(k) + ";");
  }
  g().hostBlock(op.body);
  for (size_t k = 0; k < K; ++k) h(acc[k] + " = " + g().exp(op.body.results[k], false) + ";");
  g().host_->close();
  g().host_->close();
}

// ------------------------------------------------------------------ SOACs

void DistEmitter::map(const Map &x) {
  if (x.outs.empty() || blockWrites(x.body) || !worthDistributing({&x.body})) return replicated(x);
  Body b = bodyOf({&x.body}, x.index.at(0));
  for (size_t k = 1; k < x.index.size(); ++k) {
    b.loops[x.index[k]] = x.dims[k]; // the other axes: [0, dim - 1]
    b.defined.insert(x.index[k]);
  }
  std::map<int, ExpP> sub;
  Space sp = space(x.dims.at(0), {&x.body}, b, sub);
  auto c = std::static_pointer_cast<Map>(localClone(x, sub));
  c->index[0] = offsetIndex(x.index[0], sp, {&c->body});
  c->dims[0] = varExp(m_, sp.cnt);
  std::vector<int> outs = x.outs, locals;
  for (size_t k = 0; k < outs.size(); ++k) {
    locals.push_back(newVar(m_.vars.at(static_cast<size_t>(outs[k])).name + "_part", typeOf(outs[k])));
    c->outs[k] = locals.back();
  }
  for (int o : outs) setForm(o, Form::B);
  std::string what = where(x);
  emit([this, c, sp, outs, locals, what] {
    for (int o : outs) h(declAs(o) + ";");
    g().host_->open("");
    h("// distributed map" + (what.empty() ? "" : " (" + what + ")") + ": this rank's rows, then the result stays distributed");
    sp.open();
    g().hostStmt(*c);
    for (size_t k = 0; k < outs.size(); ++k)
      h(N(outs[k]) + " = arrc::dist::with_rows(cl, " + N(locals[k]) + ", " + sp.partName + ");");
    g().host_->close();
  });
}

void DistEmitter::filter(const Filter &x) {
  if (!worthDistributing({&x.body})) return replicated(x);
  Body b = bodyOf({&x.body}, x.index);
  std::map<int, ExpP> sub;
  Space sp = space(x.n, {&x.body}, b, sub);
  auto c = std::static_pointer_cast<Filter>(localClone(x, sub));
  c->index = offsetIndex(x.index, sp, {&c->body});
  c->n = varExp(m_, sp.cnt);
  std::vector<int> outs = x.outs, locals;
  for (size_t k = 0; k < outs.size(); ++k) {
    locals.push_back(newVar(m_.vars.at(static_cast<size_t>(outs[k])).name + "_part", typeOf(outs[k])));
    c->outs[k] = locals.back();
  }
  for (int o : outs) setForm(o, Form::B);
  std::string what = where(x);
  emit([this, c, sp, outs, locals, what] {
    for (int o : outs) h(declAs(o) + ";");
    g().host_->open("");
    h("// distributed filter" + (what.empty() ? "" : " (" + what + ")") +
      ": this rank's part; the kept elements stay distributed (partition from the counts)");
    sp.open();
    g().hostStmt(*c);
    h(N(outs[0]) + " = arrc::dist::from_local(cl, " + N(locals[0]) + ");");
    for (size_t k = 1; k < outs.size(); ++k)
      h(N(outs[k]) + " = arrc::dist::with_rows(cl, " + N(locals[k]) + ", " + N(outs[0]) + ".partition_ptr());");
    g().host_->close();
  });
}

void DistEmitter::reduce(const Reduce &x) {
  if (opReadsArrays(x.op)) return replicated(x);
  Body b = bodyOf({&x.body}, x.index);
  std::map<int, ExpP> sub;
  Space sp = space(x.n, {&x.body}, b, sub);
  auto c = std::static_pointer_cast<Reduce>(localClone(x, sub));
  c->index = offsetIndex(x.index, sp, {&c->body});
  c->n = varExp(m_, sp.cnt);
  std::vector<int> outs = x.outs, parts;
  for (size_t k = 0; k < outs.size(); ++k) {
    parts.push_back(newVar(m_.vars.at(static_cast<size_t>(outs[k])).name + "_part", typeOf(outs[k])));
    c->outs[k] = parts.back();
  }
  std::string what = where(x);
  const ir::Lambda *op = &x.op;
  emit([this, c, sp, outs, parts, what, op] {
    for (int o : outs) h(g().decl(o, false) + "{};");
    g().host_->open("");
    h("// distributed reduce" + (what.empty() ? "" : " (" + what + ")") +
      ": this rank's part, then the parts folded in rank order on every rank");
    sp.open();
    g().hostStmt(*c);
    std::vector<std::string> acc;
    for (int o : outs) acc.push_back(N(o));
    h("bool arrc_have = false;");
    combine(parts, *op, sp, acc, "arrc_have", false);
    g().host_->open("if (!arrc_have)"); // every part empty: the neutral element
    for (size_t k = 0; k < outs.size(); ++k) h(N(outs[k]) + " = " + N(parts[k]) + ";");
    g().host_->close();
    g().host_->close();
  });
}

// The carry of a scan: the fold of the parts of the ranks before this one.
// `lifted`: the segmented operator over (flag, values).
void DistEmitter::scan(const Scan &x) {
  if (opReadsArrays(x.op) || !worthDistributing({&x.body})) return replicated(x);
  Body b = bodyOf({&x.body}, x.index);
  std::map<int, ExpP> sub;
  Space sp = space(x.n, {&x.body}, b, sub);
  size_t K = x.outs.size();
  // 1) this rank's total
  auto rd = std::make_shared<Reduce>();
  rd->n = varExp(m_, sp.cnt);
  rd->body = cloneFresh(m_, x.body, sub);
  rd->index = offsetIndex(x.index, sp, {&rd->body});
  rd->op = x.op;
  for (auto &e : x.ne) rd->ne.push_back(hostExp(substitute(e, sub)));
  std::vector<int> parts, carry;
  for (size_t k = 0; k < K; ++k) {
    ir::Type t = scalarT(typeOf(x.outs[k]).elem);
    parts.push_back(newVar("part", t));
    carry.push_back(newVar("carry", t));
  }
  rd->outs = parts;
  int hc = newVar("has_carry", scalarT(ScalarKind::Bool));
  // 2) the scan with the carry folded into its first element
  auto c = std::static_pointer_cast<Scan>(localClone(x, sub));
  int ip = offsetIndex(x.index, sp, {&c->body});
  c->index = ip;
  c->n = varExp(m_, sp.cnt);
  std::vector<ExpP> vs, cs;
  for (size_t k = 0; k < K; ++k) {
    int v = newVar("v", scalarT(typeOf(x.outs[k]).elem));
    c->body.stmts.push_back(letOf(v, c->body.results[k]));
    vs.push_back(varExp(m_, v));
    cs.push_back(varExp(m_, carry[k]));
  }
  std::vector<ExpP> o = inlineOp(x.op, cs, vs, c->body);
  ExpP first = binaryExp(BinOp::And, varExp(m_, hc), binaryExp(BinOp::Eq, varExp(m_, ip), constLong(0)));
  for (size_t k = 0; k < K; ++k) c->body.results[k] = selectExp(first, o[k], vs[k]);
  std::vector<int> outs = x.outs, locals;
  for (size_t k = 0; k < K; ++k) {
    locals.push_back(newVar(m_.vars.at(static_cast<size_t>(outs[k])).name + "_part", typeOf(outs[k])));
    c->outs[k] = locals.back();
  }
  for (int o2 : outs) setForm(o2, Form::B);
  std::string what = where(x);
  const ir::Lambda *op = &x.op;
  bool exclusive = x.exclusive;
  std::set<int> u;
  stmtUses(*rd, u);
  used_.insert(u.begin(), u.end());
  emit([this, rd, c, sp, outs, locals, parts, carry, hc, what, op, exclusive] {
    for (int o2 : outs) h(declAs(o2) + ";");
    g().host_->open("");
    h("// distributed scan" + (what.empty() ? "" : " (" + what + ")") +
      ": this rank's total, the carry of the ranks before, the local scan from the carry");
    sp.open();
    g().hostStmt(*rd);
    for (int cv : carry) h(g().decl(cv, false) + "{};");
    h(g().decl(hc, false) + " = false;");
    std::vector<std::string> acc;
    for (int cv : carry) acc.push_back(N(cv));
    combine(parts, *op, sp, acc, N(hc), true);
    g().hostStmt(*c);
    if (exclusive)
      for (size_t k = 0; k < outs.size(); ++k)
        h("if (" + N(hc) + ") arrc::dist::set_first(ctx, " + N(locals[k]) + ", " + N(carry[k]) + ");");
    for (size_t k = 0; k < outs.size(); ++k)
      h(N(outs[k]) + " = arrc::dist::with_rows(cl, " + N(locals[k]) + ", " + sp.partName + ");");
    g().host_->close();
  });
}

void DistEmitter::segScan(const SegScan &x) {
  if (opReadsArrays(x.op) || !worthDistributing({&x.body})) return replicated(x);
  Body b = bodyOf({&x.body}, x.index);
  std::map<int, ExpP> sub;
  Space sp = space(x.n, {&x.body}, b, sub);
  size_t K = x.outs.size();
  ir::Lambda lifted = liftedSegOp(x.op);
  // 1) this rank's (any flag, fold since its last segment start)
  auto rd = std::make_shared<Reduce>();
  rd->n = varExp(m_, sp.cnt);
  rd->body = cloneFresh(m_, x.body, sub);
  rd->index = offsetIndex(x.index, sp, {&rd->body});
  rd->op = lifted;
  rd->ne.push_back(constBool(false));
  for (auto &e : x.ne) rd->ne.push_back(hostExp(substitute(e, sub)));
  std::vector<int> parts{newVar("part_flag", scalarT(ScalarKind::Bool))},
      carry{newVar("carry_flag", scalarT(ScalarKind::Bool))};
  for (size_t k = 0; k < K; ++k) {
    ir::Type t = scalarT(typeOf(x.outs[k]).elem);
    parts.push_back(newVar("part", t));
    carry.push_back(newVar("carry", t));
  }
  rd->outs = parts;
  int hc = newVar("has_carry", scalarT(ScalarKind::Bool));
  // 2) the local segmented scan: an element 0 that starts no segment takes the carry
  auto c = std::static_pointer_cast<SegScan>(localClone(x, sub));
  int ip = offsetIndex(x.index, sp, {&c->body});
  c->index = ip;
  c->n = varExp(m_, sp.cnt);
  int fl = newVar("flag", scalarT(ScalarKind::Bool));
  c->body.stmts.push_back(letOf(fl, c->body.results[0]));
  std::vector<ExpP> vs, cs;
  for (size_t k = 0; k < K; ++k) {
    int v = newVar("v", scalarT(typeOf(x.outs[k]).elem));
    c->body.stmts.push_back(letOf(v, c->body.results[k + 1]));
    vs.push_back(varExp(m_, v));
    cs.push_back(varExp(m_, carry[k + 1]));
  }
  std::vector<ExpP> o = inlineOp(x.op, cs, vs, c->body);
  ExpP first = binaryExp(BinOp::And, varExp(m_, hc),
                         binaryExp(BinOp::And, binaryExp(BinOp::Eq, varExp(m_, ip), constLong(0)),
                                   unaryExp(UnOp::Not, varExp(m_, fl))));
  c->body.results[0] = varExp(m_, fl);
  for (size_t k = 0; k < K; ++k) c->body.results[k + 1] = selectExp(first, o[k], vs[k]);
  std::vector<int> outs = x.outs, locals;
  for (size_t k = 0; k < K; ++k) {
    locals.push_back(newVar(m_.vars.at(static_cast<size_t>(outs[k])).name + "_part", typeOf(outs[k])));
    c->outs[k] = locals.back();
  }
  for (int o2 : outs) setForm(o2, Form::B);
  std::string what = where(x);
  auto lop = std::make_shared<ir::Lambda>(lifted);
  std::set<int> u;
  stmtUses(*rd, u);
  used_.insert(u.begin(), u.end());
  emit([this, rd, c, sp, outs, locals, parts, carry, hc, what, lop] {
    for (int o2 : outs) h(declAs(o2) + ";");
    g().host_->open("");
    h("// distributed segmented scan" + (what.empty() ? "" : " (" + what + ")") +
      ": this rank's (flag, total), the carry of the ranks before, the local scan from the carry");
    sp.open();
    g().hostStmt(*rd);
    for (int cv : carry) h(g().decl(cv, false) + "{};");
    h(g().decl(hc, false) + " = false;");
    std::vector<std::string> acc;
    for (int cv : carry) acc.push_back(N(cv));
    combine(parts, *lop, sp, acc, N(hc), true);
    g().hostStmt(*c);
    for (size_t k = 0; k < outs.size(); ++k)
      h(N(outs[k]) + " = arrc::dist::with_rows(cl, " + N(locals[k]) + ", " + sp.partName + ");");
    g().host_->close();
  });
}

void DistEmitter::segReduce(const SegReduce &x) {
  if (opReadsArrays(x.op) || !worthDistributing({&x.body})) return replicated(x);
  Body b = bodyOf({&x.body}, x.index);
  std::map<int, ExpP> sub;
  Space sp = space(x.n, {&x.body}, b, sub);
  size_t K = x.outs.size();
  ir::Lambda lifted = liftedSegOp(x.op);
  auto cnt = [&] { return varExp(m_, sp.cnt); };
  auto read = [&](int arr, ExpP i) { return readExp(varExp(m_, arr), {std::move(i)}); };
  // 1) the flags and values of this rank's part
  auto mp = std::make_shared<Map>();
  mp->body = cloneFresh(m_, x.body, sub);
  mp->index = {offsetIndex(x.index, sp, {&mp->body})};
  mp->dims = {cnt()};
  int F = newVar("flags", arrayT(ScalarKind::Bool, 1));
  std::vector<int> V;
  mp->outs = {F};
  for (size_t k = 0; k < K; ++k) {
    V.push_back(newVar("vals", arrayT(typeOf(x.outs[k]).elem, 1)));
    mp->outs.push_back(V.back());
  }
  // 2) this rank's (any flag, fold since its last segment start)
  auto rd = std::make_shared<Reduce>();
  rd->n = cnt();
  rd->index = newVar("j", scalarT(ScalarKind::Long));
  rd->body.results.push_back(read(F, varExp(m_, rd->index)));
  for (int v : V) rd->body.results.push_back(read(v, varExp(m_, rd->index)));
  rd->op = lifted;
  rd->ne.push_back(constBool(false));
  for (auto &e : x.ne) rd->ne.push_back(hostExp(substitute(e, sub)));
  std::vector<int> parts{newVar("part_flag", scalarT(ScalarKind::Bool))},
      carry{newVar("carry_flag", scalarT(ScalarKind::Bool))};
  std::vector<int> S, O;
  for (size_t k = 0; k < K; ++k) {
    ir::Type t = scalarT(typeOf(x.outs[k]).elem);
    parts.push_back(newVar("part", t));
    carry.push_back(newVar("carry", t));
    S.push_back(newVar("scanned", arrayT(t.elem, 1)));
    O.push_back(newVar(m_.vars.at(static_cast<size_t>(x.outs[k])).name + "_part", typeOf(x.outs[k])));
  }
  rd->outs = parts;
  int hc = newVar("has_carry", scalarT(ScalarKind::Bool));
  int nf = newVar("next_flag", scalarT(ScalarKind::Bool));
  // 3) the segmented scan of the part, element 0 from the carry unless it starts a segment
  auto ss = std::make_shared<SegScan>();
  ss->n = cnt();
  ss->index = newVar("j", scalarT(ScalarKind::Long));
  ss->op = x.op;
  ss->ne = rd->ne;
  ss->ne.erase(ss->ne.begin());
  {
    int fl = newVar("flag", scalarT(ScalarKind::Bool));
    ss->body.stmts.push_back(letOf(fl, read(F, varExp(m_, ss->index))));
    std::vector<ExpP> vs, cs;
    for (size_t k = 0; k < K; ++k) {
      int v = newVar("v", scalarT(typeOf(x.outs[k]).elem));
      ss->body.stmts.push_back(letOf(v, read(V[k], varExp(m_, ss->index))));
      vs.push_back(varExp(m_, v));
      cs.push_back(varExp(m_, carry[k + 1]));
    }
    std::vector<ExpP> o = inlineOp(x.op, cs, vs, ss->body);
    ExpP first = binaryExp(BinOp::And, varExp(m_, hc),
                           binaryExp(BinOp::And, binaryExp(BinOp::Eq, varExp(m_, ss->index), constLong(0)),
                                     unaryExp(UnOp::Not, varExp(m_, fl))));
    ss->body.results.push_back(varExp(m_, fl));
    for (size_t k = 0; k < K; ++k) ss->body.results.push_back(selectExp(first, o[k], vs[k]));
  }
  ss->outs = S;
  // 4) the ends of segments: before a flag, and the last element of all
  auto fi = std::make_shared<Filter>();
  fi->n = cnt();
  fi->index = newVar("j", scalarT(ScalarKind::Long));
  {
    ExpP j = varExp(m_, fi->index);
    int j1 = newVar("next", scalarT(ScalarKind::Long)), jk = newVar("at", scalarT(ScalarKind::Long)),
        fn = newVar("flag_next", scalarT(ScalarKind::Bool));
    fi->body.stmts.push_back(letOf(j1, binaryExp(BinOp::Add, j, constLong(1))));
    ExpP inside = binaryExp(BinOp::Lt, varExp(m_, j1), cnt());
    fi->body.stmts.push_back(letOf(jk, selectExp(inside, varExp(m_, j1), j)));
    fi->body.stmts.push_back(letOf(fn, read(F, varExp(m_, jk))));
    fi->body.results.push_back(selectExp(inside, varExp(m_, fn), varExp(m_, nf)));
    for (int s : S) fi->body.results.push_back(read(s, j));
  }
  fi->outs = O;
  for (auto *s : std::vector<const Stmt *>{mp.get(), rd.get(), ss.get(), fi.get()}) {
    std::set<int> u;
    stmtUses(*s, u);
    used_.insert(u.begin(), u.end());
  }
  std::vector<int> outs = x.outs;
  for (int o2 : outs) setForm(o2, Form::B);
  std::string what = where(x);
  auto lop = std::make_shared<ir::Lambda>(lifted);
  emit([this, mp, rd, ss, fi, sp, outs, O, F, parts, carry, hc, nf, what, lop] {
    for (int o2 : outs) h(declAs(o2) + ";");
    g().host_->open("");
    h("// distributed segmented reduce" + (what.empty() ? "" : " (" + what + ")") +
      ": flags and values of this rank's part, the carry of the ranks before, a local segmented\n" +
      std::string(g().host_->ind * 2, ' ') + "// scan, then the segment ends (segments may cross ranks)");
    sp.open();
    g().hostStmt(*mp);
    g().hostStmt(*rd);
    for (int cv : carry) h(g().decl(cv, false) + "{};");
    h(g().decl(hc, false) + " = false;");
    std::vector<std::string> acc;
    for (int cv : carry) acc.push_back(N(cv));
    combine(parts, *lop, sp, acc, N(hc), true);
    // the flag of the first element after this rank's part: where its last segment ends
    h("const std::vector<int64_t> arrc_first = cl.allgather(int64_t(arrc::dist::first_or<bool>(ctx, " + N(F) +
      ", true)));");
    h(g().decl(nf, false) + " = true;");
    g().host_->open("for (int arrc_r = cl.rank() + 1; arrc_r < cl.size(); ++arrc_r)");
    g().host_->open("if (" + sp.partName + "->count(arrc_r) > 0)");
    h(N(nf) + " = arrc_first[size_t(arrc_r)] != 0;");
    h("break;");
    g().host_->close();
    g().host_->close();
    g().hostStmt(*ss);
    g().hostStmt(*fi);
    h(N(outs[0]) + " = arrc::dist::from_local(cl, " + N(O[0]) + ");");
    for (size_t k = 1; k < outs.size(); ++k)
      h(N(outs[k]) + " = arrc::dist::with_rows(cl, " + N(O[k]) + ", " + N(outs[0]) + ".partition_ptr());");
    g().host_->close();
  });
}

// The histograms of x (a Hist or a MultiHist) distributed: each rank fills
// all the bins from its part of the elements, then one MPI_Reduce_scatter
// per output (the bins distributed).
template <class S>
void DistEmitter::reduceScatterHists(const S &x, const std::vector<std::string> &ops, const std::string &label) {
  Body b = bodyOf({&x.body}, x.index);
  std::map<int, ExpP> sub;
  Space sp = space(x.n, {&x.body}, b, sub);
  auto c = std::static_pointer_cast<S>(localClone(x, sub));
  c->index = offsetIndex(x.index, sp, {&c->body});
  c->n = varExp(m_, sp.cnt);
  std::vector<int> outs = x.outs, locals;
  for (size_t k = 0; k < outs.size(); ++k) {
    locals.push_back(newVar(m_.vars.at(static_cast<size_t>(outs[k])).name + "_part", typeOf(outs[k])));
    c->outs[k] = locals.back();
  }
  for (int o : outs) setForm(o, Form::B);
  std::string what = where(x);
  emit([this, c, sp, outs, locals, ops, what, label] {
    for (int o : outs) h(declAs(o) + ";");
    g().host_->open("");
    h("// distributed " + label + (what.empty() ? "" : " (" + what + ")") +
      ": this rank's part into all bins, then MPI_Reduce_scatter (the bins distributed)");
    sp.open();
    g().hostStmt(*c);
    for (size_t k = 0; k < outs.size(); ++k)
      h(N(outs[k]) + " = arrc::dist::reduce_scatter(cl, " + N(locals[k]) + ", arrc::dist::Op::" + ops[k] + ");");
    g().host_->close();
  });
}

void DistEmitter::hist(const Hist &x) {
  size_t K = x.outs.size();
  std::vector<std::string> ops;
  bool ok = Generator::neutralIsIdentity(x.op, x.ne) && !opReadsArrays(x.op);
  for (size_t k = 0; k < K && ok; ++k) {
    ScalarKind e = typeOf(x.outs[k]).elem;
    ops.push_back(histOp(x.op, K, k));
    if (ops.back().empty() || e == ScalarKind::Bool) ok = false;
  }
  if (!ok) return replicated(x);
  reduceScatterHists(x, ops, "histogram");
}

void DistEmitter::multiHist(const MultiHist &x) {
  std::vector<std::string> ops;
  bool ok = true;
  for (size_t k = 0; k < x.outs.size() && ok; ++k) {
    ops.push_back(histOp(x.ops[k], 1, 0));
    if (ops.back().empty() || opReadsArrays(x.ops[k]) || typeOf(x.outs[k]).elem == ScalarKind::Bool) ok = false;
  }
  if (!ok) return replicated(x);
  reduceScatterHists(x, ops, "histograms in one pass");
}

void DistEmitter::expand(const Expand &x) {
  std::vector<const Block *> blocks{&x.size, &x.body};
  if (x.into == Expand::Reduce ? opReadsArrays(x.op) : !worthDistributing(blocks)) return replicated(x);
  Body b = bodyOf(blocks, x.index, x.inner, x.size.results.empty() ? nullptr : x.size.results[0]);
  std::map<int, ExpP> sub;
  Space sp = space(x.n, blocks, b, sub);
  auto c = std::static_pointer_cast<Expand>(localClone(x, sub));
  c->index = offsetIndex(x.index, sp, {&c->size, &c->body});
  c->n = varExp(m_, sp.cnt);
  std::vector<int> outs = x.outs, locals;
  for (size_t k = 0; k < outs.size(); ++k) {
    locals.push_back(newVar(m_.vars.at(static_cast<size_t>(outs[k])).name + "_part", typeOf(outs[k])));
    c->outs[k] = locals.back();
  }
  std::string what = where(x);
  if (x.into == Expand::Reduce) {
    const ir::Lambda *op = &x.op;
    emit([this, c, sp, outs, locals, what, op] {
      for (int o : outs) h(g().decl(o, false) + "{};");
      g().host_->open("");
      h("// distributed expand into reduce" + (what.empty() ? "" : " (" + what + ")") +
        ": this rank's sources, then the parts folded in rank order");
      sp.open();
      g().hostStmt(*c);
      std::vector<std::string> acc;
      for (int o : outs) acc.push_back(N(o));
      h("bool arrc_have = false;");
      combine(locals, *op, sp, acc, "arrc_have", false);
      g().host_->open("if (!arrc_have)");
      for (size_t k = 0; k < outs.size(); ++k) h(N(outs[k]) + " = " + N(locals[k]) + ";");
      g().host_->close();
      g().host_->close();
    });
    return;
  }
  for (int o : outs) setForm(o, Form::B);
  emit([this, c, sp, outs, locals, what] {
    for (int o : outs) h(declAs(o) + ";");
    g().host_->open("");
    h("// distributed expand" + (what.empty() ? "" : " (" + what + ")") +
      ": this rank's sources; the expanded elements stay distributed");
    sp.open();
    g().hostStmt(*c);
    h(N(outs[0]) + " = arrc::dist::from_local(cl, " + N(locals[0]) + ");");
    for (size_t k = 1; k < outs.size(); ++k)
      h(N(outs[k]) + " = arrc::dist::with_rows(cl, " + N(locals[k]) + ", " + N(outs[0]) + ".partition_ptr());");
    g().host_->close();
  });
}

// Sample sort (arrc::dist::sort_exchange): stable like the single-device sort.
void DistEmitter::sort(const Sort &x) {
  if (x.keys->kind != Exp::Var || formOf(x.keys->var) != Form::B) return replicated(x);
  int keys = x.keys->var;
  std::vector<int> vals;
  for (auto &v : x.values) {
    if (v->kind != Exp::Var) return replicated(x);
    vals.push_back(v->var);
  }
  // this rank's rows of keys and values, sorted; exchanged; sorted again
  int kl = newVar(m_.vars.at(static_cast<size_t>(keys)).name + "_rows", typeOf(keys));
  std::vector<int> vl, s1, s2;
  for (int v : vals) vl.push_back(newVar(m_.vars.at(static_cast<size_t>(v)).name + "_rows", typeOf(v)));
  std::vector<int> res; // the second sort's outputs, or the first's when nothing moved
  for (int o : x.outs) {
    s1.push_back(newVar(m_.vars.at(static_cast<size_t>(o)).name + "_run", typeOf(o)));
    s2.push_back(newVar(m_.vars.at(static_cast<size_t>(o)).name + "_sorted", typeOf(o)));
    res.push_back(newVar(m_.vars.at(static_cast<size_t>(o)).name + "_part", typeOf(o)));
  }
  auto first = std::make_shared<Sort>(x);
  first->keys = varExp(m_, kl);
  first->values.clear();
  for (int v : vl) first->values.push_back(varExp(m_, v));
  first->outs = s1;
  auto second = std::make_shared<Sort>(x);
  second->keys = varExp(m_, s1[0]);
  second->values.clear();
  for (size_t k = 1; k < s1.size(); ++k) second->values.push_back(varExp(m_, s1[k]));
  second->outs = s2;
  std::vector<int> outs = x.outs;
  for (int o : outs) setForm(o, Form::B);
  std::string what = where(x);
  emit([this, keys, vals, kl, vl, s1, s2, res, first, second, outs, what] {
    for (int o : outs) h(declAs(o) + ";");
    g().host_->open("");
    h("// distributed stable sort" + (what.empty() ? "" : " (" + what + ")") +
      ": local sort, splitters from samples, MPI_Alltoallv of the buckets, local sort");
    h("const auto arrc_keys = " + N(keys) + ".blocked();");
    h(g().decl(kl, false) + " = arrc_keys.local();");
    for (size_t k = 0; k < vals.size(); ++k) {
      std::string src = formOf(vals[k]) == Form::B ? N(vals[k])
                                                   : distType(vals[k]) + "::replicated(cl, " + N(vals[k]) + ")";
      h(g().decl(vl[k], false) + " = arrc::dist::rows(" + src + ", arrc_keys.partition());");
    }
    g().hostStmt(*first);
    std::string args;
    for (int s : s1) args += ", " + N(s);
    for (int r : res) h(g().decl(r, false) + ";");
    g().host_->open("if (arrc::dist::sort_exchange(cl" + args + "))");
    g().hostStmt(*second);
    for (size_t k = 0; k < res.size(); ++k) h(N(res[k]) + " = " + N(s2[k]) + ";");
    g().host_->close();
    g().host_->open("else"); // one rank: the local sort is the sort
    for (size_t k = 0; k < res.size(); ++k) h(N(res[k]) + " = " + N(s1[k]) + ";");
    g().host_->close();
    h(N(outs[0]) + " = arrc::dist::from_local(cl, " + N(res[0]) + ");");
    for (size_t k = 1; k < outs.size(); ++k)
      h(N(outs[k]) + " = arrc::dist::with_rows(cl, " + N(res[k]) + ", " + N(outs[0]) + ".partition_ptr());");
    g().host_->close();
  });
}

} // namespace arrc::cg
