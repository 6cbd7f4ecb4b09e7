// The Arr abstract syntax tree: the frontend's output and the type checker's
// input and output. ANTLR types never appear here. Every node has a Span; the
// type checker fills Expr::type (and resolves names) in place.
//
// Desugarings done by the frontend (so later stages see fewer forms):
//  * a block body `{ let p = e; ... return r; }` becomes nested LetIn nodes;
//  * `iota(n)` stays a Call (it is an intrinsic), `[a..b]` is Range{inclusive};
//  * `-A`, `!b`, `~x` are Unary; `a - b` is Binary.
#pragma once

#include "arrc/Source.h"
#include "arrc/Type.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace arrc {

struct Expr;
struct FunDecl;
using ExprP = std::shared_ptr<Expr>;

// ---------------------------------------------------------------- patterns
// `x`, `_`, `(a, (b, c))` — in let, lambdas, loops and comprehension bindings.
struct Pattern {
  enum Kind { Var, Wildcard, Tuple } kind = Var;
  std::string name;               // Var
  std::vector<Pattern> elems;     // Tuple
  Span span;
  TypeP type;                     // filled by the type checker
};

// ---------------------------------------------------------------- expressions
enum class ExprKind {
  IntLit, FloatLit, BoolLit, Var,
  Unary, Binary, If, LetIn, Tuple, Project,
  Call, Convert, Lambda, OpSection,
  Loop, Range, ArrayLit, New,
  Index, With, Size, Rank,
  Comprehension
};

enum class BinOp {
  Add, Sub, Mul, Div, Mod,
  Eq, Ne, Lt, Le, Gt, Ge,
  And, Or,                 // logical && ||
  BitAnd, BitOr, BitXor, Shl, Shr,
  Concat                   // xs ++ ys (LANGUAGE.md §7): additive precedence, left-assoc
};
enum class UnOp { Neg, Not, BitNot };

const char *spelling(BinOp op); // "+", "&&", ...
const char *spelling(UnOp op);  // "-", "!", "~"

struct Expr {
  explicit Expr(ExprKind k, Span s = {}) : kind(k), span(s) {}
  virtual ~Expr() = default;
  const ExprKind kind;
  Span span;
  TypeP type; // null until the type checker has run
};

struct IntLit : Expr {         // 42 (Int) or 42L (Long)
  IntLit() : Expr(ExprKind::IntLit) {}
  int64_t value = 0;
  ScalarKind scalar = ScalarKind::Int;
};
struct FloatLit : Expr {       // 1.5 (Double) or 1.5f (Float)
  FloatLit() : Expr(ExprKind::FloatLit) {}
  double value = 0;
  ScalarKind scalar = ScalarKind::Double;
  std::string text;            // as written, for printing
};
struct BoolLit : Expr {
  BoolLit() : Expr(ExprKind::BoolLit) {}
  bool value = false;
};

// A name: local, parameter, function, or intrinsic. The type checker records
// what it refers to.
struct VarRef : Expr {
  VarRef() : Expr(ExprKind::Var) {}
  std::string name;
  enum class Ref { Unresolved, Local, Param, Function, Intrinsic } ref = Ref::Unresolved;
  FunDecl *function = nullptr;   // Ref::Function: the (instantiated) callee
  std::vector<TypeP> typeArgs;   // Ref::Function / Intrinsic: inferred type arguments
};

struct Unary : Expr {
  Unary() : Expr(ExprKind::Unary) {}
  UnOp op = UnOp::Neg;
  ExprP operand;
};
struct Binary : Expr {
  Binary() : Expr(ExprKind::Binary) {}
  BinOp op = BinOp::Add;
  ExprP lhs, rhs;
};
struct If : Expr {
  If() : Expr(ExprKind::If) {}
  ExprP cond, then, els;
};
struct LetIn : Expr {          // let pat = value in body  (also block lets)
  LetIn() : Expr(ExprKind::LetIn) {}
  Pattern pattern;
  ExprP value, body;
};
struct TupleExpr : Expr {      // (a, b, ...) with at least two elements
  TupleExpr() : Expr(ExprKind::Tuple) {}
  std::vector<ExprP> elems;
};
struct Project : Expr {        // e.0, e.1 (0-based)
  Project() : Expr(ExprKind::Project) {}
  ExprP tuple;
  int index = 0;
};
struct Call : Expr {           // f(a, b): callee is usually a VarRef
  Call() : Expr(ExprKind::Call) {}
  ExprP callee;
  std::vector<ExprP> args;
};
struct Convert : Expr {        // double(e), int(e), float(e), long(e), bool(e)
  Convert() : Expr(ExprKind::Convert) {}
  ScalarKind to = ScalarKind::Int;
  ExprP operand;
};
struct Lambda : Expr {         // \x -> e,  \(a, b) -> e,  \x y -> e
  Lambda() : Expr(ExprKind::Lambda) {}
  std::vector<Pattern> params;
  ExprP body;
};
struct OpSection : Expr {      // (+), (*), (min), (max), (&&) ...
  OpSection() : Expr(ExprKind::OpSection) {}
  bool isBinOp = true;
  BinOp op = BinOp::Add;       // when isBinOp
  std::string function;        // otherwise: a named function, e.g. "min"
};
struct Loop : Expr {           // loop (pat = init) for i < n do body
  Loop() : Expr(ExprKind::Loop) {}       // loop (pat = init) while cond do body
  enum Form { For, While } form = For;
  Pattern pattern;
  ExprP init;
  std::string indexName;       // For: the counter (an int from 0)
  Span indexSpan;
  ExprP bound;                 // For: n
  ExprP cond;                  // While: evaluated on the state before each step
  ExprP body;                  // the next state
};
struct Range : Expr {          // [a..<b] (exclusive) or [a..b] (inclusive)
  Range() : Expr(ExprKind::Range) {}
  ExprP lo, hi;
  bool inclusive = false;
};
struct ArrayLit : Expr {       // [1, 2, 3], [[1.0, 2.0], [3.0, 4.0]]
  ArrayLit() : Expr(ExprKind::ArrayLit) {}
  std::vector<ExprP> elems;    // nested ArrayLit for higher ranks
};
struct New : Expr {            // new double[[m, n]]
  New() : Expr(ExprKind::New) {}
  TypeP elemType;
  std::vector<ExprP> dims;
};

// One entry of a subscript list: an index, a triplet f:l[:s] (l inclusive),
// or `:` (the whole axis).
struct IndexArg {
  enum Kind { Single, Triplet, All } kind = Single;
  ExprP index;                 // Single
  ExprP first, last, step;     // Triplet (step may be null = 1)
  Span span;
};
struct Index : Expr {          // A[i, j], A[i, :], A[0:n-1:2, j]
  Index() : Expr(ExprKind::Index) {}
  ExprP array;
  std::vector<IndexArg> args;
  bool isSection() const {
    for (auto &a : args)
      if (a.kind != IndexArg::Single) return true;
    return false;
  }
};
struct With : Expr {           // A with [i, j] = v,  A with [:, j] = col
  With() : Expr(ExprKind::With) {}
  ExprP array;
  std::vector<IndexArg> args;
  ExprP value;
};
struct Size : Expr {           // A.size(k)
  Size() : Expr(ExprKind::Size) {}
  ExprP array;
  ExprP axis;
};
struct Rank : Expr {           // A.rank
  Rank() : Expr(ExprKind::Rank) {}
  ExprP array;
};

// Comprehension qualifiers: a binding `w <- e`, a filter `e`, or `let w = e`.
struct Qualifier {
  enum Kind { Bind, Filter, Let } kind = Bind;
  Pattern pattern;             // Bind, Let
  ExprP expr;                  // the source array, the condition, or the value
  Span span;
};
// [head | q1, q2 | r1, r2]: `branches` are the zipped (`|`) sequences, each a
// `,`-separated list of qualifiers. One branch means no zip.
struct Comprehension : Expr {
  Comprehension() : Expr(ExprKind::Comprehension) {}
  ExprP head;
  std::vector<std::vector<Qualifier>> branches;
};

// ---------------------------------------------------------------- declarations
struct Param {
  TypeP type;
  std::string name;
  Span span;
};

struct FunDecl {
  bool exported = false;              // `export` vs `def`
  std::vector<std::string> typeParams; // <T, U>
  TypeP result;
  std::string name;
  std::vector<Param> params;
  ExprP body;                          // a block is desugared to LetIn nodes
  Span span;                           // the whole declaration
  Span nameSpan;
  int module = -1;                     // index into Program::modules
  // Filled by the type checker for instances of generic functions:
  std::string instanceOf;              // the generic's name ("" if not an instance)
  std::vector<TypeP> typeArgs;
};
using FunDeclP = std::shared_ptr<FunDecl>;

struct TypeAlias {
  std::string name;
  TypeP type;
  Span span;
};

struct Import {
  std::string path;                    // as written, without the quotes
  Span span;
  int module = -1;                     // resolved by the module loader
};

struct Module {
  std::string path;                    // the file it came from
  std::string name;                    // file stem: the C++ namespace of the header
  int file = -1;                       // SourceManager index
  bool isStdlib = false;
  std::vector<Import> imports;
  std::vector<TypeAlias> aliases;
  std::vector<FunDeclP> functions;
};

// All modules of one compilation: modules[0] is the main file; imports and the
// stdlib follow (each file once).
struct Program {
  std::vector<Module> modules;
  // Filled by the type checker: every concrete function reachable from the
  // main module's exports — non-generic defs as they are, generic ones once
  // per instantiation (named e.g. "rev<int>", typeParams empty). Each is fully
  // typed and its VarRefs point (VarRef::function) at other instances.
  std::vector<FunDeclP> instances;
};

} // namespace arrc
