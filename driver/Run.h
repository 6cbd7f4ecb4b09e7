// `arrc run FILE.arr [-e ENTRY] [ARG...]` after the IR is built: builds the
// module's harness program (ProgramBuild.h) and runs it once on the default
// device; arguments are Arr literals (else read from standard input) and the
// result is printed in Arr literal syntax.
#pragma once

#include "arrc/IR.h"

#include <string>
#include <vector>

namespace arrc::driver {

struct RunRequest {
  std::string input;              // the .arr file (for messages)
  std::string entry;              // -e ENTRY ("" = the only export)
  std::vector<std::string> args;  // Arr literals; empty = read standard input
  int ranks = 0;                  // --ranks N: the distributed overload under mpirun
};

// Returns the exit status: the program's (0, or 1 on a runtime error), 1 if
// the harness could not be built, 2 on a usage error (unknown entry, ...).
int runModule(const ir::Module &module, const RunRequest &request);

// The export named `entry`, or the only one when `entry` is empty; null after
// printing why not ("<tool>: error: ..." on stderr).
const ir::Function *chooseEntry(const ir::Module &module, const std::string &entry,
                                const std::string &file, const std::string &tool);

} // namespace arrc::driver
