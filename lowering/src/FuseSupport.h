// Private: what the fusion rules (Fuse.cpp, FuseHorizontal.cpp, FuseMultiHist.cpp) share: use
// counts, "read only at the consumer's own index" tests, read replacement,
// the index space of a SOAC, and DimFacts (which extents are known equal).
#pragma once

#include "Passes.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace arrc::passes {

// Number of references of each variable (expressions and Write targets),
// nested blocks included.
void countExp(const ir::ExpP &e, std::map<int, int> &c);
void countStmt(const ir::Stmt &s, std::map<int, int> &c);
void countBlock(const ir::Block &b, std::map<int, int> &c);
// Whether statement s references any of vars.
bool usesAny(const ir::Stmt &s, const std::vector<int> &vars);

// The index space of a SOAC with one per-element body (Map, Reduce, Scan,
// Filter, Scatter, Hist, SegScan, SegReduce; not Expand).
struct Space {
  std::vector<ir::ExpP> dims;
  std::vector<int> index;
  ir::Block *body = nullptr;
};
bool spaceOf(ir::Stmt &s, Space &sp);

bool sameDims(const std::vector<ir::ExpP> &a, const std::vector<ir::ExpP> &b);

// Adds to `good` the number of reads of `arr` in b at exactly the index vars idx.
void readsAtIndex(const ir::Block &b, int arr, const std::vector<int> &idx, int &good);
// Replaces every Read(arr, ...) in b by repl[arr].
void replaceReads(ir::Block &b, const std::map<int, ir::ExpP> &repl);

// True if n is the length of array `out`: Shape(out, 0), or a variable bound
// by a Let of b to that value and used only here (then letUses = 1).
bool isLengthOf(const ir::ExpP &n, int out, const ir::Block &b, std::map<int, int> &uses, int &letUses);

// The index of the first statement after `pi` that uses one of `outs`
// (a Let taking only the length Shape(outs[0], 0) is skipped), or -1.
int firstConsumer(const ir::Block &b, size_t pi, const std::vector<int> &outs);

// A Loop for k < count folding the elements of `elem` (its statements and
// results, already reading the counter `index`) into `ne` with `op`, whose
// outs are fresh "part" variables (the sequential fold of an inner level:
// Fuse.cpp's small inner sizes, FuseExpandLoop.cpp).
std::shared_ptr<ir::Loop> foldLoop(ir::Module &m, const ir::ExpP &count, int index, const ir::Block &elem,
                                   const ir::Lambda &op, const std::vector<ir::ExpP> &ne);

// Equalities of host extents known before statement `upto` of a block:
// Let-bound scalars are looked through, Shape of a Map output or a View is
// its dims, and the two sides of each `==` asserted by an earlier Check
// (Shape, ZipSize: `check ZipSize (a == b)`) are the same size.
class DimFacts {
public:
  DimFacts(const ir::Block &b, size_t upto);
  bool equal(const ir::ExpP &a, const ir::ExpP &b);
  bool equalDims(const std::vector<ir::ExpP> &a, const std::vector<ir::ExpP> &b);
  ir::ExpP canon(const ir::ExpP &e, int depth = 0);

private:
  std::string find(const std::string &k);
  void assume(const ir::ExpP &cond);
  std::map<int, ir::ExpP> lets_;
  std::map<int, std::vector<ir::ExpP>> shapes_;
  std::map<std::string, std::string> parent_;
};

// Horizontal fusion in one block (FuseHorizontal.cpp): true if it fused.
bool fuseHorizontal(ir::Module &m, ir::Block &b);
// A Map and the Hists reading it as one MultiHist (FuseMultiHist.cpp), in
// an If whose other branch keeps them as they were (the device chooses).
bool fuseMultiHist(ir::Module &m, ir::Block &b, std::map<int, int> &uses, const std::set<int> &resultVars);
extern const char *const kDevicePlansNote;     // FuseMultiHist's
extern const char *const kExpandLoopPlansNote; // FuseExpandLoop's
extern const char *const kReduceRowsPlansNote; // ReduceInnerLoop's
// An If of plans by device (FuseMultiHist's, FuseExpandLoop's, ReduceInnerLoop's): its
// then-branch the CPUs' plan, its else-branch the GPUs'.
bool isDevicePlans(const ir::Stmt &s);
// An Expand (pi) read only by an Expand into Reduce (ci) as its outer
// elements: on CPUs one Expand into Reduce whose element folds the second
// level in a loop, in an If whose other branch keeps both (FuseExpandLoop.cpp).
bool fuseExpandLoop(ir::Module &m, ir::Block &b, size_t pi, size_t ci, std::map<int, int> &uses,
                    const std::set<int> &resultVars);

} // namespace arrc::passes
