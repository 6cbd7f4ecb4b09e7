// Reduce: the runtime's reduction (arrc::reduce; GPU: grid-stride or
// ordered tiles and a tree per work-group, CPU: a chunk per work-item),
// the body fused in as arrc_load. The result is read back to the host.
#include "Generator.h"

namespace arrc::cg {

void Generator::reduce(const Reduce &x) {
  Element el = elementOf(kindsOf(x.outs));
  std::string id = fusedSource(
      "reduce", where(x),
      hook("T arrc_load(long arrc_i ARRC_PARAMS)", {{x.index, "arrc_i"}}, x.body, returnElement(el)));
  h("// reduce" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": runtime arrc::reduce, body " + id);
  for (int o : x.outs) h(decl(o, false) + "{};");
  host_->open("");
  h("const int64_t n = " + exp(x.n, false) + ";");
  elemDecl(el);
  operatorDecl(x, x.op, x.ne, el);
  fusedDecl("in", id, freeOf({&x.body}, {}, {x.index}));
  h("arrc::BufferPtr result = ctx.alloc(et.size);");
  h("arrc::reduce(ctx, et, op, n, in, result->mem(), 0);");
  readElement(el, "result", x.outs, blockMayRaise(x.body));
  host_->close();
}

} // namespace arrc::cg
