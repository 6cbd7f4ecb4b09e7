// Segmented scan and segmented reduce (body results: the flag that starts
// a segment, then the K components): the runtime's arrc::segmented_scan /
// arrc::segmented_reduce, the body fused in as arrc_load and arrc_flag, the
// outputs written by arrc_store.
#include "Generator.h"

namespace arrc::cg {

std::string Generator::segmentedSource(const std::string &what, const Stmt &s, int index,
                                       const Block &body, const Element &el, size_t outs) {
  return fusedSource(
      what, where(s),
      hook("T arrc_load(long arrc_i ARRC_PARAMS)", {{index, "arrc_i"}}, body, returnElement(el, 1)) +
          hook("int arrc_flag(long arrc_i ARRC_PARAMS)", {{index, "arrc_i"}}, body, returnResult(0, "int")) +
          storeHook(el, outs));
}

void Generator::segScan(const SegScan &x) {
  Element el = elementOf(kindsOf(x.outs));
  std::string id = segmentedSource("segscan", x, x.index, x.body, el, x.outs.size());
  h("// segmented scan" + (where(x).empty() ? "" : " (" + where(x) + ")") +
    ": runtime arrc::segmented_scan, body " + id);
  for (int o : x.outs) h(decl(o, false) + ";");
  host_->open("");
  h("const int64_t n = " + exp(x.n, false) + ";");
  for (int o : x.outs) h(name(o) + " = " + cppType(typeOf(o)) + "::alloc(ctx, {n});");
  host_->open("if (n > 0)");
  elemDecl(el);
  operatorDecl(x, x.op, x.ne, el);
  fusedDecl("in", id, freeOf({&x.body}, {}, {x.index}), x.outs);
  h("arrc::segmented_scan(ctx, et, op, n, in, nullptr, 0, true);");
  if (blockMayRaise(x.body)) h("detail::check(ctx);");
  host_->close();
  host_->close();
}

void Generator::segReduce(const SegReduce &x) {
  Element el = elementOf(kindsOf(x.outs));
  std::string id = segmentedSource("segreduce", x, x.index, x.body, el, x.outs.size());
  h("// segmented reduce" + (where(x).empty() ? "" : " (" + where(x) + ")") +
    ": runtime arrc::segmented_reduce (one result per segment), body " + id);
  for (int o : x.outs) h(decl(o, false) + ";");
  host_->open("");
  h("const int64_t n = " + exp(x.n, false) + ";");
  for (int o : x.outs) h(name(o) + " = " + cppType(typeOf(o)) + "::alloc(ctx, {n});");
  elemDecl(el);
  operatorDecl(x, x.op, x.ne, el);
  fusedDecl("in", id, freeOf({&x.body}, {}, {x.index}), x.outs);
  h("const int64_t count = arrc::segmented_reduce(ctx, et, op, n, in, nullptr, 0);");
  if (blockMayRaise(x.body)) h("detail::check(ctx);");
  for (int o : x.outs) h(name(o) + " = arrc::gen::first(" + name(o) + ", count);");
  host_->close();
}

} // namespace arrc::cg
