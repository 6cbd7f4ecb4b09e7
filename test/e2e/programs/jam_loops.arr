// Unroll-and-jam (lowering/src/JamLoops.cpp): an argmin over the centres of
// the distance to each runs two centres per step with one inner loop over
// the coordinates, then the last centre of an odd count alone. Every count
// of centres from 0 to 5, ties (the first nearest wins), and a fold whose
// inner loop depends on the outer index (not jammed). Expected values by
// hand: the squared distances are in the comments.

def double dist2(double[[*]] a, double[[*]] b) = sum([(x - y) * (x - y) | x <- a | y <- b]);

// point [0, 0]: centres [3, 4] (25), [1, 1] (2), [0, 2] (4), [1, -1] (2), [5, 5] (50);
// points [9, 9] -> centre 4 (32 vs 61, 128, 130, 164), [0, 1.5] -> centre 2 (0.25)
// == test
// in: [[0.0, 0.0]] [[3.0, 4.0], [1.0, 1.0], [0.0, 2.0], [1.0, -1.0], [5.0, 5.0]]
// out: [1]
// in: [[0.0, 0.0]] [[3.0, 4.0], [1.0, 1.0], [0.0, 2.0], [1.0, -1.0]]
// out: [1]
// in: [[0.0, 0.0]] [[3.0, 4.0], [1.0, 1.0], [0.0, 2.0]]
// out: [1]
// in: [[0.0, 0.0]] [[3.0, 4.0], [1.0, 1.0]]
// out: [1]
// in: [[0.0, 0.0]] [[3.0, 4.0]]
// out: [0]
// in: [[0.0, 0.0]] []
// out: [-1]
// in: [[9.0, 9.0], [0.0, 1.5]] [[3.0, 4.0], [1.0, 1.0], [0.0, 2.0], [1.0, -1.0], [5.0, 5.0]]
// out: [4, 2]
export int[[*]] nearest(double[[*,*]] P, double[[*,*]] C) =
  [argmin([dist2(P[i, :], C[c, :]) | c <- iota(C.size(0))]) | i <- iota(P.size(0))];

// The largest distance (argmax), float coordinates, three dimensions.
// point [1, 1, 1]: centres [1, 1, 1] (0), [2, 3, 1] (5), [0, 0, 0] (3)
// == test
// in: [[1.0f, 1.0f, 1.0f]] [[1.0f, 1.0f, 1.0f], [2.0f, 3.0f, 1.0f], [0.0f, 0.0f, 0.0f]]
// out: [1]
export int[[*]] farthest(float[[*,*]] P, float[[*,*]] C) =
  [argmax([sum([(x - y) * (x - y) | x <- P[i, :] | y <- C[c, :]]) | c <- iota(C.size(0))]) | i <- iota(P.size(0))];

// An inner loop whose count depends on the outer index: sum over c < n of
// (sum of x[j] for j < c). x = [1, 2, 3, 4]: 0 + 1 + 3 + 6 = 10.
// == test
// in: [1, 2, 3, 4]
// out: [10]
export int[[*]] triangle(int[[*]] xs) =
  [sum([sum([xs[j] | j <- iota(c)]) | c <- iota(length(xs))]) | _r <- iota(1)];
