// Scan: the runtime's single-pass scan (arrc::scan; GPU: decoupled
// look-back, CPU: chunk totals, their scan, each chunk again), the body
// fused in as arrc_load and the K outputs written by arrc_store.
#include "Generator.h"

namespace arrc::cg {

void Generator::scan(const Scan &x) {
  Element el = elementOf(kindsOf(x.outs));
  std::string id = fusedSource(
      "scan", where(x),
      hook("T arrc_load(long arrc_i ARRC_PARAMS)", {{x.index, "arrc_i"}}, x.body, returnElement(el)) +
          storeHook(el, x.outs.size()));
  h("// " + std::string(x.exclusive ? "exclusive " : "") + "scan" +
    (where(x).empty() ? "" : " (" + where(x) + ")") + ": runtime arrc::scan, body " + id);
  for (int o : x.outs) h(decl(o, false) + ";");
  host_->open("");
  h("const int64_t n = " + exp(x.n, false) + ";");
  for (int o : x.outs) h(name(o) + " = " + cppType(typeOf(o)) + "::alloc(ctx, {n});");
  host_->open("if (n > 0)");
  elemDecl(el);
  operatorDecl(x, x.op, x.ne, el);
  fusedDecl("in", id, freeOf({&x.body}, {}, {x.index}), x.outs);
  h("arrc::scan(ctx, et, op, n, in, nullptr, 0, " + std::string(x.exclusive ? "false" : "true") + ");");
  if (blockMayRaise(x.body)) h("detail::check(ctx);");
  host_->close();
  host_->close();
}

} // namespace arrc::cg
