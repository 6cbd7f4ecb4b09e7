// Bounds-check elimination (lowering/src/BoundsChecks.cpp, docs/lowering.md):
// reads proven in range lose their checks, the others keep them, and every
// out-of-range read or failed check still raises the same error at the same
// position (the `error:` texts name the position: file:line:col).

// Rows and columns of A at counters below its own extents: no check left.
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
// out: [6.0, 15.0]
// in: [[]]
// out: [0.0]
export double[[*]] rowsums(double[[*,*]] A) = [sum([A[i, j] | j <- [0..<A.size(1)]]) | i <- [0..<A.size(0)]];

// An index read from data: checked.
// == test
// in: [10, 20, 30] [2, 0]
// out: [30, 10]
// in: [10, 20, 30] [1, 3]
// error: bounds_checks.arr:22:53: index 3 out of bounds for axis 0 of size 3
// in: [10, 20, 30] [-1]
// error: bounds_checks.arr:22:53: index -1 out of bounds for axis 0 of size 3
export int[[*]] gather(int[[*]] xs, int[[*]] ys) = [xs[ys[i]] | i <- iota(length(ys))];

// An index plus one over the whole array: checked (the last one is out).
// == test
// in: [1, 2, 3]
// error: bounds_checks.arr:30:39: index 3 out of bounds for axis 0 of size 3
// in: []
// out: []
export int[[*]] shift(int[[*]] xs) = [xs[i + 1] | i <- iota(length(xs))];

// An index plus one below length - 1: no check left.
// == test
// in: [1, 4, 9, 16]
// out: [3, 5, 7]
// in: [5]
// out: []
// in: []
// out: []
export int[[*]] diffs(int[[*]] xs) = [xs[i + 1] - xs[i] | i <- iota(length(xs) - 1)];

// The k-means distances: the zip of a row of P and a row of C is a guard in
// the loop over the centres; it becomes a host check before the map (no
// point, or no centre: nothing to check), and then no read is checked.
// == test
// in: [[0.0, 0.0], [1.0, 2.0]] [[0.0, 1.0], [2.0, 2.0]]
// out: [9.0, 3.0]
// in: [[0.0, 0.0], [1.0, 1.0]] [[0.0, 1.0, 2.0]]
// error: bounds_checks.arr:57:13: zip of arrays of unequal sizes
// in: [[0.0, 0.0, 0.0]] [[0.0, 1.0]]
// error: bounds_checks.arr:57:13: zip of arrays of unequal sizes
// in: [[0.0, 0.0], [1.0, 1.0]] [[]]
// error: bounds_checks.arr:57:13: zip of arrays of unequal sizes
// in: [[]] [[0.0, 1.0, 2.0]]
// error: bounds_checks.arr:57:13: zip of arrays of unequal sizes
export double[[*]] sqdist(double[[*,*]] P, double[[*,*]] C) =
  [sum([sum([(a - b) * (a - b) | a <- P[i, :] | b <- C[c, :]]) | c <- iota(C.size(0))]) | i <- iota(P.size(0))];

// The same sizes, but without points or without centres: nothing raises.
// == test
// in: [[0.0, 0.0], [1.0, 1.0]] [[0.0, 1.0, 2.0]]
// out: 0.0
// in: [[0.0, 0.0], [1.0, 1.0]] [[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]]
// error: bounds_checks.arr:66:17: zip of arrays of unequal sizes
export double first_empty(double[[*,*]] P, double[[*,*]] C) =
  sum([sum([sum([(a - b) * (a - b) | a <- P[i, :] | b <- C[c, :]]) | c <- iota(C.size(0) - 1)]) | i <- iota(P.size(0))]);
// == test
// in: [[0.0, 1.0]] [[0.0, 1.0, 2.0]]
// out: 0.0
// in: [[0.0, 1.0], [2.0, 2.0]] [[0.0, 1.0, 2.0]]
// error: bounds_checks.arr:75:17: zip of arrays of unequal sizes
// in: [[0.0, 1.0], [2.0, 2.0]] [[0.0, 1.0]]
// out: 0.0
export double skip_first(double[[*,*]] P, double[[*,*]] C) =
  sum([sum([sum([(a - b) * (a - b) | a <- P[i, :] | b <- C[c, :]]) | c <- iota(C.size(0))]) | i <- iota(P.size(0) - 1)]);

// A bounds guard over values fixed for the whole map (iota(5)[m]) also
// becomes a host check, raised only if the loop around it runs.
// == test
// in: [1, 2] 3 2
// out: [5, 7]
// in: [1, 2] 7 2
// error: bounds_checks.arr:88:57: index 7 out of bounds for axis 0 of size 5
// in: [1, 2] 7 0
// out: [0, 0]
// in: [] 7 2
// out: []
export int[[*]] pick(int[[*]] xs, int m, int n) = [sum([iota(5)[m] * j + x | j <- iota(n)]) | x <- xs];

// A guard over the element (iota(3)[x]) stays in the body.
// == test
// in: [0, 2]
// out: [0, 2]
// in: [0, 3]
// error: bounds_checks.arr:96:39: index 3 out of bounds for axis 0 of size 3
export int[[*]] small(int[[*]] xs) = [iota(3)[x] | x <- xs];

// A read under an if on its index: not checked in that branch.
// == test
// in: [1, 2, 3] [10, 20]
// out: [11, 22, 0]
export int[[*]] guarded(int[[*]] xs, int[[*]] ys) = [if i < length(ys) then xs[i] + ys[i] else 0 | i <- iota(length(xs))];

// Matrix product: B's rows are read at a counter below A.size(1), equal to
// B.size(0) by the zip check (raised before the map); C stays checked.
// == test
// in: [[1.0, 2.0]] [[3.0], [4.0]] [[1.0]]
// out: [[12.0]]
// in: [[1.0, 2.0]] [[3.0], [4.0], [5.0]] [[1.0]]
// error: bounds_checks.arr:114:9: zip of arrays of unequal sizes: 2 vs 3
// in: [[1.0, 2.0], [1.0, 1.0]] [[3.0], [4.0]] [[1.0]]
// error: bounds_checks.arr:114:50: index 1 out of bounds for axis 0 of size 1
export double[[*,*]] gemm(double[[*,*]] A, double[[*,*]] B, double[[*,*]] C) =
  [[sum([a * b | a <- A[i, :] | b <- B[:, j]]) + C[i, j] | j <- [0..<B.size(1)]] | i <- [0..<A.size(0)]];

// Flattened k-means sums: the flattened index k < M * d gives the row
// k / d < M and the column k % d < d, unchecked; ids (any length) is checked.
// == test
// in: [1, 0, 1] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
// out: [3.0, 4.0, 6.0, 8.0]
// in: [1] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
// error: bounds_checks.arr:124:34: index 1 out of bounds for axis 0 of size 1
export double[[*]] sums(int[[*]] ids, double[[*,*]] P) =
  hist((+), 0.0, 2 * P.size(1), [ids[i] * P.size(1) + j | i <- iota(P.size(0)), j <- iota(P.size(1))], flatten(P));

// An element of a computed array: the index guard reports the error; the
// reads behind it are checked too (the device goes on after a failed guard:
// before the pass existed, k = 10^9 read far out of xs and crashed).
// == test
// in: [1, 2, 3] [10, 20, 30] [2, 0]
// out: [33, 11]
// in: [1, 2, 3] [10, 20, 30] [1, 3]
// error: bounds_checks.arr:138:65: index 3 out of bounds for axis 0 of size 3
// in: [1, 2, 3] [10, 20, 30] [1000000000]
// error: bounds_checks.arr:138:65: index 1000000000 out of bounds for axis 0 of size 3
// in: [1, 2, 3] [10, 20] [0]
// error: bounds_checks.arr:138:65: shape mismatch: 3 vs 2
export int[[*]] addk(int[[*]] xs, int[[*]] ys, int[[*]] ks) = [(xs + ys)[k] | k <- ks];

// A zip whose size guard stays in the body (xs[z] may raise before it).
// == test
// in: [1, 2] [3, 4] [1]
// out: [22]
// in: [1, 2, 3] [3, 4] [1]
// error: bounds_checks.arr:150:74: zip of arrays of unequal sizes
// in: [1, 2, 3] [3, 4] [5]
// error: bounds_checks.arr:150:116: index 5 out of bounds for axis 0 of size 3
// in: [0, 2, 3] [3, 4] [0]
// out: [0]
export int[[*]] zipin(int[[*]] xs, int[[*]] ys, int[[*]] zs) = [sum([sum([a * b | a <- xs | b <- ys]) | _j <- iota(xs[z])]) | z <- zs];
