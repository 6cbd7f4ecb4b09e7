// Private to codegen/: the distributed overload of an export (docs/
// distributed.md). For every export the header gains
//   R f(arrc::Cluster &cl, <arrays as arrc::DistArray>...)
// computing what f(ctx, ...) computes, with the work split among the ranks
// and MPI collectives between the steps, chosen here from the IR:
//
//   Distributed.h          this planner/emitter and its data
//   DistributedPlan.cpp    the analysis: how an array is held (replicated or
//                          block-distributed), which rows a SOAC body reads
//                          (interval code evaluated at run time), anchors
//   DistributedEmit.cpp    the overload's frame, host statements, control
//                          flow, conversions between forms, the header text
//   DistributedSoacs.cpp   one lowering per SOAC: the local SOAC (the
//                          single-device emitter on a rewritten copy) plus
//                          the collective that completes it
//
// Two phases, because the rewrite adds IR variables and the Generator names
// variables once, when it is made: planning rewrites statements into a copy
// of the module and records the output as closures; then a Generator over
// the copy runs them.
#pragma once

#include "Generator.h"

#include "arrc/IRBuilder.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace arrc::cg {

// How an array variable of a distributed overload is held on the ranks:
// replicated (an arrc::Array with all of it on every rank) or
// block-distributed along axis 0 (an arrc::DistArray).
enum class Form { R, B };

class DistEmitter {
public:
  DistEmitter(Generator &outer, const Function &f);
  // Appends f's overload to the outer generator's distributed section.
  void run();

private:
  using Emit = std::function<void()>;
  struct Scope {
    std::vector<Emit> steps;
    std::map<int, int> rforms; // block-distributed var -> its replicated copy
  };

  // ---- how a SOAC body reads the block-distributed arrays (DistributedPlan.cpp)
  struct Reads {
    // per block-distributed array: the axis-0 index of each read
    std::map<int, std::vector<ExpP>> rows;
    std::set<int> whole;       // arrays whose rows cannot be bounded (or whose weights are read)
    int anchor = -1;           // the array whose rows the index space follows
    ExpP factor;               // rows = index / factor (null: 1)
  };
  // The definitions inside a SOAC's blocks that index intervals look through.
  struct Body {
    std::map<int, ExpP> lets;  // body Let: var -> value
    std::map<int, ExpP> loops; // body Loop index: var -> count
    std::set<int> defined;     // every variable the blocks define
    int index = -1;            // the SOAC's own index
    int inner = -1;            // Expand's inner index
    ExpP innerSize;            // its bound (the size block's result)
  };
  Body bodyOf(const std::vector<const Block *> &blocks, int index, int inner = -1, ExpP innerSize = nullptr) const;
  Reads readsOf(const std::vector<const Block *> &blocks, const Body &b) const;
  bool readsArrays(const std::vector<const Block *> &blocks, bool anyArray) const;
  bool worthDistributing(const std::vector<const Block *> &blocks) const;
  ExpP strip(const ExpP &e, const Body &b, int depth = 0) const;
  bool hostOnly(const ExpP &e, const Body &b) const;
  // Interval code (C++ over arrc::dist::Iv) of an index expression; `any`
  // when it cannot be bounded at all. Names only in phase 2 (named = true).
  std::string iv(const ExpP &e, const Body &b, bool &any, bool named, int depth = 0) const;

  // ---- planning (DistributedEmit.cpp)
  void block(const Block &b);
  void stmt(const Stmt &s);
  void hostStmt(const Stmt &s);   // a host statement as on one device (host expressions fixed)
  void ifStmt(const ir::If &x);
  void loopStmt(const ir::Loop &x);
  void replicated(const Stmt &s); // every rank runs the statement on whole arrays
  // the clone of a statement for the local run (blocks deep-copied, `sub` applied)
  StmtP localClone(const Stmt &s, std::map<int, ExpP> &sub);
  ExpP hostExp(const ExpP &e);    // Weight of a distributed array -> of its replicated copy

  // ---- SOACs (DistributedSoacs.cpp)
  // The part of an index space of n elements this rank runs: emits the
  // partition, lo and cnt (new host vars), the windows of the arrays the
  // blocks read, and fills `sub` (arrays -> windows or replicated copies).
  struct Space {
    int lo = -1, cnt = -1;   // this rank's first index and count (host vars)
    std::string partName;    // the C++ shared_ptr<const arrc::Partition> of the space
    Emit open;               // phase 2: the partition, lo, cnt and the windows
  };
  Space space(const ExpP &n, const std::vector<const Block *> &blocks, const Body &b, std::map<int, ExpP> &sub);
  // Makes the clone's index i' (new) and prepends `let i = lo + i'` to each block.
  int offsetIndex(int index, const Space &sp, const std::vector<Block *> &blocks);
  void map(const Map &x);
  void filter(const Filter &x);
  void reduce(const Reduce &x);
  void scan(const Scan &x);
  void segScan(const SegScan &x);
  void segReduce(const SegReduce &x);
  void hist(const Hist &x);
  void multiHist(const MultiHist &x);
  template <class S>
  void reduceScatterHists(const S &x, const std::vector<std::string> &ops, const std::string &label);
  void sort(const Sort &x);
  void expand(const Expand &x);
  // Folds the allgathered partial results (vars `parts`, K scalars of this
  // rank) with `op` in rank order over the ranks (all, or those before this
  // one) whose part of `sp` is not empty, into `acc`; `have` says whether
  // any rank contributed.
  // Phase 2 (C++ names): `acc` and `have` are assigned.
  void combine(const std::vector<int> &parts, const ir::Lambda &op, const Space &sp,
               const std::vector<std::string> &acc, const std::string &have, bool onlyBefore);
  bool opReadsArrays(const ir::Lambda &op) const; // an operator capturing arrays runs replicated
  // The operator inlined: new statements computing op(a, b) appended to `into`; returns the results.
  std::vector<ExpP> inlineOp(const ir::Lambda &op, const std::vector<ExpP> &a, const std::vector<ExpP> &b,
                             Block &into);
  ir::Lambda liftedSegOp(const ir::Lambda &op);

  // ---- helpers
  Form formOf(int v) const;
  void setForm(int v, Form f);
  bool isGuard(int v) const; // a lowering guard (Module::guards): never allocated
  bool isArray(int v) const { return m_.vars.at(static_cast<size_t>(v)).type.rank > 0; }
  const ir::Type &typeOf(int v) const { return m_.vars.at(static_cast<size_t>(v)).type; }
  int newVar(const std::string &name, ir::Type t);
  int rform(int v);  // the replicated copy of a block-distributed var (cached per scope)
  void emit(Emit e) { scopes_.back().steps.push_back(std::move(e)); }
  void run(const std::vector<Emit> &steps) {
    for (auto &e : steps) e();
  }
  // phase 2 (closures only)
  Generator &g() { return *g_; }
  const std::string &N(int v) const { return g_->name(v); }
  void h(const std::string &l) { g_->h(l); }
  std::string declAs(int v);            // "arrc::DistArray<T, D> x" or the Generator's decl
  std::string distType(int v) const;    // "arrc::DistArray<T, D>"
  std::string asForm(int v, Form to);   // expression of var v converted to a form

  // ---- the whole overload (DistributedEmit.cpp)
  void plan();
  std::string emitFunction(bool distributedBody, const std::string &why);

  Generator &outer_;
  const Function &f_;
  ir::Module m_; // the module, plus the variables the rewrite adds
  std::unique_ptr<Generator> g_;
  std::map<int, Form> form_;
  std::map<int, size_t> level_; // scope depth where an array var was defined
  std::vector<Scope> scopes_;
  std::set<int> used_;          // variables the emitted code uses (for [[maybe_unused]])
  int soacCounter_ = 0;
};

} // namespace arrc::cg
