// Helpers over the AST (shared by the frontend and the type checker): visiting the child expressions of a node
// (in source order) and freeing deep trees without recursion.
#pragma once

#include "arrc/AST.h"

#include <functional>

namespace arrc {

// Calls fn on every direct child expression slot of e (never null slots).
void forEachChild(Expr &e, const std::function<void(ExprP &)> &fn);

// The depth of the expression tree (1 for a leaf), computed without recursion.
int exprDepth(const ExprP &root);

// Releases a tree iteratively (a very deep tree would overflow the stack if
// freed by the recursive shared_ptr destructors).
void releaseTree(ExprP &root);

} // namespace arrc
