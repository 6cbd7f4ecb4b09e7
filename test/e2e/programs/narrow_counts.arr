// Counts folded in a loop per element count on an int accumulator where the
// trip count allows (lowering/src/NarrowCounts.cpp): `length` of a filtered
// comprehension and `sum([1L | ..])`. Expected values from Python loops.

// == test
// in: 30
// out: 10
// in: 150
// out: 87
// in: 2
// out: 0
export int triples(int n) =
  length([(x, y, z) | x <- [1..<n], y <- [x+1..<n], z <- [y+1..<n], x*x + y*y == z*z]);

// == test
// in: 40
// out: 633L
// in: 120
// out: 6557L
// in: 0
// out: 0L
export long ones(int n) = sum([1L | x <- [1..<n], y <- [x+1..<n], z <- [y..<n], (x + z) % y == 1]);
