// optimize(): the fixed pass order (docs/lowering.md):
//   1. simplify   (constant folding, copy/shape propagation, CSE)
//   2. deadCode
//   3. fuse       (producer-consumer and horizontal) and regularExpand
//                 (expands of one size for every segment become maps), each
//                 round followed by simplify + deadCode, until neither
//                 changes anything
//   4. segmentHist (a histogram binned by an expand's segment ids: a fold
//                 per segment), histOrder  (a histogram over two flattened
//                 indices walks along rows), reduceInnerLoop (a reduce
//                 over a flattened nest folds its innermost axis in a loop
//                 on CPUs),
//      fuseLoops  (sibling device loops of one count as one loop), simplify,
//                 deadCode
//   5. boundsChecks (reads and guards proven in range lose their checks;
//                 guards met first by every element become host Checks),
//                 foldViews (unchecked reads through a transpose read its
//                 source), simplify, deadCode
//      versionChecks (a SOAC whose checked reads a host test of their
//                 ranges covers: if the test holds, a copy without them)
//      groupSums  (sums per group written as masked sums over all elements
//                 become histograms; simplify + deadCode after each round)
//      splitLongLoops (a map of few elements, each a long sum: the sums
//                 in chunks over more work-items, where the device says so)
//   6. jamLoops   (a loop over an inner loop: two steps per step, the inner
//                 loops as one; k-means' argmin over distances)
//      narrowCounts (counting loops in device code on an int accumulator
//                 where the trip count allows)
//      cse        (repeated subexpressions in device code)
//      selectAccumulate (a filtered fold's step `if c then acc + e else acc`
//                 as `acc + select(c, e, 0)`: a plain reduction)
//   7. hoist      (loop-invariant Lets out of device loops), simplify, deadCode
// Inlining happens during lowering (every internal call is inlined there).
#include "Passes.h"
#include "arrc/Lowering.h"

namespace arrc {

void optimize(ir::Module &module) {
  passes::simplify(module);
  passes::deadCode(module);
  for (int round = 0; round < 20; ++round) {
    // an expand's sizes are seen to be one size once fusion put them in it
    const bool fused = passes::fuse(module);
    if (!passes::regularExpand(module) && !fused) break;
    passes::simplify(module);
    passes::deadCode(module);
  }
  if (passes::segmentHist(module)) {
    passes::simplify(module);
    passes::deadCode(module);
  }
  passes::histOrder(module);
  passes::reduceInnerLoop(module);
  passes::fuseLoops(module);
  passes::simplify(module);
  passes::deadCode(module);
  passes::boundsChecks(module);
  passes::foldViews(module);
  passes::simplify(module);
  passes::deadCode(module);
  passes::versionChecks(module);
  for (int round = 0; round < 8 && passes::groupSums(module); ++round) {  // one sum per Map a round
    passes::simplify(module);
    passes::deadCode(module);
  }
  passes::splitLongLoops(module);
  passes::jamLoops(module);
  passes::narrowCounts(module);
  passes::cse(module);
  passes::selectAccumulate(module);
  passes::hoist(module);
  passes::simplify(module);
  passes::deadCode(module);
}

} // namespace arrc
