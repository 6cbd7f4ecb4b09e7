// Scatter (body results: the index, then the K values): copies of the
// destinations, then the runtime's arrc::scatter with the body fused in as
// arrc_index and arrc_load, values written by arrc_store (out-of-range
// indices ignored).
#include "Generator.h"

namespace arrc::cg {

void Generator::scatter(const Scatter &x) {
  Element el = elementOf(kindsOf(x.outs));
  std::string id = fusedSource(
      "scatter", where(x),
      hook("long arrc_index(long arrc_i ARRC_PARAMS)", {{x.index, "arrc_i"}}, x.body,
               returnResult(0, "long")) +
          hook("T arrc_load(long arrc_i ARRC_PARAMS)", {{x.index, "arrc_i"}}, x.body, returnElement(el, 1)) +
          storeHook(el, x.outs.size()));
  h("// scatter" + (where(x).empty() ? "" : " (" + where(x) + ")") +
    ": copies of the destinations, then runtime arrc::scatter, body " + id);
  for (size_t i = 0; i < x.outs.size(); ++i) {
    if (x.dests.at(i)->kind != Exp::Var) fail("scatter destination is not a variable");
    h(decl(x.outs[i], false) + " = " + name(x.dests[i]->var) + ".clone();");
  }
  host_->open("");
  h("const int64_t n = " + exp(x.n, false) + ";");
  elemDecl(el);
  fusedDecl("in", id, freeOf({&x.body}, {}, {x.index}), x.outs);
  h("arrc::scatter(ctx, et, n, in, nullptr, 0, " + name(x.outs.at(0)) + ".shape(0));");
  if (blockMayRaise(x.body)) h("detail::check(ctx);");
  host_->close();
}

} // namespace arrc::cg
