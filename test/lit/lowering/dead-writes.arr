// Arrays only written go with their writes, and a for-each map left with
// nothing to do that cannot raise goes too (DeadCode.cpp). Here the
// segments of the zip's filtered generator are flattened (counts, offsets,
// a fill of their elements), but the sums need only the counts (the zip's
// size check) and v: the fill was a pass over every id per group for nothing.
// RUN: %arrc --emit=lowered %s | FileCheck %s --check-prefix=LOWERED
// RUN: %arrc --emit=ir %s | FileCheck %s
// LOWERED-LABEL: export sums(
// LOWERED: alloc(
// LOWERED: write flat_
// CHECK-LABEL: export sums(
// CHECK-NOT: alloc(
// CHECK-NOT: write
// CHECK: hist bins
// CHECK-NOT: write
// CHECK: yield t_
export float[[*]] sums(int[[*]] ids, float[[*]] v, int k) = [sum([x | x <- v | g <- ids, g == c]) | c <- iota(k)];
