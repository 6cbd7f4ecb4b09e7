// Sort: the runtime's stable radix sort (arrc::sort_pairs) of (key, index)
// pairs, between two kernels of the module: `_init` copies the keys into a
// contiguous buffer (bool keys widened to int; float keys canonicalised so
// -0.0 == +0.0 as under `<`) with the identity permutation, then the values
// -- and the keys where the sorted copy is not the original bit pattern --
// are gathered through the permutation. Integer keys without values need no
// permutation: the keys alone are sorted (about a fifth less time on the
// H100 at 10^8 than carrying an index along).
//
// Both kernels walk elements [i0, i1) of a block per work-item: one element
// in work-groups of 256 on GPUs, blocks of arrc::gen::map_chunk on CPUs (as
// maps without loops, SoacMap.cpp). With the implementation's own
// work-group size, which must divide n, PoCL took one work-item per group
// for a prime n (10^6 - 17 keys: 3 ms more than 10^6 in the copy alone).
#include "Generator.h"

namespace arrc::cg {

// The loop over a work-item's block of a sort kernel (opens its body).
static void blockLoop(Code &k) {
  k.line("const long i0 = (long)get_global_id(0) * per, i1 = min(i0 + per, n);");
  k.line("#ifdef ARRC_CPU");
  k.line("#pragma clang loop vectorize(assume_safety)");
  k.line("#endif");
  k.open("for (long i = i0; i < i1; ++i)");
}

void Generator::sort(const Sort &x) {
  std::string kn = newKernel("sort", x);
  if (x.keys->kind != Exp::Var) fail("sort keys are not a variable");
  int keys = x.keys->var;
  ScalarKind kt = typeOf(keys).elem;
  noteType(kt);
  bool isBool = kt == ScalarKind::Bool;
  bool gatherKeys = isBool || isFloating(kt);
  bool needPerm = gatherKeys || !x.values.empty();
  std::string sks = isBool ? "int" : clStore(kt), skcpp = isBool ? "int32_t" : cppStore(kt);
  std::string skArr = "arrc::Array<" + skcpp + ", 1>";
  h("// stable sort" + (where(x).empty() ? "" : " (" + where(x) + ")") + ": kernel " + kn +
    "_init, runtime radix sort arrc::sort_pairs, gathers " + kn + "_gather*");
  for (int o : x.outs) h(decl(o, false) + ";");
  host_->open("");
  h("const int64_t n = " + name(keys) + ".shape(0);");
  h(skArr + " skeys = " + skArr + "::alloc(ctx, {n});");
  if (needPerm) h("arrc::Array<int32_t, 1> perm = arrc::Array<int32_t, 1>::alloc(ctx, {n});");
  KernelArgs ia = freeArgs({keys});
  ia.add("__global " + sks + " *keys_out", "skeys");
  if (needPerm) ia.add("__global int *perm_out", "perm");
  ia.add("long n", "n");
  ia.add("long per", "per");
  h("if (n > int64_t(INT32_MAX)) throw arrc::Error(\"sort: more than 2^31-1 elements\");");
  h("const int64_t per = arrc::gen::map_chunks(ctx) ? arrc::gen::map_chunk(ctx, n, 1)[0] : 1;");
  const std::string global = "arrc::NDRange(per > 1 ? size_t((n + per - 1) / per) : arrc::round_up(size_t(n), 256))";
  const std::string local = "arrc::NDRange(per > 1 ? 1 : 256)";
  h("if (n > 0)");
  h("  " + launch(kn + "_init", global, local, ia.host));
  host_->open("if (n > 1)");
  if (needPerm) {
    h("const arrc::ElemType vt = arrc::ElemType::of<int32_t>();");
    h("arrc::sort_pairs(ctx, arrc::ElemType::of<" + skcpp + ">(), n, skeys.buffer(), &vt, perm.buffer());");
  } else {
    h("arrc::sort_pairs(ctx, arrc::ElemType::of<" + skcpp + ">(), n, skeys.buffer(), nullptr, nullptr);");
  }
  host_->close();
  std::vector<std::pair<int, int>> gathers; // (source var, out var)
  if (gatherKeys) gathers.push_back({keys, x.outs.at(0)});
  else h(name(x.outs.at(0)) + " = skeys;");
  for (size_t v = 0; v < x.values.size(); ++v) {
    if (x.values[v]->kind != Exp::Var) fail("sort values are not variables");
    gathers.push_back({x.values[v]->var, x.outs.at(v + 1)});
  }
  for (size_t g = 0; g < gathers.size(); ++g) {
    int src = gathers[g].first, out = gathers[g].second;
    ScalarKind et = typeOf(src).elem;
    h(name(out) + " = " + cppArray(et, 1) + "::alloc(ctx, {n});");
    KernelArgs ga = freeArgs({src});
    ga.add("__global " + std::string(clStore(et)) + " *out", name(out));
    ga.add("__global const int *perm", "perm");
    ga.add("long n", "n");
    ga.add("long per", "per");
    std::string gk = kn + "_gather" + std::to_string(g);
    h("if (n > 0)");
    h("  " + launch(gk, global, local, ga.host));
    Code k;
    beginKernel(k, gk, "sort at " + where(x) + ": permute " + (src == keys ? "keys" : "values"), ga.cl);
    blockLoop(k);
    k.line("out[i] = " + name(src) + "[(long)perm[i] * " + name(src) + "_w0 + " + name(src) + "_w1];");
    k.close();
    k.close();
    kernels_ += k.s;
  }
  host_->close();
  {
    Code k;
    beginKernel(k, kn + "_init",
                "sort at " + where(x) + ": contiguous sort keys" + (needPerm ? ", identity permutation" : ""),
                ia.cl);
    blockLoop(k);
    std::string src = name(keys) + "[i * " + name(keys) + "_w0 + " + name(keys) + "_w1]";
    if (isBool) src = "(int)(" + src + " != 0)";
    else if (kt == ScalarKind::Float) src = src + " + 0.0f";
    else if (kt == ScalarKind::Double) src = src + " + 0.0";
    k.line("keys_out[i] = " + src + ";");
    if (needPerm) k.line("perm_out[i] = (int)i;");
    k.close();
    k.close();
    kernels_ += k.s;
  }
}

} // namespace arrc::cg
