// Internals of the type checker shared by its source files.
#pragma once

#include "arrc/AST.h"
#include "arrc/AstWalk.h"
#include "arrc/TypeCheck.h"

#include <functional>
#include <string>

namespace arrc::tc {

// A deep copy of an expression tree (types and resolutions are copied too).
ExprP cloneExpr(const ExprP &e);
IndexArg cloneIndexArg(const IndexArg &a);

// Intrinsic signatures (Intrinsics.cpp).
struct IntrinsicInfo {
  std::string name;
  std::string signature; // in the mini-syntax of Intrinsics.cpp; "" = special rule
  bool rowPoly = false;  // type variables of kind "any" may stand for arrays (rows)
  std::string doc;       // the type as documented in docs/types.md
};
const IntrinsicInfo *findIntrinsic(const std::string &name);
const std::vector<IntrinsicInfo> &intrinsicTable();

} // namespace arrc::tc
