// Code generation: optimised IR -> OpenCL C kernels + a self-contained C++
// header (LANGUAGE.md §8).
#pragma once

#include "arrc/IR.h"

#include <string>

namespace arrc {

// The OpenCL C 1.2 source of all kernels of the module (--emit=opencl).
std::string emitOpenCL(const ir::Module &module);

// The C++ header: namespace <module.name>, one function per export, the
// kernels' source embedded as a string (--emit=header, the default output).
std::string emitHeader(const ir::Module &module);

} // namespace arrc

namespace arrc {
// The C++ type of a source type in generated signatures (LANGUAGE.md §8):
// "arrc::Array<double, 2>", "std::tuple<int32_t, double>", an array of tuples
// as a std::tuple of arrays. Used by `arrc run` to write its harness.
std::string cppTypeOf(const TypeP &type);
// The C++ spelling of an export (function) name, and of a module's
// namespace, in the header: the name itself when it is safe, else
// `arrc_u_<name>` (docs/codegen.md, "Names").
std::string cppIdentifier(const std::string &name);
std::string cppNamespace(const std::string &moduleName);
} // namespace arrc
