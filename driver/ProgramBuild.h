// The cached build of a module's harness program (Harness.h) with the system
// C++ compiler against the arrc runtime, shared by `arrc run`, `arrc test`
// and `arrc bench`. Programs are cached by a hash of their sources, the
// compiler and the runtime under $ARRC_CACHE_DIR/run (else
// $XDG_CACHE_HOME/arrc/run or ~/.cache/arrc/run): a second run never rebuilds.
#pragma once

#include "arrc/IR.h"

#include <string>

namespace arrc::driver {

// Where the runtime is: the include dir and the static library (build tree or
// installed prefix, found relative to the running arrc executable).
struct RuntimeLocation {
  std::string includeDir;
  std::string library;
  bool found = false;
};
RuntimeLocation findRuntime();

struct BuiltProgram {
  bool ok = false;
  std::string exe;     // the program, when ok
  std::string error;   // why not, when !ok (the compiler's log included)
};

// Builds (or finds in the cache) the harness of `module`. `tool` names the
// command in messages ("arrc run"); with `announce`, a build that is not
// cached says so on stderr first (it takes seconds; not with ARRC_QUIET=1).
BuiltProgram buildProgram(const ir::Module &module, const std::string &arrFile, const std::string &tool,
                          bool announce);

} // namespace arrc::driver
