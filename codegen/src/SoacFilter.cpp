// Filter (body results: keep, then the K components): the runtime's stable
// compaction (arrc::compact; GPU: one pass with decoupled look-back, CPU:
// counts per chunk, offsets, writes), the body fused in as arrc_load and
// arrc_keep, kept elements written by arrc_store into arrays of the input's
// length, then cut to the count (gen::first).
#include "Generator.h"

namespace arrc::cg {

void Generator::filter(const Filter &x) {
  Element el = elementOf(kindsOf(x.outs));
  std::string id = fusedSource(
      "filter", where(x),
      hook("T arrc_load(long arrc_i ARRC_PARAMS)", {{x.index, "arrc_i"}}, x.body, returnElement(el, 1)) +
          hook("int arrc_keep(long arrc_i, T arrc_v ARRC_PARAMS)", {{x.index, "arrc_i"}}, x.body,
               returnResult(0, "int")) +
          storeHook(el, x.outs.size()));
  h("// filter" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": runtime arrc::compact, body " + id);
  for (int o : x.outs) h(decl(o, false) + ";");
  host_->open("");
  h("const int64_t n = " + exp(x.n, false) + ";");
  for (int o : x.outs) h(name(o) + " = " + cppType(typeOf(o)) + "::alloc(ctx, {n});");
  elemDecl(el);
  fusedDecl("in", id, freeOf({&x.body}, {}, {x.index}), x.outs);
  h("const int64_t count = arrc::compact(ctx, et, n, in, nullptr, 0);");
  if (blockMayRaise(x.body)) h("detail::check(ctx);");
  for (int o : x.outs) h(name(o) + " = arrc::gen::first(" + name(o) + ", count);");
  host_->close();
}

} // namespace arrc::cg
