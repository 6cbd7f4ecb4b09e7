// Expand (flattening by expansion): the runtime's expand primitives. The
// sizes are scanned (arrc::expand_offsets, the size block fused in as
// arrc_size), then the expanded sequence is walked, load-balanced, with the
// body fused in as arrc_get(i, k), by its consumer (Expand::into):
//   Array  -> arrc::expand_write (outputs by arrc_store)
//   Reduce -> arrc::expand_reduce (nothing materialised)
//   Filter -> arrc::expand_compact_count / _write (only kept elements
//             written; the element carries its keep flag as member f0)
#include "Generator.h"

namespace arrc::cg {

void Generator::expand(const Expand &x) {
  bool filtered = x.into == Expand::Filter;
  std::vector<ScalarKind> kinds = kindsOf(x.outs);
  if (filtered) kinds.insert(kinds.begin(), ScalarKind::Bool);
  Element el = elementOf(kinds);
  std::string sizes = fusedSource(
      "expand_sizes", where(x),
      hook("long arrc_size(long arrc_i ARRC_PARAMS)", {{x.index, "arrc_i"}},
                                          x.size, returnResult(0, "long")));
  std::string get = hook("T arrc_get(long arrc_i, long arrc_k ARRC_PARAMS)",
                         {{x.index, "arrc_i"}, {x.inner, "arrc_k"}}, x.body, returnElement(el));
  if (filtered) get += "inline int arrc_keep(long arrc_j, T arrc_v ARRC_PARAMS) { return arrc_v.f0; }\n";
  std::string walk, walkStore;
  if (x.into == Expand::Reduce) walk = fusedSource("expand_reduce", where(x), get);
  if (filtered) walk = fusedSource("expand_filter", where(x), get);
  if (x.into != Expand::Reduce)
    walkStore = fusedSource("expand", where(x), get + storeHook(el, x.outs.size(), filtered ? 1 : 0));
  const char *what = x.into == Expand::Array    ? "arrc::expand_write"
                     : x.into == Expand::Reduce ? "arrc::expand_reduce"
                                                : "arrc::expand_compact_count/_write";
  h("// expand" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": runtime arrc::expand_offsets (sizes " +
    sizes + "), then " + what);
  for (int o : x.outs) h(decl(o, false) + (x.into == Expand::Reduce ? "{};" : ";"));
  host_->open("");
  h("const int64_t n = " + exp(x.n, false) + ";");
  fusedDecl("sizes", sizes, freeOf({&x.size}, {}, {x.index}));
  std::set<int> fv = freeOf({&x.body}, {}, {x.index, x.inner});
  elemDecl(el);
  switch (x.into) {
  case Expand::Array:
    h("const arrc::ExpandOffsets e = arrc::expand_offsets(ctx, et, n, sizes, true);");
    for (int o : x.outs) h(name(o) + " = " + cppType(typeOf(o)) + "::alloc(ctx, {e.total});");
    fusedDecl("in", walkStore, fv, x.outs);
    h("arrc::expand_write(ctx, et, e, in, nullptr, 0);");
    break;
  case Expand::Reduce:
    h("const arrc::ExpandOffsets e = arrc::expand_offsets(ctx, et, n, sizes, false);");
    operatorDecl(x, x.op, x.ne, el);
    fusedDecl("in", walk, fv);
    h("arrc::BufferPtr result = ctx.alloc(et.size);");
    h("arrc::expand_reduce(ctx, et, op, e, in, result->mem(), 0);");
    readElement(el, "result", x.outs, blockMayRaise(x.size) || blockMayRaise(x.body));
    break;
  case Expand::Filter:
    h("const arrc::ExpandOffsets e = arrc::expand_offsets(ctx, et, n, sizes, false);");
    fusedDecl("in", walk, fv);
    h("const arrc::ExpandCompaction kept = arrc::expand_compact_count(ctx, et, e, in);");
    for (int o : x.outs) h(name(o) + " = " + cppType(typeOf(o)) + "::alloc(ctx, {kept.count});");
    fusedDecl("store", walkStore, fv, x.outs);
    h("arrc::expand_compact_write(ctx, et, e, kept, store, nullptr, 0);");
    break;
  }
  if (x.into != Expand::Reduce && (blockMayRaise(x.size) || blockMayRaise(x.body)))
    h("detail::check(ctx);");
  host_->close();
}

} // namespace arrc::cg
