// Map: the module's own kernel (a map nest is not a runtime primitive). One
// kernel per Map; 1-3 dims as an NDRange with the innermost index on
// dimension 0 (coalescing), more dims flattened; outputs row-major.
#include "Generator.h"

namespace arrc::cg {

void Generator::map(const Map &x) {
  std::string kn = newKernel("map", x);
  size_t D = x.dims.size();
  if (D == 0) fail("Map with no dimensions");
  std::set<int> fv = freeOf({&x.body}, {}, x.index);
  KernelArgs args = freeArgs(fv);
  std::vector<std::string> dimNames;
  for (size_t k = 0; k < D; ++k) dimNames.push_back("d" + std::to_string(k));
  h("// " + std::string(x.outs.empty() ? "parallel for-each" : "map") + (where(x).empty() ? "" : " (" + where(x) + ")") + ": kernel " + kn);
  for (int o : x.outs) h(decl(o, false) + ";");
  host_->open("");
  for (size_t k = 0; k < D; ++k) h("const int64_t " + dimNames[k] + " = " + exp(x.dims[k], false) + ";");
  std::vector<std::string> ocl = args.cl, oh = args.host;
  for (int o : x.outs) {
    const ir::Type &t = typeOf(o);
    noteType(t.elem);
    h(name(o) + " = " + cppType(t) + "::alloc(ctx, {" + join(dimNames) + "});");
    ocl.push_back("__global " + std::string(clStore(t.elem)) + " *" + name(o));
    oh.push_back(name(o));
  }
  for (size_t k = 0; k < D; ++k) {
    ocl.push_back("long " + dimNames[k]);
    oh.push_back(dimNames[k]);
  }
  std::string cond = join(dimNames, " > 0 && ") + " > 0";
  std::string global;
  if (D <= 3) {
    std::vector<std::string> g;
    for (size_t k = 0; k < D; ++k) g.push_back("size_t(" + dimNames[D - 1 - k] + ")");
    global = "arrc::NDRange(" + join(g) + ")";
  } else {
    global = "arrc::NDRange(size_t(" + join(dimNames, " * ") + "))";
  }
  h("if (" + cond + ")");
  h("  " + launch(kn, global, "arrc::NDRange()", oh));
  host_->close();

  Code k;
  k.ind = 0;
  beginKernel(k, kn, (x.outs.empty() ? "for-each" : "map") + std::string(where(x).empty() ? "" : " at " + where(x)), ocl);
  if (D <= 3) {
    for (size_t j = 0; j < D; ++j)
      k.line(decl(x.index[j], true) + " = (" + clScalar(typeOf(x.index[j]).elem) + ")get_global_id(" + std::to_string(D - 1 - j) + ");");
  } else {
    k.line("long lin = get_global_id(0);");
    for (size_t jj = D; jj-- > 0;) {
      k.line(decl(x.index[jj], true) + " = lin % " + dimNames[jj] + ";");
      if (jj) k.line("lin /= " + dimNames[jj] + ";");
    }
  }
  devBlock(k, x.body);
  if (!x.outs.empty()) {
    std::string lin = devName(x.index[0]);
    for (size_t j = 1; j < D; ++j) lin = "(" + lin + ") * " + dimNames[j] + " + " + devName(x.index[j]);
    k.line("long out_index = " + lin + ";");
    for (size_t o = 0; o < x.outs.size(); ++o) {
      std::string v = exp(x.body.results.at(o), true);
      if (typeOf(x.outs[o]).elem == ScalarKind::Bool) v = "(uchar)(" + v + ")";
      k.line(name(x.outs[o]) + "[out_index] = " + v + ";");
    }
  }
  k.close();
  kernels_ += k.s;
}

} // namespace arrc::cg
