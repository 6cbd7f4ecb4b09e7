// Private to codegen/: the Generator walks the optimised IR once and writes
// the module's kernels (OpenCL C) and its host code (C++). Split by concern:
//   Text.cpp         types, literals, names, small text utilities
//   DeviceCode.cpp   IR expressions and scalar statements as OpenCL C,
//                    kernel signatures and launches
//   HostCode.cpp     host statements, export functions, the header layout
//   RuntimeCall.cpp  the pieces of a call to a runtime primitive: element
//                    type, operator, fused producer hooks and arguments
//   Soac*.cpp        one file per SOAC: Map and Sort keep kernels of the
//                    module; every other SOAC is a runtime primitive call
//                    with the SOAC's body fused in (docs/codegen.md)
#pragma once

#include "arrc/Codegen.h"
#include "arrc/IR.h"
#include "arrc/IRBuilder.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace arrc::cg {

using namespace ir;

// ------------------------------------------------------------------ text
struct Code {
  std::string s;
  int ind = 0;
  void line(const std::string &l);
  void open(const std::string &l);
  void close(const std::string &tail = "}");
};

std::string join(const std::vector<std::string> &v, const std::string &sep = ", ");
[[noreturn]] void fail(const std::string &msg);
std::string quote(const std::string &s); // a C++ string literal

// Scalar types: OpenCL C in registers / in buffers (bool is a byte there),
// C++ in values / in buffers.
const char *clScalar(ScalarKind k);
const char *clStore(ScalarKind k);
const char *zeroOf(ScalarKind k); // the identity of + in OpenCL C
const char *cppScalar(ScalarKind k);
const char *cppStore(ScalarKind k);
std::string cppArray(ScalarKind k, int rank);
std::string cppType(const ir::Type &t);
bool isIntegral(ScalarKind k);
bool isFloating(ScalarKind k);

// Export signatures (source types, with tuples).
std::string cppOf(const TypeP &t, int arrayRank = 0);
void flattenAccess(const TypeP &t, const std::string &expr, std::vector<std::string> &out);
// The declarations of a module's OpenCL C program `text` in C++: the array
// opencl_source of raw string literals under 64 KiB each, and opencl_text()
// joining them.
std::string sourcePieces(const std::string &text);
// Statements checking that the components of each array of tuples in
// parameter `param` (its leaves from flattenAccess) have one shape: they
// arrive as separate arrays (a std::tuple of arrays), and a shorter one
// would be read past its end. `at`: the export's position.
std::vector<std::string> componentChecks(const TypeP &t, const std::string &param, const std::string &at,
                                         const std::vector<std::string> &leaves);
std::string buildValue(const TypeP &t, const std::vector<std::string> &leaves, size_t &pos);

std::string intLit(int64_t v, ScalarKind k, bool device);
std::string floatLit(double v, ScalarKind k, bool device);

// Variables used (u) and defined (d) by IR pieces.
void usesExp(const ExpP &e, std::set<int> &s);
void usesBlock(const Block &b, std::set<int> &u, std::set<int> &d);
void usesLambda(const ir::Lambda &l, std::set<int> &u, std::set<int> &d);
void usesStmt(const Stmt &s, std::set<int> &u, std::set<int> &d);

std::string sanitize(const std::string &name);
std::string cppIdent(const std::string &name); // exportedName(name, NameRole::Function)

// Names (Names.cpp; docs/codegen.md, "Names").
enum class NameRole { Namespace, Function, Parameter };
// The C++ spelling of a module namespace, export or export parameter: the
// name itself when it is safe, else `arrc_u_<name>` (stable and injective).
std::string exportedName(const std::string &name, NameRole role);
// A C++ keyword or a macro of the C++, C, POSIX or OpenCL host headers.
bool cppReserved(const std::string &name);
// A user name reduced to letters, digits and single inner underscores (at
// most 24 characters): only a readable decoration of the names below.
std::string decoration(const std::string &hint);
// IR variable `id` (host locals, kernel parameters and locals): arrc_<id>_<hint>.
std::string localName(int id, const std::string &hint);
// Kernel `counter` of export number `function`: arrc_k<function>_<kind><counter>_<hints>.
std::string kernelName(size_t function, const std::string &kind, int counter, const std::string &fnHint,
                       const std::string &outHint);
// Fused producer number `index` in the header's detail namespace.
std::string fusedName(size_t index, const std::string &fnHint, const std::string &what);
std::string where(const Stmt &s); // "line L:C, note"

// Kernel parameters and the host expressions passed for them.
struct KernelArgs {
  std::vector<std::string> cl;   // OpenCL parameter declarations
  std::vector<std::string> host; // matching host argument expressions
  void add(const std::string &c, const std::string &h) {
    cl.push_back(c);
    host.push_back(h);
  }
  void append(const KernelArgs &o) {
    cl.insert(cl.end(), o.cl.begin(), o.cl.end());
    host.insert(host.end(), o.host.begin(), o.host.end());
  }
};

// The element type of a runtime call: one scalar, or a record of K scalars
// (arrc::ElemType::record, members f0..fK-1) laid out as the device does.
struct Element {
  std::vector<ScalarKind> kinds;
  std::string clName;   // "double", "arrc_rec_id"
  std::string hostExpr; // C++ expression of the arrc::ElemType
  size_t size = 0;
  std::vector<size_t> offsets;
  bool isRecord() const { return kinds.size() > 1; }
  // Member k of an element value `v` in OpenCL C.
  std::string field(const std::string &v, size_t k) const {
    return isRecord() ? v + ".f" + std::to_string(k) : v;
  }
};
Element elementOf(const std::vector<ScalarKind> &kinds);

// ------------------------------------------------------------------ generator
class DistEmitter; // Distributed.h

struct RowForm; // a Hist body's row and column (SoacHist.cpp)

class Generator {
  friend class DistEmitter;

public:
  explicit Generator(const ir::Module &m);
  void run();
  std::string openclSource() const;
  std::string header() const;
  // The module program, then every fused producer (for --emit=opencl).
  std::string openclListing() const;
  // "(a == b)" -> "a == b" for `if (...)` in host code (clang's -Wparentheses-equality)
  static std::string outerParensOff(const std::string &e);

private:
  const ir::Module &m_;
  std::vector<std::string> names_;
  std::string kernels_;   // the module program's kernels
  std::string functions_; // the export functions
  // Fused producer sources, in the header's detail namespace.
  struct FusedText {
    std::string id, comment, text;
  };
  std::vector<FusedText> fused_;
  bool usesDouble_ = false;
  std::string fnName_;     // the current export's name (a decoration of internal names)
  size_t fnIndex_ = 0;     // and its number
  int kernelCounter_ = 0;
  bool distributed_ = false; // a distributed overload's kernels (their indices are the rank's: SoacMap.cpp)
  std::set<int> used_; // variables referenced in the current function
  std::map<int, std::string> devAlias_;
  std::string errName_ = "arrc_err"; // the error buffer's name in device code
  bool mayRaise_ = false;            // device code of this function can raise an error
  // Kernels that can raise only inside host ifs (a versioned SOAC's checked
  // copy, VersionChecks.cpp): the export then checks the error record only
  // when one of them ran (arrc_raised), not on every call.
  int hostIfDepth_ = 0;
  bool raiseOutsideIf_ = false, raiseInIf_ = false;
  bool raisedFlag_ = false; // emitting an export by function() (which declares arrc_raised)
  // The statement position the export last set (`arrc_at`, the position an
  // out-of-memory error reports); "" where control may join other paths.
  std::string lastAt_;
  int mainFile_ = -1; // the export's file: statements elsewhere (inlined stdlib) keep the caller's position
  void setAt(const Stmt &s);
  std::string positionOf(const Span &s) const; // "file:line:col" ("" for no span)
  std::string spanAt(const Span &s) const;     // positionOf, for spans in the export's own file
  std::set<int> staged_;             // matrices whose rows the current map kernel staged
  std::set<const Exp *> uncheckedReads_; // checked reads emitted without their check (rangeReads)
  // The loop of a long row that a work-group's lanes share (SoacMapLongRows.cpp):
  // devLoop runs its counter from strideStart_ in steps of strideStep_.
  const ir::Loop *strideLoop_ = nullptr;
  std::string strideStart_, strideStep_;
  // A loop whose reads rangeReads proved in range (their check passed), run
  // with the Let `v = base + int(k)` as its int counter from base (devLoop);
  // skipLet_: that Let, not emitted in the body.
  const ir::Loop *rebaseLoop_ = nullptr;
  std::pair<int, std::string> rebase_;
  int skipLet_ = -1;
  // The CPU tile schedule of the current map kernel (SoacMapLanes.cpp): each
  // value's lane class (bit 1: the row lane, bit 2: the column lane) and the tile.
  std::map<int, int> laneClass_;
  int laneR_ = 1, laneL_ = 1;
  std::map<int, std::pair<std::string, std::string>> laneIndex_; // a lane's index as long, as int
  Code *host_ = nullptr;
  // The distributed overloads (Distributed*.cpp): text of the header's
  // ARRC_MPI section, one function per export, their own kernels.
  struct DistText {
    std::string functions, kernels;
    std::vector<std::string> exports;
    std::vector<FusedText> fused;
    bool usesDouble = false;
  } dist_;
  void distributed(const Function &f);    // appends f's overload to dist_
  std::string distributedSection() const; // the header's ARRC_MPI section

  // ---- names and types (DeviceCode.cpp)
  const std::string &name(int v) const { return names_.at(static_cast<size_t>(v)); }
  const ir::Type &typeOf(int v) const { return m_.vars.at(static_cast<size_t>(v)).type; }
  std::string devName(int v) const;
  bool isGuard(int v) const; // a lowering guard array (Module::guards)
  void noteType(ScalarKind k);
  std::string decl(int v, bool dev);

  // ---- expressions and scalar statements (DeviceCode.cpp); dev: OpenCL C, else C++
  std::string exp(const ExpP &e, bool dev);
  std::string binary(const ExpP &e, bool dev);
  std::string call(const ExpP &e, bool dev);
  std::string read(const ExpP &e, bool dev);
  void devBlock(Code &c, const Block &b);
  void devStmt(Code &c, const Stmt &s);
  void loopAssign(Code &c, const ir::Loop &x, bool dev);
  void devLoop(Code &c, const ir::Loop &x, bool declareOuts);
  // rebase: a body Let `v = base + int(k)` (int) that checked reads go
  // through, and its base (devLoop's rebased counter), if any.
  std::set<const Exp *> rangeReads(const ir::Loop &x, const std::string &count, std::vector<std::string> &conds,
                                   std::pair<int, std::string> *rebase = nullptr);

  // ---- module kernels (DeviceCode.cpp)
  KernelArgs freeArgs(const std::set<int> &vars);
  static std::set<int> freeOf(const std::vector<const Block *> &blocks,
                              const std::vector<const ir::Lambda *> &lambdas,
                              const std::vector<int> &bound);
  std::string newKernel(const std::string &kind, const Stmt &s);
  // A finished kernel whose array parameters are read only at `a[... + a_wR]`
  // (R: the rank, the offset's weight) with `a += a_wR;` at its start and
  // the offset gone from each read (DeviceCode.cpp).
  static std::string rebaseArrays(const std::string &kernel);
  void beginKernel(Code &k, const std::string &name, const std::string &comment,
                   const std::vector<std::string> &params);
  // unit: a host condition under which the kernel runs in the module's
  // unit-stride program (ARRC_LW(w) = 1: last axes read with stride 1, which
  // CPU compilers vectorise); empty: always the general program.
  std::string launch(const std::string &kernel, const std::string &global, const std::string &local,
                     const std::vector<std::string> &args, const std::string &unit = "");
  // "A.weight(r-1) == 1 && ..." over the arrays among vars ("" if none).
  std::string unitStride(const std::set<int> &vars) const;
  std::vector<const ExpP *> sumTerms(const ir::Loop &x, bool integers) const; // per state variable, or none
  std::vector<const ExpP *> splitSum(const ir::Loop &x) const; // per state variable, or none
  bool ifConvertible(const ir::If &x, int &budget) const;

  // ---- host code (HostCode.cpp)
  void h(const std::string &l) { host_->line(l); }
  void hostBlock(const Block &b);
  void hostStmt(const Stmt &s);
  void soac(const Stmt &s); // hostStmt of a SOAC
  void check(const Check &x);
  void function(const Function &f);
  static std::string helpers();

  // ---- runtime calls (RuntimeCall.cpp)
  // A hook of the runtime's fused-producer protocol: binds IR variables to
  // the hook's parameters, emits the block, then `tail` with the block's
  // result expressions (already in OpenCL C).
  using HookTail = std::function<void(Code &, const std::vector<std::string> &)>;
  std::string hook(const std::string &signature, const std::vector<std::pair<int, std::string>> &binds,
                   const Block &body, const HookTail &tail, const std::vector<std::string> &prologue = {});
  // Tails: return the results [from, from + el.kinds.size()) as one element.
  HookTail returnElement(const Element &el, size_t from = 0);
  HookTail returnResult(size_t k, const std::string &cast = "");
  // The store hook writing element members to the arrays `outs` (from member `from`).
  std::string storeHook(const Element &el, size_t outs, size_t from = 0);
  // Registers fused source text; returns the C++ expression naming it.
  std::string fusedSource(const std::string &what, const std::string &at, const std::string &text);
  // Host statements: `static const arrc::ElemType <var>`.
  void elemDecl(const Element &el, const std::string &var = "et");
  // Host statements defining `arrc::Operator <var>` for the lambda and
  // neutral elements of the SOAC `at` over the element type; true if the
  // runtime may treat it as commutative.
  // lifted: the element has a leading member f0 (whether it holds a value),
  // the operator is lifted over it and its neutral element is (false, 0..):
  // an identity whatever `ne` is (hist with a neutral that is not one).
  bool operatorDecl(const Stmt &at, const ir::Lambda &op, const std::vector<ExpP> &ne,
                    const Element &el, const std::string &var = "op", bool lifted = false);
  // Whether `ne` is an identity of `op` that codegen can see (+ 0, * 1, min, max).
  static bool neutralIsIdentity(const ir::Lambda &op, const std::vector<ExpP> &ne);
  // Host statements defining `arrc::Fused <var>` with `source` and the free
  // variables as arguments (plus the error buffer; plus the array
  // variables `outs` as arrc_o<k> for a store hook).
  void fusedDecl(const std::string &var, const std::string &source, const std::set<int> &vars,
                 const std::vector<int> &outs = {});
  void fusedArg(const std::string &var, int v, const std::string &prefix);
  // Host statements reading the element in `buf` (a BufferPtr) into vars;
  // checked: with the device error record, in the same round trip.
  void readElement(const Element &el, const std::string &buf, const std::vector<int> &vars,
                   bool checked);
  std::vector<ScalarKind> kindsOf(const std::vector<int> &vars) const;

  static const char *divModHelpers(); // integer / and % of generated code
  // The weight of an array's last axis in index arithmetic: the weight itself,
  // or 1 in the unit-stride variant of a program (launch, fusedDecl).
  static const char *kUnitStrideDefault() { return "#ifndef ARRC_LW\n#define ARRC_LW(w) (w)\n#endif\n"; }
  std::string liftedHistStore(const Hist &x, const Element &el);
  std::string rowHooks(const Hist &x, const RowForm &f, const HookTail &bin, const HookTail &load);
  std::string segmentedSource(const std::string &what, const Stmt &s, int index, const Block &body,
                              const Element &el, size_t outs);

  // ---- SOACs (Soac*.cpp)
  void map(const Map &x);
  // CPU schedule of maps without loops: blocks of elements (SoacMap.cpp)
  void chunkKernel(Code &k, const Map &x, const std::vector<std::string> &dims, const std::function<void()> &store);
  // CPU tile schedule of map nests (SoacMapLanes.cpp)
  bool lanePlan(const Map &x);
  void laneKernel(Code &k, const Map &x, const std::vector<std::string> &dims, const std::function<void()> &store);
  void laneTile(Code &k, const Map &x, const std::vector<std::string> &dims, const std::function<void()> &store,
                bool edge, bool gpu = false);
  // GPU tile schedule of the same map nests (2-3 axes; SoacMapLanes.cpp)
  bool gpuLanePlan(const Map &x) const;
  // global and local NDRange, and the number of tiles (work-items)
  std::array<std::string, 3> gpuLaneRange(const std::vector<std::string> &dims) const;
  void gpuLaneKernel(Code &k, const Map &x, const std::vector<std::string> &dims, const std::function<void()> &store);
  bool laneAnalyze(const Block &b);
  // GPU schedule of a map whose element ends in a sum over an irregular
  // range (SoacMapLongRows.cpp): rows longer than a threshold shared by
  // their work-group's lanes
  static constexpr int kLongRowGroup = 256; // its work-group (the local arrays' length)
  const ir::Loop *longRowLoop(const Map &x) const;
  void longRowPart(Code &k, const Map &x, const ir::Loop &loop, const std::function<void()> &store);
  bool laneGathers(const Block &b, bool inLoop) const;
  bool laneInterchangeable(const ir::Loop &x) const;
  int laneClassOf(const ExpP &e) const;
  int laneClassOf(const Stmt &s) const;
  void laneOpen(Code &c, int cls);
  void laneClose(Code &c, int cls);
  void laneDecl(Code &c, int v, int cls);
  void laneBlock(Code &c, const Block &b);
  void laneStmt(Code &c, const Stmt &s);
  void reduce(const Reduce &x);
  void scan(const Scan &x);
  void segScan(const SegScan &x);
  void filter(const Filter &x);
  void segReduce(const SegReduce &x);
  void scatter(const Scatter &x);
  void hist(const Hist &x);
  void multiHist(const MultiHist &x);
  // Row staging (SoacMap.cpp): the matrices a body reads by rows of its
  // index, and the copy of a work-group's rows into local memory.
  std::vector<int> stagedRows(const Block &body, int index, const std::set<int> &free, bool otherReads) const;
  static void stageCopy(Code &k, const std::string &n, const std::string &type, const std::string &lid,
                        const std::string &L);
  std::vector<std::string> stagePrologue(const std::vector<int> &staged); // SoacMultiHist.cpp
  void sort(const Sort &x);
  void expand(const Expand &x);
};

} // namespace arrc::cg
