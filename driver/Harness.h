// The main.cpp that `arrc run`, `arrc test` and `arrc bench` build around a
// module's generated header: one arrc::harness::Entry per export, whose
// `prepare` converts Arr literals (or random data) into the export's C++
// parameter types and prints its result in Arr syntax. The modes themselves
// are in runtime/include/arrc/harness.h.
#pragma once

#include "arrc/IR.h"

#include <string>

namespace arrc::driver {

// `arrFile` is the .arr path as the user gave it (for messages).
// distributed: the harness of `--ranks N` (runtime/include/arrc/harness_mpi.h),
// calling each export's distributed overload over an arrc::Cluster.
std::string harnessSource(const ir::Module &module, const std::string &arrFile, bool distributed = false);

// "double[[*]] a, double[[*]] b": the export's parameters for messages.
std::string signatureOf(const ir::Function &f);

} // namespace arrc::driver
