// reduce_by_key's histogram plan (docs/lowering.md, "reduce_by_key's two
// plans"), shared by the top-level reduce_by_key (LowerIntrinsics.cpp) and
// the flattened one (LowerNested.cpp, its keys' segments as bins side by
// side). With integer keys and an operator that a histogram applies in any
// order, where every segment's bins over the keys' range [kmin, kmax]
// together are few, one histogram of counts and one of values over the bins
// `segment * (span + 1) + key - kmin`, then a filter of the bins that have
// elements: the keys come out ascending in each segment, each value
// `ne op (the key's values)`, as the sort plan gives them.
#include "Lower.h"

namespace arrc::lower {

namespace {
ir::Type L1() { return scalarT(ScalarKind::Long); }
ExpP lv(int v) { return varExp(v, L1()); }
} // namespace

bool Lowerer::groupsByHist(ScalarKind keyKind, const Lambda &op, const std::vector<ScalarKind> &vks) {
  if (keyKind != ScalarKind::Int && keyKind != ScalarKind::Long) return false;
  for (size_t k = 0; k < vks.size(); ++k) {
    const char *kind = nullptr;
    if (vks[k] == ScalarKind::Bool || !simpleComponent(op, vks.size(), k, kind)) return false;
  }
  return true;
}

std::vector<ExpP> Lowerer::groupByHist(const std::function<GroupCols()> &range, const std::function<GroupCols()> &cols,
                                       const ExpP &total, const ExpP &width, ScalarKind keyKind, const Lambda &op,
                                       const std::vector<ExpP> &ne, const std::vector<ScalarKind> &vks,
                                       const std::function<std::vector<ExpP>()> &sortPlan, const Span &at) {
  // the keys' range
  auto mm = std::make_shared<Reduce>();
  {
    GroupCols r = range();
    mm->n = r.n;
    mm->index = newVar("i", L1());
    mm->body = bodyBlock({mm->n}, {mm->index}, [&] {
      ExpP key = toLong(r.key(lv(mm->index)));
      return std::vector<ExpP>{key, key};
    });
  }
  int a0 = newVar("lo", L1()), a1 = newVar("hi", L1()), b0 = newVar("lo", L1()), b1 = newVar("hi", L1());
  mm->op.params = {a0, a1, b0, b1};
  mm->op.body.results = {callExp("min", {lv(a0), lv(b0)}, ScalarKind::Long),
                         callExp("max", {lv(a1), lv(b1)}, ScalarKind::Long)};
  mm->ne = {constLong(INT64_MAX), constLong(INT64_MIN)};
  mm->outs = {newVar("red", L1()), newVar("red", L1())};
  mm->note = "reduce_by_key: the keys' range";
  mm->span = at;
  emit(mm);
  ExpP kmin = bindScalar("kmin", lv(mm->outs[0]));
  // max - min wraps to a negative value where it does not fit a long
  ExpP span = bindScalar("span", binaryExp(BinOp::Sub, lv(mm->outs[1]), kmin));
  ExpP limit = callExp("min", {maxL(total, constLong(4096)), callExp("group_by_hist_bins", {}, ScalarKind::Long)},
                       ScalarKind::Long);
  auto plans = std::make_shared<If>();
  ExpP fits = binaryExp(BinOp::Lt, span, limit);
  // width * (span + 1) < limit, without the product overflowing
  if (width)
    fits = binaryExp(BinOp::And, fits, binaryExp(BinOp::Lt, width, binaryExp(BinOp::Div, limit, addL(span, constLong(1)))));
  plans->cond = binaryExp(BinOp::And, binaryExp(BinOp::Gt, total, constLong(0)),
                          binaryExp(BinOp::And, binaryExp(BinOp::Ge, span, constLong(0)), fits));
  plans->thenB = subBlock(false, [&] {
    GroupCols c = cols();
    ExpP w1 = bindScalar(width ? "w" : "bins", addL(span, constLong(1)));
    ExpP bins = width ? bindScalar("bins", mulL(width, w1)) : w1;
    auto hist = [&](const std::vector<ScalarKind> &hk, const Lambda &hop, const std::vector<ExpP> &hne, bool values) {
      auto h = std::make_shared<Hist>();
      h->bins = bins;
      h->n = c.n;
      h->index = newVar("i", L1());
      h->body = bodyBlock({h->n}, {h->index}, [&] {
        ExpP iv = lv(h->index);
        ExpP inRange = binaryExp(BinOp::Sub, toLong(c.key(iv)), kmin);
        std::vector<ExpP> r{width ? addL(mulL(toLong(c.seg(iv)), w1), inRange) : inRange};
        if (values) {
          auto vs = c.values(iv);
          r.insert(r.end(), vs.begin(), vs.end());
        } else {
          r.push_back(constInt(1));
        }
        return r;
      });
      h->op = hop;
      h->ne = hne;
      for (auto k : hk) h->outs.push_back(newVar("hist", arrayT(k, 1)));
      h->span = at;
      emit(h);
      return h->outs;
    };
    Lambda add;
    int x = newVar("x", scalarT(ScalarKind::Int)), y = newVar("y", scalarT(ScalarKind::Int));
    add.params = {x, y};
    add.body.results = {binaryExp(BinOp::Add, varExp(x, scalarT(ScalarKind::Int)), varExp(y, scalarT(ScalarKind::Int)))};
    auto counts = hist({ScalarKind::Int}, add, {constInt(0)}, false);
    // the operator with fresh parameters (the sort plan has it too)
    Lambda fop;
    std::map<int, ExpP> sub;
    for (int p : op.params) {
      int q = newVar("p", mod.vars[p].type);
      fop.params.push_back(q);
      sub[p] = varExp(q, mod.vars[p].type);
    }
    fop.body = cloneFresh(mod, op.body, sub);
    auto sums = hist(vks, fop, ne, true);
    auto f = std::make_shared<Filter>();
    f->n = bins;
    f->index = newVar("b", L1());
    ExpP bv = lv(f->index);
    f->body.results = {binaryExp(BinOp::Gt, readExp(varExp(mod, counts[0]), {bv}), constInt(0)),
                       convertExp(addL(kmin, width ? binaryExp(BinOp::Mod, bv, w1) : bv), keyKind)};
    if (width) f->body.results.push_back(convertExp(binaryExp(BinOp::Div, bv, w1), ScalarKind::Int));
    for (int o : sums) f->body.results.push_back(readExp(varExp(mod, o), {bv}));
    f->outs.push_back(newVar("rkey", arrayT(keyKind, 1)));
    if (width) f->outs.push_back(newVar("rkey", arrayT(ScalarKind::Int, 1)));
    for (auto k : vks) f->outs.push_back(newVar("vals", arrayT(k, 1)));
    f->span = at;
    emit(f);
    std::vector<ExpP> out;
    for (int o : f->outs) out.push_back(varExp(mod, o));
    return out;
  });
  plans->elseB = subBlock(false, sortPlan);
  std::vector<ExpP> r;
  for (auto &e : plans->thenB.results) {
    int o = newVar("rbk", e->type);
    plans->outs.push_back(o);
    r.push_back(varExp(mod, o));
  }
  plans->span = at;
  emit(plans);
  return r;
}

} // namespace arrc::lower
