// Private: the IR passes run by optimize() (Optimize.cpp), one per file.
#pragma once

#include "arrc/IRBuilder.h"

namespace arrc::passes {
void simplify(ir::Module &m);     // Simplify.cpp
bool regularExpand(ir::Module &m); // RegularExpand.cpp (expands of one size for every segment: maps; true if any)
bool segmentHist(ir::Module &m);  // SegmentHist.cpp (histograms binned by an expand's segment ids: a fold per segment; true if any)
bool histOrder(ir::Module &m);    // HistOrder.cpp (histograms over two flattened indices walk along rows; true if any)
bool selectAccumulate(ir::Module &m); // SelectAccumulate.cpp (a filtered fold's step as a select; true if any)
bool reduceInnerLoop(ir::Module &m); // ReduceInnerLoop.cpp (a reduce over a flattened nest: its innermost axis a loop on CPUs; true if any)
bool narrowCounts(ir::Module &m); // NarrowCounts.cpp (counting loops in device code on an int accumulator; true if any)
bool groupSums(ir::Module &m);    // GroupSums.cpp (masked sums per group: histograms; true if any)
bool fuse(ir::Module &m);         // Fuse.cpp + FuseHorizontal.cpp + FuseMultiHist.cpp (true if something fused)
void fuseLoops(ir::Module &m);   // FuseLoops.cpp (sibling device loops of one count as one)
void deadCode(ir::Module &m);     // DeadCode.cpp
void boundsChecks(ir::Module &m); // BoundsChecks.cpp (checks proven to pass are removed)
void foldViews(ir::Module &m);  // FoldViews.cpp (reads through a transpose read its source)
void versionChecks(ir::Module &m); // VersionChecks.cpp (SOACs whose reads' ranges a host test covers: two versions)
void splitLongLoops(ir::Module &m); // SplitLongLoops.cpp (maps of few elements, each a long sum: the sums in chunks)
void cse(ir::Module &m);          // CSE.cpp (repeated subexpressions in device code)
void hoist(ir::Module &m);        // Hoist.cpp (loop-invariant Lets out of device loops)
void jamLoops(ir::Module &m);     // JamLoops.cpp (two steps of a loop over an inner loop, jammed)
} // namespace arrc::passes
