// Helpers to build, compare, traverse and rewrite core IR (IR.h). Used by
// lowering, the passes, the interpreter and codegen. Additive to IR.h only.
//
// Conventions of the IR produced by arrc's lowering (see docs/lowering.md):
//  * shapes, weights, SOAC indices and Alloc dims are `long`;
//  * Read indices are `long`; a Loop's counter has the type of its count;
//  * a Map with dims [] is not produced; a Map with no outs is a for-each.
#pragma once

#include "arrc/IR.h"

#include <functional>
#include <map>
#include <set>
#include <string>

namespace arrc::ir {

inline Type scalarT(ScalarKind k) { return Type{k, 0}; }
inline Type arrayT(ScalarKind k, int rank) { return Type{k, rank}; }
inline bool operator==(const Type &a, const Type &b) { return a.elem == b.elem && a.rank == b.rank; }
inline bool operator!=(const Type &a, const Type &b) { return !(a == b); }
bool isFloatKind(ScalarKind k);
std::string typeName(const Type &t); // "double", "int[[*,*]]"

// ---- expression constructors (types inferred as documented)
ExpP constInt(int64_t v, ScalarKind k = ScalarKind::Int); // also Bool/Long
ExpP constLong(int64_t v);
ExpP constBool(bool v);
ExpP constFloat(double v, ScalarKind k = ScalarKind::Double);
ExpP constZero(ScalarKind k);               // 0 / 0.0 / false
ExpP varExp(int var, Type t);
ExpP varExp(const Module &m, int var);
ExpP unaryExp(UnOp op, ExpP a);
ExpP binaryExp(BinOp op, ExpP a, ExpP b);   // comparisons/logic -> bool
ExpP convertExp(ExpP a, ScalarKind to);     // no-op if already of that kind
// A floating-point value converted to int or long as Arr does: toward zero,
// saturating at the type's limits, NaN as 0 (OpenCL's convert_<T>_sat).
int64_t saturatingInt(double f, ScalarKind to);
ExpP selectExp(ExpP c, ExpP a, ExpP b);
ExpP callExp(const std::string &fn, std::vector<ExpP> args, ScalarKind result);
ExpP readExp(ExpP array, std::vector<ExpP> idx, int checkPos = -1);
ExpP shapeExp(ExpP array, int axis);
ExpP weightExp(ExpP array, int axis);
// Simplifying arithmetic on long index expressions (folds constants, x+0, x*1).
ExpP addL(ExpP a, ExpP b);
ExpP subL(ExpP a, ExpP b);
ExpP mulL(ExpP a, ExpP b);
ExpP maxL(ExpP a, ExpP b);
ExpP toLong(ExpP a);
// `let var = value` (a statement, at span)
StmtP letStmt(int var, ExpP value, const Span &span);

bool isConst(const ExpP &e);
bool isVar(const ExpP &e, int var); // e is the variable `var`
bool constValue(const ExpP &e, int64_t &out); // integral/bool constants
// Structural equality (var ids, constants, operators, checkPos ignored).
bool sameExp(const ExpP &a, const ExpP &b);
std::string expKey(const ExpP &e); // a canonical string (for CSE maps)

// ---- traversal
void expVars(const ExpP &e, std::set<int> &out);            // vars referenced
void blockUses(const Block &b, std::set<int> &out);         // vars referenced (incl. nested)
void blockDefs(const Block &b, std::set<int> &out);         // vars defined (incl. nested, params, indices)
void stmtUses(const Stmt &s, std::set<int> &out);
void stmtDefs(const Stmt &s, std::set<int> &out);
// The Let values of a block and of the blocks inside it (variables are
// defined once).
void collectLets(const Block &b, std::map<int, ExpP> &lets);
// Visits every Block directly held by a statement (bodies, ops, branches).
void forEachBlock(Stmt &s, const std::function<void(Block &)> &f);
void forEachBlock(const Stmt &s, const std::function<void(const Block &)> &f);
// Visits every expression slot directly held by a statement (not nested blocks).
void forEachExp(Stmt &s, const std::function<void(ExpP &)> &f);
// Whether device code can raise an error: a bounds-checked Read (checkPos >= 0)
// in the expression / anywhere in the statement (nested blocks too) / block.
bool hasCheckedRead(const ExpP &e);
bool mayRaise(const Stmt &s);
bool blockMayRaise(const Block &b);
// True for statements that have effects besides defining outs (Check, Write,
// Map with no outs) and so are never dead.
bool hasEffect(const Stmt &s);
// Whether a block writes an array (a Write anywhere in it, nested blocks too).
bool blockWrites(const Block &b);
// A statement of kind k in b or in any block inside it.
bool blockHasKind(const Block &b, StmtKind k);

// ---- rewriting
ExpP substitute(const ExpP &e, const std::map<int, ExpP> &sub);
void substituteBlock(Block &b, const std::map<int, ExpP> &sub); // in place, recursive
// Rewrites every expression (bottom-up) in a block, recursively.
void rewriteBlock(Block &b, const std::function<ExpP(const ExpP &)> &f);
ExpP rewriteExp(const ExpP &e, const std::function<ExpP(const ExpP &)> &f);
// Deep copy of a block with every variable it defines renamed to a fresh one.
Block cloneFresh(Module &m, const Block &b, std::map<int, ExpP> &sub);
StmtP cloneStmt(const Stmt &s);
// Two `for` loops of one count as one: b's body on a's counter after a's
// body, b's states after a's (JamLoops' jammed inner loops, FuseLoops'
// siblings); a reduce's fold (reassoc) only where both were.
std::shared_ptr<Loop> mergeLoops(const Module &m, const Loop &a, const Loop &b);
// The blocks of the SOACs in a host-level block (their bodies and operators:
// device code), through the host's Ifs and Loops.
void forEachDeviceBlock(Block &host, const std::function<void(Block &)> &f);

// Operators the runtime recognises (and updates atomically): component k of
// `op` (K components) is a_k + b_k, a_k * b_k, min or max of the two; kind
// is then "Add", "Mul", "Min" or "Max".
bool simpleComponent(const Lambda &op, size_t K, size_t k, const char *&kind);
// Every component is simple and `ne` is its identity, as a constant (+ 0,
// * 1; any value for min and max, which are idempotent).
bool neutralIsIdentity(const Lambda &op, const std::vector<ExpP> &ne);

} // namespace arrc::ir
