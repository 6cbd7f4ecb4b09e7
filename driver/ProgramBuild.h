// The cached build of a module's harness program (Harness.h) with the system
// C++ compiler against the arrc runtime, shared by `arrc run`, `arrc test`
// and `arrc bench`. Programs are cached by a hash of their sources, the
// compiler and the runtime under $ARRC_CACHE_DIR/run (else
// $XDG_CACHE_HOME/arrc/run or ~/.cache/arrc/run): a second run never rebuilds.
#pragma once

#include "arrc/IR.h"

#include <string>
#include <vector>

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
  int ranks = 0;       // > 0: the distributed harness, started under mpirun on this many ranks
  // The command running the program with `args`: argv[0] first.
  std::vector<std::string> command(const std::vector<std::string> &args) const;
};

// Builds (or finds in the cache) the harness of `module`. `tool` names the
// command in messages ("arrc run"); with `announce`, a build that is not
// cached says so on stderr first (it takes seconds; not with ARRC_QUIET=1).
// ranks > 0: the distributed harness (--ranks, docs/distributed.md).
BuiltProgram buildProgram(const ir::Module &module, const std::string &arrFile, const std::string &tool,
                          bool announce, int ranks = 0);

} // namespace arrc::driver
