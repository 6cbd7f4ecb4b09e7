// `arrc run --interpret FILE.arr [-e ENTRY] [ARG...]`: evaluates one export
// with the IR interpreter (lowering/include/arrc/Interpret.h), the reference
// semantics the compiled program is tested against (docs/reliability.md).
// Arguments and the printed result are as for `arrc run`.
#pragma once

#include "Run.h"

namespace arrc::driver {

// Exit status: 0, 1 on the program's runtime error (printed as `arrc run`
// prints one), 2 on a usage error, 3 when the interpreter itself fails (an
// internal error: malformed IR).
int interpretModule(const ir::Module &module, const RunRequest &request);

} // namespace arrc::driver
