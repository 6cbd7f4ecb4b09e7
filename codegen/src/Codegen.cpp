// Code generation: core IR -> OpenCL C kernels + a C++17 header. The
// Generator (Generator.h) walks every exported function once; see
// docs/codegen.md for the header's layout and how each SOAC is run.
#include "arrc/Codegen.h"

#include "Generator.h"

namespace arrc {

std::string emitOpenCL(const ir::Module &module) {
  cg::Generator g(module);
  g.run();
  return g.openclListing();
}

std::string emitHeader(const ir::Module &module) {
  cg::Generator g(module);
  g.run();
  return g.header();
}

std::string cppTypeOf(const TypeP &type) { return cg::cppOf(type); }
std::string cppIdentifier(const std::string &name) {
  return cg::exportedName(name, cg::NameRole::Function);
}
std::string cppNamespace(const std::string &moduleName) {
  return cg::exportedName(moduleName, cg::NameRole::Namespace);
}

} // namespace arrc
