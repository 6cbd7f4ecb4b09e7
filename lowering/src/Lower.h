// Private to arrc_lowering: the lowering state shared by the Lower*.cpp files.
#pragma once

#include "arrc/AST.h"
#include "arrc/Diagnostics.h"
#include "arrc/IRBuilder.h"
#include "arrc/Lowering.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace arrc::lower {
using namespace arrc::ir;
using ir::Module;
using ir::Type;
using ir::Lambda;
using ir::If;
using ir::Loop;

// Lowering errors unwind to lowerProgram, which reports them positioned.
struct LowerError {
  Span span;
  std::string message;
};

class Lowerer;
struct Val;
struct FuncVal;
struct EnvNode;
using Env = std::shared_ptr<const EnvNode>;

// A per-element step of a sequential fold: acc, element -> new acc.
using StepFn = std::function<std::vector<ExpP>(const std::vector<ExpP> &acc, const Val &elem)>;
// A sequential producer (device code): folds `step` over its elements.
using FoldFn = std::function<std::vector<ExpP>(const std::vector<ExpP> &init, const StepFn &step)>;
using FetchFn = std::function<Val(const std::vector<ExpP> &idx)>;
struct SeqInfo;

// The value of a source expression during lowering.
struct Val {
  enum Kind { Scalar, Tuple, Array, Delayed, Seq, Func } kind = Scalar;
  TypeP type;                   // source type
  ExpP e;                       // Scalar
  std::vector<Val> elems;       // Tuple
  std::vector<ExpP> arrs;       // Array: one array variable per scalar leaf (SoA)
  std::vector<ExpP> dims;       // Delayed: extents (long)
  FetchFn fetch;                // Delayed: element at an index vector
  FoldFn fold;                  // Seq: rank-1, only in device code
  std::shared_ptr<FuncVal> fn;  // Func
  // A row of a host array bound by a comprehension generator: its index and
  // the source, so that materialised comprehension contexts store the index.
  ExpP rowIdx;
  std::shared_ptr<Val> rowSrc;
  // Seq inside a body: where it comes from, a bound of its length, and its
  // flattened forms made so far (LowerNested.cpp).
  std::shared_ptr<SeqInfo> seq;

  static Val scalar(ExpP e, TypeP t) { Val v; v.kind = Scalar; v.e = e; v.type = t; return v; }
  static Val tuple(std::vector<Val> es, TypeP t) { Val v; v.kind = Tuple; v.elems = std::move(es); v.type = t; return v; }
  int rank() const { return type && type->isArray() ? type->rank : 0; }
  bool isArrayLike() const { return kind == Array || kind == Delayed || kind == Seq; }
};

struct FuncVal {
  enum Kind { Lambda, Section, Decl, Intrinsic } kind = Lambda;
  const arrc::Lambda *lambda = nullptr;
  Env env;
  const OpSection *section = nullptr;
  const FunDecl *decl = nullptr;
  std::string name; // Intrinsic
  TypeP type;       // the function's type where known
};

struct EnvNode {
  std::string name;
  Val val;
  Env next;
  // A function entry marker (name ""): the inlined function, its call site
  // and the caller's environment, for positions inside stdlib and imported
  // functions (reported at the user's call site). Lazily lowered code
  // restores its environment, so it keeps its chain of calls.
  const FunDecl *fn = nullptr;
  Span callSite;
  Env callerEnv;
};

// A Delayed array (an index function) of type t with extents dims.
inline Val mkDelayed(const TypeP &t, std::vector<ExpP> dims, FetchFn f) {
  Val d;
  d.kind = Val::Delayed;
  d.type = t;
  d.dims = std::move(dims);
  d.fetch = std::move(f);
  return d;
}

// ---- helpers on source types
void typeLeaves(const TypeP &t, std::vector<ScalarKind> &out); // scalar leaves (arrays: of the element)
TypeP elemTypeOf(const TypeP &arrayType);                       // element type of a rank-1 array, row type otherwise
TypeP arrayOf(const TypeP &elem, int rank);
std::string locString(const SourceManager &sm, const Span &s); // "line:col"
// What a size check between two operands of the intrinsic `name` compares,
// for its message ("the indices and values of hist differ in size: 3 vs 2").
std::string operandsOf(const std::string &name);

// A Seq made by a construct of the source (filter, a comprehension with
// filters or irregular generators, expand, scan): for notes and the cost rule.
struct SeqInfo {
  std::string what;  // "filter", "comprehension", ...
  Span at;
  ExpP bound;        // an upper bound of its length (in the body), or null
  int frame = 0;     // the frame it was made in: made indexable there (once for all its uses)
  // Indexable forms already made: (frame id where they are valid, value).
  std::vector<std::pair<int, std::shared_ptr<Val>>> flat;
  // A filter of an indexable array: flattened as an expand into filter
  // (otherwise the generic count, scan, fill).
  std::shared_ptr<Val> filterPred, filterSrc;
  // A scan: flattened as a segmented scan.
  std::shared_ptr<Val> scanOp, scanNe, scanSrc;
};

// The statements of a SOAC body being built, and the blocks nested in it
// (docs/lowering.md, "Nested parallelism"): flattening re-evaluates the part
// of them a value needs in new SOACs over the same index space.
struct Frame {
  enum Kind { Host, Top, Cond, Opaque } kind = Host;
  Block *block = nullptr;
  int id = 0;
  ExpP cond;               // Cond: the block runs only where cond holds (parent's vars)
  // Top: the SOAC's index space (empty dims: none registered, no flattening)
  // and the host block where the SOAC will go.
  std::vector<ExpP> dims;
  std::vector<int> index;
  Block *host = nullptr;
  std::string where;       // "comprehension 3:5", for notes
  // Values of an enclosing body that SOACs over this space read from host
  // columns (var -> column over the space): a loop lifted out of a body.
  std::map<int, ExpP> cols;
};

class Lowerer {
public:
  Lowerer(const Program &p, const SourceManager &sm, Module &m) : prog(p), sources(sm), mod(m) {}

  const Program &prog;
  const SourceManager &sources;
  Module &mod;
  Block *cur = nullptr;
  bool device = false;
  LowerOptions options;
  // ---- frames of the blocks being built (innermost last)
  std::vector<Frame> frames;
  int frameCounter = 0;
  std::set<int> deviceVars; // vars created in device code (not valid at host level)
  struct PendingSpace {
    bool set = false;
    std::vector<ExpP> dims;
    std::vector<int> index;
    std::string where;
    std::map<int, ExpP> cols;
  } pendingSpace;
  ExpP pendingCond;
  // A SOAC body over the index space dims/index (flattening may re-evaluate
  // its values over that space).
  Block bodyBlock(const std::vector<ExpP> &dims, const std::vector<int> &index,
                  const std::function<std::vector<ExpP>()> &f, const std::string &where = "",
                  const std::map<int, ExpP> &cols = {});
  // A device block that runs only where cond holds (an If branch).
  Block condBlock(ExpP cond, const std::function<std::vector<ExpP>()> &f);
  // A fold step taken only where cond holds (an If whose else keeps acc):
  // the accumulators after it.
  // A segmented SOAC's element where a segment starts: ne op x (LowerIntrinsics.cpp).
  std::vector<ExpP> segmentStart(const ExpP &start, const std::vector<ExpP> &x, const Lambda &opL,
                                 const std::vector<ExpP> &ne, const Val &op, const TypeP &et, const Span &at);
  std::vector<ExpP> stepWhere(ExpP cond, const std::vector<ExpP> &acc,
                              const std::function<std::vector<ExpP>()> &step);
  // A statement's note for the next emitted statement (nested scheme choices).
  std::string nextNote;
  // Host statements made while probing a body (discarded).
  Block probeDiscard;
  Env env;
  int inlineDepth = 0;
  std::vector<const FunDecl *> inlineStack;
  std::vector<std::shared_ptr<const Expr>> ownedAst; // rewritten AST nodes lowering refers to
  // In-body checks (device code has no Check statement): a long 0 read from a
  // one-element host Literal at index select(ok, 0, 1), bounds-checked at
  // `pos`, so that !ok raises a positioned error. guardVar is that Literal
  // (inserted at the start of the export's body when used).
  std::map<int, int> guardVars; // Check::Code -> its guard Literal var (this export)
  // A guard whose condition only uses host values and that runs for every
  // element (emitted at the top of a SOAC body) becomes a host Check of the
  // given code and values instead (hoisted; it then also fires for an empty
  // SOAC).
  // `what` names the checked operands where that reads better than the code's
  // generic words (host checks only: a device guard reports its code).
  ExpP deviceGuard(ExpP ok, int pos, int code = 0, std::vector<ExpP> values = {}, std::string what = "");
  Block *hostBlock = nullptr;   // the host block around the current SOAC body
  Block *deviceTop = nullptr;   // the SOAC body's top block
  int deviceVarStart = 0;       // vars created from here on are body-local

  [[noreturn]] void error(const Span &s, const std::string &msg) { throw LowerError{s, msg}; }

  // ---- emission
  int newVar(const std::string &name, Type t) {
    int v = mod.newVar(name, t);
    if (device) deviceVars.insert(v);
    return v;
  }
  void emit(StmtP s) {
    if (!device)
      for (int o : s->outs) hostVars.insert(o);
    if (!nextNote.empty() && s->note.empty()) s->note = nextNote, nextNote.clear();
    cur->stmts.push_back(std::move(s));
  }
  // Vars defined by host statements (and parameters) of the current export:
  // only guards over these may be hoisted. Probes (throwaway lowering of a
  // body at a sample index) set noHoist.
  std::set<int> hostVars;
  int noHoist = 0;
  // The frames below this index are outside the innermost probe: a probe's
  // statements must not go there (indexable's home frame).
  size_t probeFloor = 0;
  struct NoHoist {
    Lowerer &L;
    size_t savedFloor;
    explicit NoHoist(Lowerer &l) : L(l), savedFloor(l.probeFloor) {
      L.noHoist++;
      L.probeFloor = L.frames.size();
    }
    ~NoHoist() {
      L.noHoist--;
      L.probeFloor = savedFloor;
    }
  };
  ExpP bindScalar(const std::string &name, ExpP e);   // Let unless trivial
  int position(const Span &s);                         // Module::positions entry
  // reduce_by_key's histogram plan (LowerGroupByHist.cpp): where the keys
  // are integers and op applies in any order (groupsByHist), an If between
  // the histograms over the keys' range and sortPlan(). range() and cols()
  // make the element columns where they are called (the range's Reduce, the
  // histograms: each consumer its own copy, for fusion); total: the number
  // of elements; width: the number of segments of a flattened
  // reduce_by_key (null: one). Results: keys, [segment ids,] values...
  struct GroupCols {
    ExpP n;
    std::function<ExpP(const ExpP &)> key;                 // element i's key
    std::function<ExpP(const ExpP &)> seg;                 // its segment (with a width)
    std::function<std::vector<ExpP>(const ExpP &)> values; // its value's leaves
  };
  bool groupsByHist(ScalarKind keyKind, const Lambda &op, const std::vector<ScalarKind> &vks);
  std::vector<ExpP> groupByHist(const std::function<GroupCols()> &range, const std::function<GroupCols()> &cols,
                                const ExpP &total, const ExpP &width, ScalarKind keyKind, const Lambda &op,
                                const std::vector<ExpP> &ne, const std::vector<ScalarKind> &vks,
                                const std::function<std::vector<ExpP>()> &sortPlan, const Span &at);
  // An extent as the int that length() and size() return: on the host, a
  // check that it fits (an array of 2^31 elements or more), not a wrap.
  ExpP extentAs(const ExpP &n, ScalarKind k, const Span &at);
  // ix checked against extent (axis `axis` of a computed array, which has no
  // array whose reads are checked): a host Check, or in a body an in-body
  // guard folded into the index. Returns the index to read at.
  ExpP checkedIndex(const ExpP &ix, const ExpP &extent, int axis, int pos);
  // Runs f with cur = a fresh block (device code when `dev`), returning it.
  Block subBlock(bool dev, const std::function<std::vector<ExpP>()> &f);

  // ---- environment
  void bind(const std::string &name, Val v) {
    env = std::make_shared<EnvNode>(EnvNode{name, std::move(v), env, nullptr, Span{}, nullptr});
  }
  const Val *lookup(const std::string &name) const;
  void bindPattern(const Pattern &p, const Val &v, bool letBind = true);

  // ---- values
  Val lower(const ExprP &e);
  std::vector<ExpP> leaves(const Val &v, const Span &at);         // scalar/tuple leaves; arrays as vars
  Val rebuild(const TypeP &t, const std::vector<ExpP> &ls, size_t &pos); // inverse of leaves
  Val materialize(const Val &v, const Span &at);                  // Delayed -> Array (host)
  Val arrayFromVars(const TypeP &t, std::vector<ExpP> arrs);
  Val elementAt(const Val &arr, const std::vector<ExpP> &idx, int checkPos = -1);
  Val toDelayed(const Val &arr);                                  // Array -> Delayed
  ExpP extent(const Val &arr, int axis, const Span &at);          // Array/Delayed
  ExpP length(const Val &arr, const Span &at);                    // any rank-1 (Seq folds)
  // Sequential fold over a rank-1 array-like (device code).
  std::vector<ExpP> foldSeq(const Val &arr, const std::vector<ExpP> &init, const StepFn &step, const Span &at);
  Val defaultOf(const TypeP &t);

  // ---- functions
  Val apply(const Val &f, const std::vector<Val> &args, const Span &at, const TypeP &resultType = nullptr);
  Val inlineCall(const FunDecl *d, const std::vector<Val> &args, const Span &at);
  // Builds an ir::Lambda for a binary operator over elements of type t.
  Lambda opLambda(const Val &f, const TypeP &t, const Span &at);

  // ---- expressions (LowerExpr.cpp)
  Val lowerUnary(const arrc::Unary &u);
  Val lowerBinary(const arrc::Binary &b);
  Val scalarBinary(BinOp op, const Val &a, const Val &b, const Span &at);
  Val lowerIf(const arrc::If &e);
  Val deviceArrayIf(const arrc::If &e, ExpP cond, const std::vector<int> &path = {});
  Val lowerLoop(const arrc::Loop &e);
  // Loop state inside a body: arrays of constant extents as one scalar per element.
  std::vector<ExpP> scalarLeaves(const Val &v, std::vector<std::vector<int64_t>> &shapes, bool record, size_t &si,
                                 const Span &at);
  Val scalarRebuild(const TypeP &t, const std::vector<ExpP> &ls, size_t &pos,
                    const std::vector<std::vector<int64_t>> &shapes, size_t &si);
  Val lowerCall(const arrc::Call &c);
  // Element-wise operation over arrays and scalars (aggregate ops): one shape
  // Check, then a Map (host) or a Delayed (device).
  Val elementwise(const std::vector<Val> &args, const TypeP &resultType, const Span &at,
                  const std::function<Val(const std::vector<Val> &)> &f, int checkCode = 1 /* Check::Shape */);

  // ---- multiarrays (LowerMultiarray.cpp)
  Val lowerIndex(const arrc::Index &e);
  Val lowerWith(const arrc::With &e);
  Val lowerNew(const arrc::New &e);
  Val lowerArrayLit(const arrc::ArrayLit &e);
  Val arrayLitOfArrays(const arrc::ArrayLit &e, const std::vector<int64_t> &shape, const std::vector<const Expr *> &items);
  Val lowerRange(const arrc::Range &e);
  Val transposeVal(const Val &a, const Span &at);
  Val reverseVal(const Val &a, const Span &at);
  Val viewOf(const Val &a, const TypeP &t, std::vector<ExpP> shape,
             const std::function<std::vector<ExpP>(const ExpP &arr)> &weights, const Span &at);

  // ---- comprehensions (LowerComprehension.cpp)
  Val lowerComprehension(const arrc::Comprehension &c);
  Val deviceComprehension(const arrc::Comprehension &c);

  // ---- intrinsics (LowerIntrinsics.cpp)
  Val intrinsic(const std::string &name, const std::vector<Val> &args, const Span &at, const TypeP &resultType);
  Val reduceWith(const Val &arr, const Val &op, const std::vector<Val> &ne, const Span &at, const TypeP &elemT,
                 const std::string &note = "");
  Val mapVal(const Val &f, const std::vector<Val> &arrs, const Span &at, const TypeP &resultType);
  Val filterVal(const Val &p, const Val &arr, const Span &at);

  // ---- nested parallelism (LowerNested.cpp): irregular arrays in bodies
  // A Seq as an indexable value: flattened (segments of host arrays) or an
  // index function (k-th kept element, sequential), by the cost rule.
  Val indexable(const Val &v, const Span &at);
  // Inside a body: true with `out` when the cost rule flattens the
  // operation (segmented host SOACs); false after noting why it is
  // sequentialised (the caller then emits the sequential form).
  bool flattenSort(const Val *keyFn, const Val &xs, const Span &at, Val &out);
  bool flattenReduceByKey(const Val &op, const Val &ne, const Val &keys, const Val &vs, const Span &at,
                          const TypeP &rt, Val &out);
  bool flattenScan(const Val &op, const Val &ne, const Val &xs, const Span &at, Val &out);
  bool flattenHist(const Val &op, const Val &ne, const Val &bins, const Val &is, const Val &vs, const Span &at,
                   const TypeP &rt, Val &out);
  // reduce_by_key inside a body, sequential: index functions over the arguments.
  Val seqReduceByKey(const Val &op, const Val &ne, const Val &keys, const Val &vs, const Span &at, const TypeP &rt);
  // A loop in a body whose state holds arrays of varying extents: one host
  // loop over all the body's elements at once (flattened state).
  // Positioned "unsupported" error when it cannot be flattened.
  bool nestedLoop(const arrc::Loop &e, const Val &init, Val &out);
  Val lowerLoopPlain(const arrc::Loop &e, const Val &init, const TypeP &st, bool scal);
  // The same for a loop given by its parts (nestedLoop's AST loop, or a
  // comprehension in a sequential fold run as a loop filling its elements).
  struct LiftSpec {
    TypeP st;                  // the state's type
    bool isFor = true;
    Span span, initSpan, bodySpan;
    std::function<Val()> bound; // For: the count (lowered in the current env)
    // binds the state (and, For, the iteration index t of the bound's type)
    std::function<void(const Val &state, const ExpP &t, const Val &bound)> bindState;
    std::function<Val()> body;  // the new state
    std::function<ExpP()> cond; // While: continue while it holds
    std::string what = "loop";  // for the note: what is lifted, and why
    std::string why = "its state arrays vary in size, so it runs once for all elements";
  };
  bool liftLoop(const LiftSpec &s, const Val &init, Val &out);
  // A map-like comprehension in a body whose head runs a loop with state of
  // varying extents, where the loop would sit in the consumer's sequential
  // fold: made indexable by a lifted loop filling one element per iteration.
  int liftLoopProbe = 0; // inside a lifted loop's probe (inner lifted loops only expose what they read)
  int liftProbe = 0; // inside liftComprehension's probe (inner comprehensions do not probe)
  bool liftComprehension(const Val &src, const TypeP &rt, const std::function<Val(const ExpP &)> &elem,
                         const Span &at, Val &out, bool probed = false);
  // Whether touch (evaluating elements of an array of type rt as a fold
  // would) meets a loop that must be lifted but cannot be from a fold.
  // (inLoopProbe: also inside a lifted loop's probe, for a caller whose
  // lifted form is cheap there)
  bool liftNeeded(const TypeP &rt, const std::function<void()> &touch, bool inLoopProbe = false);
  // The probe under liftNeeded and fnNeedsLift: whether touch, lowered in a
  // throwaway body, meets a loop that must be lifted but cannot be there.
  bool meetsUnliftableLoop(const std::function<void()> &touch);
  // liftNeeded for f applied to the elements of the rank-1 array xs (a Seq's
  // fold, or one element at a free index).
  bool liftNeededFor(const TypeP &rt, const Val &f, const Val &xs, const Span &at);
  // ---- SOACs whose operator runs such a loop (LowerLiftedOps.cpp)
  // Whether f applied to values of argTypes meets a loop that must be
  // lifted where it is applied (in a kernel, a body's fold, an operator).
  bool fnNeedsLift(const Val &f, const std::vector<TypeP> &argTypes, const TypeP &rt, const Span &at);
  // for t < n: state = step(state, t): a host Loop, or in a body a lifted loop.
  Val loopFold(const TypeP &st, const Val &init, const ExpP &n,
               const std::function<Val(const Val &state, const ExpP &t)> &step, const Span &at,
               const std::string &what, const std::string &why);
  // reduce, scan, hist, reduce_by_key, segmented_*, expand_reduce with such an
  // operator: their sequential definitions by loopFold (true with out).
  bool liftedOperator(const std::string &name, const std::vector<Val> &args, const Span &at, const TypeP &rt,
                      Val &out);
  ExpP sumLong(const Val &arr, const Span &at); // the sum of a rank-1 long array
  // arr (rank 1) with element i set to the leaves v: an index function.
  Val setElement(const Val &arr, const ExpP &i, const std::vector<ExpP> &v, const Span &at);
  // [head | qs] in a body whose later qualifiers run such a loop reading
  // earlier variables: a loop lifted out of the body over src0 (qs[0]'s
  // source) appending, per element, [head | qs[1..]] to its state.
  Val liftQualifiers(const std::vector<Qualifier> &qs, const Val &src0, const ExprP &head, const TypeP &rt,
                     const Span &at);
  std::vector<ExprP> madeExprs; // expressions made by lowering (kept alive: index functions refer to them)
  // A Seq with nested info (what made it; an upper bound of its length).
  void tagSeq(Val &v, const std::string &what, const Span &at, ExpP bound);
  // An If whose result holds arrays, in a body (tuples of arrays included).
  Val deviceIfValue(const arrc::If &e, ExpP cond);

  // ---- functions
  void lowerExport(const FunDecl &d, Function &out);
  int mainFile = -1; // the file of the export being lowered
};

// Free variables of an expression (names only; functions/intrinsics excluded).
void freeVars(const ExprP &e, std::set<std::string> &out);

// The comprehension with its range generators narrowed by the filters that
// bound their variables (NarrowRanges.cpp), or nullptr if none does.
std::shared_ptr<const arrc::Comprehension> narrowGuardedRanges(const arrc::Comprehension &c);

} // namespace arrc::lower
