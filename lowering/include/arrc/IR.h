// The arrc core IR: flat, typed, first-order. Lowering (lowering/) produces
// it from the typed AST, the passes (lowering/passes) rewrite it, and codegen
// (codegen/) turns it into OpenCL C kernels plus C++ host code.
//
// Shape of the IR
//  * Values are scalars (rank 0) or multiarrays of a scalar element type
//    (rank >= 1). Tuples are gone: a tuple becomes several variables and an
//    array of tuples becomes several arrays (structure of arrays).
//  * A multiarray value is (buffer, shape n0..n(d-1), weights w0..wd) as in
//    Moreira et al.: A[i0..] = data[i0*w0 + ... + i(d-1)*w(d-1) + wd].
//    Sections, transposes and reversals are `View` statements: new shape and
//    weights computed from the source's, sharing its buffer (no copy).
//  * A function body is a Block: statements, then result expressions. Host
//    level blocks may hold SOACs (Map, Reduce, ...) and host control flow
//    (If, Loop). The Blocks inside a SOAC (its per-element "body", its
//    operator) are scalar code: Let/If/Loop/Write only, run on the device.
//  * Higher-order functions, type parameters and internal calls are gone:
//    lowering inlines every internal function into the exports.
#pragma once

#include "arrc/AST.h" // BinOp, UnOp, ScalarKind, TypeP (export signatures)

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace arrc::ir {

// rank 0 = scalar; rank >= 1 = multiarray of `elem`.
struct Type {
  ScalarKind elem = ScalarKind::Int;
  int rank = 0;
};

// Every variable of a module lives in Module::vars; statements refer to ids.
struct VarInfo {
  std::string name; // readable name from the source where there is one
  Type type;
};

// ------------------------------------------------------------ expressions
struct Exp;
using ExpP = std::shared_ptr<Exp>;

struct Exp {
  enum Kind {
    Const,   // ival (bool/int/long) or fval (float/double)
    Var,     // var: a scalar or an array variable
    Unary,   // unop args[0]
    Binary,  // binop args[0], args[1] (no Concat here)
    Convert, // args[0] converted to type.elem
    Select,  // args[0] ? args[1] : args[2]  (both sides evaluated: keep them cheap)
    Call,    // fn(args...): math built-ins sqrt exp log pow sin cos tan atan2
             // abs min max floor ceil round erf isnan; host code only:
             // items_in_one_pass() (bool), the device's plan choice of
             // FuseMultiHist.cpp (arrc::Context::items_in_one_pass);
             // inner_loops_sequential() (bool, FuseExpandLoop.cpp);
             // group_by_hist_bins() (long, reduce_by_key's plans);
             // loop_chunks(elements, count) (long, SplitLongLoops.cpp)
    Read,    // args[0] is an array Var; args[1..rank] the indices -> element
    Shape,   // extent of axis `axis` of array args[0]
    Weight   // weight `axis` (0..rank; rank = offset) of array args[0]
  };
  Kind kind = Const;
  Type type;             // the result type (rank 0 except for Var of an array)
  int64_t ival = 0;
  double fval = 0;
  int var = -1;
  UnOp unop = UnOp::Neg;
  BinOp binop = BinOp::Add;
  std::string fn;
  int axis = 0;
  // Read: index into Module::positions for the bounds check, or -1 when the
  // indices are known to be in range (e.g. a map's own index space).
  int checkPos = -1;
  // Read: in range whatever the conditions of the ifs around it (set by
  // boundsChecks, docs/lowering.md): codegen may evaluate it before an if
  // whose branch holds it.
  bool speculable = false;
  std::vector<ExpP> args;
};

// ------------------------------------------------------------ statements
struct Stmt;
using StmtP = std::shared_ptr<Stmt>;

struct Block {
  std::vector<StmtP> stmts;
  std::vector<ExpP> results;
};

// A scalar function used as a SOAC operator: params are (a0..aK-1, b0..bK-1)
// for a K-component element; body.results has K entries.
struct Lambda {
  std::vector<int> params;
  Block body;
};

enum class StmtKind {
  // valid everywhere
  Let, If, Loop,
  // only inside SOAC bodies: store into a freshly allocated array
  Write,
  // only inside MultiHist bodies: add a value to a histogram's bin
  HistAdd,
  // host level only
  Alloc, View, Literal, Check,
  Map, Reduce, Scan, Filter, Scatter, Hist, Sort, SegScan, SegReduce, Expand, MultiHist
};

struct Stmt {
  explicit Stmt(StmtKind k) : kind(k) {}
  virtual ~Stmt() = default;
  const StmtKind kind;
  std::vector<int> outs; // variables this statement defines
  // Where it came from and how it was lowered, shown by --emit=lowered/ir:
  // e.g. "comprehension 4:3 regular map nest", "expand", "fallback".
  std::string note;
  Span span;
};

// outs[0] = value (scalar or array: binding an array var aliases it).
struct Let : Stmt {
  Let() : Stmt(StmtKind::Let) {}
  ExpP value;
};

// outs = if cond then thenB.results else elseB.results
struct If : Stmt {
  If() : Stmt(StmtKind::If) {}
  ExpP cond;
  Block thenB, elseB;
};

// Sequential loop. params are the loop-carried variables inside the body,
// initialised from init; outs receive their final values.
//  For:   for (index = 0; index < count; ++index) params = body(params)
//  While: while (cond(params)) params = body(params)
struct Loop : Stmt {
  Loop() : Stmt(StmtKind::Loop) {}
  enum Form { For, While } form = For;
  std::vector<int> params;
  std::vector<ExpP> init;
  int index = -1;   // For
  ExpP count;       // For
  Block cond;       // While: one bool result, may use params
  Block body;       // results: next values of params
  // The fold of a reduce (sum, dot, ...) inside a kernel: its operator is
  // associative, so the code generator may split it into partial folds
  // (CPU devices: independent chains of additions, codegen/src/DeviceCode.cpp).
  bool reassoc = false;
};

// array[indices] = value, inside a SOAC body (the array comes from Alloc).
struct Write : Stmt {
  Write() : Stmt(StmtKind::Write) {}
  int array = -1;
  std::vector<ExpP> indices;
  ExpP value;
};

// outs[0] = a fresh contiguous row-major array of shape dims; `zero` fills it
// with zeros (for `new`), otherwise its contents are undefined.
struct Alloc : Stmt {
  Alloc() : Stmt(StmtKind::Alloc) {}
  std::vector<ExpP> dims;
  bool zero = false;
};

// outs[0] = a view of `source`'s buffer with the given shape and weights
// (weights has rank+1 entries; the last is the offset in elements).
struct View : Stmt {
  View() : Stmt(StmtKind::View) {}
  ExpP source;
  std::vector<ExpP> shape;
  std::vector<ExpP> weights;
};

// outs[0] = a constant array (from an array literal whose elements are constants).
struct Literal : Stmt {
  Literal() : Stmt(StmtKind::Literal) {}
  std::vector<int64_t> shape;
  std::vector<int64_t> ivals; // for bool/int/long
  std::vector<double> fvals;  // for float/double
};

// Host-side check: raises the error unless cond holds. Used for shape
// equality of aggregate operations, zip sizes, section bounds, with-indices.
struct Check : Stmt {
  Check() : Stmt(StmtKind::Check) {}
  enum Code { Bounds, Shape, ZipSize, Empty, Irregular, Other, Negative } code = Other;
  ExpP cond;
  int pos = -1;              // Module::positions
  std::vector<ExpP> values;  // Bounds: index, extent, axis; Shape/ZipSize: the two sizes; Negative: the size
  std::string message;       // Other: the text
};

// ---- SOACs. Each has an index space and a per-element body (scalar code).

// outs[k] = fresh arrays of shape dims; element at (i0..) = body.results[k]
// with index[j] bound to ij. A regular comprehension nest is one Map.
// A Map with no outs is a parallel for-each whose body only Writes into
// arrays Alloc'd before it (the general comprehension fallback's fill step,
// `with` updates).
struct Map : Stmt {
  Map() : Stmt(StmtKind::Map) {}
  std::vector<ExpP> dims;
  std::vector<int> index;
  Block body;
};

// Fused producer + reduction: elements e(i) = body.results (K components)
// for i < n; outs (K scalars) = fold op ne over them. A plain reduce of an
// array has body = Read(xs, i).
struct Reduce : Stmt {
  Reduce() : Stmt(StmtKind::Reduce) {}
  ExpP n;
  int index = -1;
  Block body;
  Lambda op;
  std::vector<ExpP> ne;
};

// outs (K rank-1 arrays of length n) = inclusive (or exclusive) prefix scan.
struct Scan : Stmt {
  Scan() : Stmt(StmtKind::Scan) {}
  ExpP n;
  int index = -1;
  Block body;
  Lambda op;
  std::vector<ExpP> ne;
  bool exclusive = false;
};

// body.results = (keep, v0..vK-1); outs = K rank-1 arrays of the kept values,
// in order (stable). The count is Shape(outs[0], 0).
struct Filter : Stmt {
  Filter() : Stmt(StmtKind::Filter) {}
  ExpP n;
  int index = -1;
  Block body;
};

// outs[k] = copy of dests[k] with outs[k][idx(i)] = v_k(i) for i < n;
// body.results = (idx, v0..vK-1); out-of-range idx ignored.
struct Scatter : Stmt {
  Scatter() : Stmt(StmtKind::Scatter) {}
  std::vector<ExpP> dests;
  ExpP n;
  int index = -1;
  Block body;
};

// outs = K arrays of length bins; bin b = ne op (all v(i) with bin(i) == b);
// body.results = (bin, v0..vK-1); out-of-range bins ignored.
struct Hist : Stmt {
  Hist() : Stmt(StmtKind::Hist) {}
  ExpP bins;
  ExpP n;
  int index = -1;
  Block body;
  Lambda op;
  std::vector<ExpP> ne;
};

// Several histograms filled in one pass (fusion, FuseMultiHist.cpp: a Map
// and the Hists that read it, e.g. k-means' assignment, counts and sums):
// for each i < n the body runs once, and each HistAdd in it (inside its
// loops and ifs too) adds a value to a bin of one histogram. Histogram h is
// outs[h], a rank-1 array of length bins[h] that starts at ne[h] in every
// bin; adding v to bin b makes it ops[h](bin, v); an out-of-range b is
// ignored (v is still evaluated). Each ops[h] is a scalar +, *, min or max
// with ne[h] its identity (codegen's neutralIsIdentity), so the order of the
// additions cannot change an integer result (floating-point sums may be
// reassociated, as Hist's atomic schedules do).
struct MultiHist : Stmt {
  MultiHist() : Stmt(StmtKind::MultiHist) {}
  ExpP n;
  int index = -1;
  Block body; // no results
  std::vector<ExpP> bins;
  std::vector<Lambda> ops;
  std::vector<ExpP> ne;
};

// Inside a MultiHist body: bin `bin` (a long) of histogram `hist` (an index
// into the MultiHist's histograms) becomes op(bin, value).
struct HistAdd : Stmt {
  HistAdd() : Stmt(StmtKind::HistAdd) {}
  int hist = 0;
  ExpP bin;
  ExpP value;
};

// Stable ascending sort by keys (a rank-1 array of a scalar type); outs[0] is
// the sorted keys, outs[1..] the `values` arrays permuted alike.
struct Sort : Stmt {
  Sort() : Stmt(StmtKind::Sort) {}
  ExpP keys;
  std::vector<ExpP> values;
};

// Segmented inclusive scan: body.results = (flag, v0..vK-1); a true flag
// (and element 0) starts a segment, whose first value is its element's
// (as the runtime's primitives: a segment does not fold `ne` in; lowering
// makes the element `ne op x` where the language needs it). outs = K
// arrays of length n.
struct SegScan : Stmt {
  SegScan() : Stmt(StmtKind::SegScan) {}
  ExpP n;
  int index = -1;
  Block body;
  Lambda op;
  std::vector<ExpP> ne;
};

// Segmented reduce: as SegScan, but outs = one value per segment.
struct SegReduce : Stmt {
  SegReduce() : Stmt(StmtKind::SegReduce) {}
  ExpP n;
  int index = -1;
  Block body;
  Lambda op;
  std::vector<ExpP> ne;
};

// Flattening by expansion (Elsman & Larsen): for each outer i < n, size(i)
// (a long, from sizeB.results[0]) inner elements j < size(i), each
// body.results (K components, may use index and inner). Run by the runtime's
// expand primitives: a scan of the sizes, then a load-balanced walk over the
// expanded elements.
//
// `into` says what consumes the expanded elements; fusion (Fuse.cpp) sets it
// so that the expanded array is never materialised:
//  * Array:  outs = K rank-1 arrays of length sum(size), body.results = the
//            K components of each element.
//  * Reduce: outs = K scalars = fold `op` from `ne` over the expanded
//            elements in order (body.results = K components, as Reduce).
//  * Filter: body.results = (keep, v0..vK-1); outs = K rank-1 arrays of the
//            kept elements, in order (as Filter).
struct Expand : Stmt {
  Expand() : Stmt(StmtKind::Expand) {}
  enum Into { Array, Reduce, Filter } into = Array;
  ExpP n;
  int index = -1;  // outer index i
  Block size;      // size(i)
  int inner = -1;  // inner index j
  Block body;
  Lambda op;              // Reduce only
  std::vector<ExpP> ne;   // Reduce only
};

// ------------------------------------------------------------ module

// An exported function: the C++ signature comes from the source types; each
// source parameter/result is flattened to variables (tuples component-wise,
// arrays of tuples as one array per component).
struct Function {
  std::string name;
  std::vector<std::string> paramNames;
  std::vector<TypeP> paramTypes;           // source types (no aliases left)
  std::vector<std::vector<int>> paramVars; // flattened vars of each param
  TypeP resultType;                        // source type
  Block body;                              // results: the flattened result
  Span span;
};

struct Module {
  std::string name;                        // the C++ namespace
  std::vector<VarInfo> vars;
  std::vector<Function> functions;
  std::vector<std::string> positions;      // "file:line:col" for runtime errors
  std::vector<std::string> files;          // each Span::file's path (codegen's positions of statements)
  // In-body checks (device code has no Check statement; docs/lowering.md):
  // `var` is a one-element long Literal {0} that bodies read at index
  // select(ok, 0, 1) with checkPos set; a failed read of it means check
  // `code` failed at that position (report it as that code, not as bounds).
  struct Guard {
    int var;
    Check::Code code;
  };
  std::vector<Guard> guards;

  int newVar(std::string name, Type type) {
    vars.push_back({std::move(name), type});
    return static_cast<int>(vars.size()) - 1;
  }
  int position(std::string loc) {
    positions.push_back(std::move(loc));
    return static_cast<int>(positions.size()) - 1;
  }
};

} // namespace arrc::ir
