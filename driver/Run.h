// `arrc run FILE.arr [-e ENTRY] [ARG...]` after the IR is built: writes a
// small C++ harness around the generated header (arguments parsed and the
// result printed in Arr literal syntax by <arrc/io.h>), builds it with the
// system C++ compiler against the arrc runtime (cached by content hash under
// $ARRC_CACHE_DIR/run or ~/.cache/arrc/run), and runs it on the default device.
#pragma once

#include "arrc/IR.h"

#include <string>
#include <vector>

namespace arrc::driver {

struct RunRequest {
  std::string input;              // the .arr file (for messages)
  std::string entry;              // -e ENTRY ("" = the only export)
  std::vector<std::string> args;  // Arr literals; empty = read standard input
};

// Returns the exit status: the program's (0, or 1 on a runtime error), 1 if
// the harness could not be built, 2 on a usage error (unknown entry, ...).
int runModule(const ir::Module &module, const RunRequest &request);

// Where the runtime is: the include dir and the static library (build tree or
// installed prefix, found relative to the running arrc executable).
struct RuntimeLocation {
  std::string includeDir;
  std::string library;
  bool found = false;
};
RuntimeLocation findRuntime();

} // namespace arrc::driver
