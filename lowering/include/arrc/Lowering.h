// Lowering: typed AST -> core IR (IR.h), then the optimisation passes.
#pragma once

#include "arrc/AST.h"
#include "arrc/Diagnostics.h"
#include "arrc/IR.h"

#include <iosfwd>

namespace arrc {

// Translates the exports of program.modules[0] (and everything they use,
// inlined) into `out`: comprehensions by flattening-by-expansion, multiarrays
// by weight vectors. This is what --emit=lowered prints. Returns false if an
// error was reported.
bool lowerProgram(const Program &program, const SourceManager &sources, Diagnostics &diags,
                  ir::Module &out);

// Runs every pass in order (simplify, fusion, dead code, ...): --emit=ir.
void optimize(ir::Module &module);

// A readable, stable dump of the IR (for --emit=lowered/ir and lit tests).
void printIR(const ir::Module &module, std::ostream &out);

} // namespace arrc
