// The type checker (LANGUAGE.md §2-§7, docs/types.md): resolves aliases and
// names, infers and checks the type of every expression, instantiates generic
// functions (monomorphisation) and fills Program::instances for lowering.
#pragma once

#include "arrc/AST.h"
#include "arrc/Diagnostics.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace arrc {

struct TypeCheckOptions {
  bool warningsAsErrors = false;
};

// Resolves aliases and names, infers and checks every expression's type
// (filling Expr::type, Pattern::type, VarRef::ref/function/typeArgs), and
// fills Program::instances (see AST.h). Returns false if any error was reported.
bool typeCheck(Program &program, Diagnostics &diags, const TypeCheckOptions & = {});

// --emit=typed: the AST of Program::instances with the type of every binding
// and expression, one node a line, indented by two spaces per level, e.g.
//   Binary + : double <3:10-3:15>
void printTyped(const Program &program, const SourceManager &sources, std::ostream &out);

// The intrinsic functions known to the compiler (names), for later stages.
// Their types are documented in docs/types.md.
bool isIntrinsic(const std::string &name);
// All intrinsic names, in documentation order.
const std::vector<std::string> &intrinsicNames();
// An intrinsic's type as documented (docs/types.md, docs/reference.md), e.g.
// "((a, a) -> a, a, a[[*]]) -> a" ("" for an unknown name).
std::string intrinsicSignature(const std::string &name);

// Helpers on types, exposed for later stages and unit tests.
// The array type of `rank` more leading axes over `elem`: an array element
// type is merged (arrayOf(double[[*]], 1) == double[[*,*]]).
TypeP arrayOf(const TypeP &elem, int rank);
// True if `t` may be the element type of an array: a scalar, or a tuple whose
// components may be array elements.
bool isElementType(const TypeP &t);

} // namespace arrc
