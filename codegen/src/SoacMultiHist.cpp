// MultiHist (a Map and the Hists that read it, in one pass; IR.h): the
// runtime's arrc::histogram_items, the body fused in as the hook arrc_item,
// whose HistAdds call ARRC_HIST_ADD(h, bin, value); one arrc::HistogramOut
// per histogram, its operator recognised as Hist's are (+, *, min, max with
// their identities, updated atomically on GPUs).
#include "Generator.h"

namespace arrc::cg {

// Row staging (as SoacMap's, GPUs): the runtime hands a work-group's
// consecutive items a local buffer; arrc_stage copies the rows of the staged
// matrices for items [first, first + count) into it (all work-items
// together), and arrc_item's reads of those rows come from there. The
// matrices lie one after the other in the buffer, cap rows each.
static const char *kStagedMacro =
    "#ifndef ARRC_STAGED\n#if defined(ARRC_CPU) && !defined(ARRC_CPU_STAGING)\n"
    "#define ARRC_STAGED(in, staged, global) (global)\n#else\n"
    "#define ARRC_STAGED(in, staged, global) ((in) ? (staged) : (global))\n#endif\n#endif\n";

std::vector<std::string> Generator::stagePrologue(const std::vector<int> &staged) {
  std::vector<std::string> p = {"#ifdef ARRC_ITEM_STAGING", "const long stg_base = arrc_stg_first;",
                                "__local uchar *arrc_stg_at = arrc_stg;"};
  for (int a : staged) {
    std::string n = name(a), t = clStore(typeOf(a).elem);
    p.push_back("const long stg_pitch_" + n + " = " + n + "_n1 | 1;");
    p.push_back("const long stg_rows_" + n + " = clamp(min(" + n + "_n0 - stg_base, arrc_stg_count), 0L, arrc_stg_cap);");
    p.push_back("__local " + t + " *stg_" + n + " = (__local " + t + " *)arrc_stg_at;");
    p.push_back("arrc_stg_at += arrc_stg_cap * stg_pitch_" + n + " * sizeof(" + t + ");");
  }
  p.push_back("#else");
  p.push_back("const long stg_base = 0;");
  for (int a : staged) {
    std::string n = name(a), t = clStore(typeOf(a).elem);
    p.push_back("const long stg_pitch_" + n + " = 0, stg_rows_" + n + " = 0;");
    p.push_back("__local " + t + " *stg_" + n + " = 0;");
  }
  p.push_back("#endif");
  return p;
}

void Generator::multiHist(const MultiHist &x) {
  std::set<int> fv = freeOf({&x.body}, {}, {x.index});
  std::vector<int> staged = distributed_ ? std::vector<int>{} : stagedRows(x.body, x.index, fv, true);
  // wider elements first: each matrix's block stays aligned
  std::stable_sort(staged.begin(), staged.end(),
                   [this](int a, int b) { return typeOf(a).elem == ScalarKind::Double && typeOf(b).elem != ScalarKind::Double; });
  std::string text;
  std::vector<std::string> prologue;
  if (!staged.empty()) {
    prologue = stagePrologue(staged);
    Code k;
    k.open("void arrc_stage(long arrc_stg_first, long arrc_stg_count, long arrc_stg_cap, __local uchar *arrc_stg ARRC_PARAMS)");
    k.line("#ifdef ARRC_ITEM_STAGING");
    for (size_t j = 1; j < prologue.size() && prologue[j] != "#else"; ++j) k.line(prologue[j]);
    for (int a : staged) stageCopy(k, name(a), clStore(typeOf(a).elem), "(int)get_local_id(0)", "(int)get_local_size(0)");
    k.line("#endif");
    k.close();
    text = std::string(kStagedMacro) + k.s;
    staged_.insert(staged.begin(), staged.end());
  }
  text += hook("void arrc_item(long arrc_i ARRC_ITEM_STAGE ARRC_HISTS ARRC_PARAMS)", {{x.index, "arrc_i"}}, x.body,
               [](Code &, const std::vector<std::string> &) {}, prologue);
  staged_.clear();
  std::string id = fusedSource("multihist", where(x), text);
  h("// " + std::to_string(x.outs.size()) + " histograms in one pass" +
    (where(x).empty() ? "" : " (" + where(x) + ")") + ": runtime arrc::histogram_items, body " + id +
    (staged.empty() ? "" : " (rows staged in local memory on GPUs)"));
  for (int o : x.outs) h(decl(o, false) + ";");
  host_->open("");
  h("const int64_t n = " + exp(x.n, false) + ";");
  h("std::vector<arrc::HistogramOut> hists;");
  for (size_t k = 0; k < x.outs.size(); ++k) {
    std::string K = std::to_string(k), o = name(x.outs[k]);
    h("const int64_t bins" + K + " = std::max<int64_t>(0, " + exp(x.bins[k], false) + ");");
    h(o + " = " + cppType(typeOf(x.outs[k])) + "::alloc(ctx, {bins" + K + "});");
    Element el = elementOf({typeOf(x.outs[k]).elem});
    elemDecl(el, "et" + K);
    if (!operatorDecl(x, x.ops[k], {x.ne[k]}, el, "op" + K) || !neutralIsIdentity(x.ops[k], {x.ne[k]}))
      fail("multihist: histogram " + K + " has an operator the runtime cannot update atomically");
    h("hists.push_back({et" + K + ", op" + K + ", bins" + K + ", " + o + ".buffer(), 0});");
  }
  fusedDecl("in", id, fv);
  // bytes of staged rows per item (0: no staging), as SoacMap decides
  std::vector<std::string> conds = {"arrc::gen::stage_rows(ctx)"}, bytes;
  for (int a : staged) {
    conds.push_back(name(a) + ".weight(1) == 1");
    bytes.push_back("size_t(" + name(a) + ".shape(1) | 1) * sizeof(" + cppStore(typeOf(a).elem) + ")");
  }
  if (staged.empty()) h("arrc::histogram_items(ctx, hists, n, in);");
  else h("arrc::histogram_items(ctx, hists, n, in, " + join(conds, " && ") + " ? " + join(bytes, " + ") + " : 0);");
  if (blockMayRaise(x.body)) h("detail::check(ctx);");
  host_->close();
}

} // namespace arrc::cg
