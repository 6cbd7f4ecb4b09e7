// MultiHist (a Map and the Hists that read it, in one pass; IR.h): the
// runtime's arrc::histogram_items, the body fused in as the hook arrc_item,
// whose HistAdds call ARRC_HIST_ADD(h, bin, value); one arrc::HistogramOut
// per histogram, its operator recognised as Hist's are (+, *, min, max with
// their identities, updated atomically on GPUs).
#include "Generator.h"

namespace arrc::cg {

void Generator::multiHist(const MultiHist &x) {
  std::string id = fusedSource("multihist", where(x),
                               hook("void arrc_item(long arrc_i ARRC_HISTS ARRC_PARAMS)", {{x.index, "arrc_i"}},
                                    x.body, [](Code &, const std::vector<std::string> &) {}));
  h("// " + std::to_string(x.outs.size()) + " histograms in one pass" +
    (where(x).empty() ? "" : " (" + where(x) + ")") + ": runtime arrc::histogram_items, body " + id);
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
  fusedDecl("in", id, freeOf({&x.body}, {}, {x.index}));
  h("arrc::histogram_items(ctx, hists, n, in);");
  if (blockMayRaise(x.body)) h("detail::check(ctx);");
  host_->close();
}

} // namespace arrc::cg
