// Lowering: typed AST -> core IR (IR.h), then the optimisation passes.
#pragma once

#include "arrc/AST.h"
#include "arrc/Diagnostics.h"
#include "arrc/IR.h"

#include <iosfwd>
#include <string>

namespace arrc {

// How an irregular array computed inside a parallel body is handled
// (docs/lowering.md, "Nested parallelism"): Auto applies the cost rule;
// Flatten / Sequential force one scheme wherever it applies (for tests and
// for tuning). The default comes from $ARRC_NESTED (auto|flatten|sequential).
struct LowerOptions {
  enum class Nested { Auto, Flatten, Sequential } nested = Nested::Auto;
  // Range generators narrowed by the filters that bound their variable
  // (docs/lowering.md, "Guarded ranges"); ARRC_NARROW_RANGES=0 turns it off.
  bool narrowRanges = true;
  static LowerOptions fromEnvironment();
  // Parses "auto" / "flatten" / "sequential"; false for anything else.
  static bool parseNested(const std::string &text, Nested &out);
};

// Translates the exports of program.modules[0] (and everything they use,
// inlined) into `out`: comprehensions by flattening-by-expansion, multiarrays
// by weight vectors. This is what --emit=lowered prints. Returns false if an
// error was reported.
bool lowerProgram(const Program &program, const SourceManager &sources, Diagnostics &diags,
                  ir::Module &out);
bool lowerProgram(const Program &program, const SourceManager &sources, Diagnostics &diags,
                  ir::Module &out, const LowerOptions &options);

// Runs every pass in order (simplify, fusion, dead code, ...): --emit=ir.
void optimize(ir::Module &module);

// A readable, stable dump of the IR (for --emit=lowered/ir and lit tests).
void printIR(const ir::Module &module, std::ostream &out);

} // namespace arrc
