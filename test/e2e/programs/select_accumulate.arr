// Filtered folds in device code as selects (SelectAccumulate.cpp). Expected
// values worked by hand.

// row sums of the elements above 0.5: [0.6 + 0.9, 0 (none), 2.0 + 0.75];
// -0.0 elements kept give +0.0 (the sum starts at 0.0), as before
// == test
// in: [[0.6, 0.1, 0.9], [0.2, 0.5, -1.0], [2.0, 0.75, 0.3]]
// out: [1.5, 0.0, 2.75]
// in: [[-0.0, -0.0]]
// out: [0.0]
export double[[*]] rows(double[[*,*]] A) = [sum(filter(\x -> x > 0.5 || x == 0.0, A[i, :])) | i <- iota(A.size(0))];

// products of the non-zero elements: [2 * 3, 1 (none), -4]
// == test
// in: [[2L, 0L, 3L], [0L, 0L, 0L], [-4L, 0L, 1L]]
// out: [6L, 1L, -4L]
export long[[*]] prods(long[[*,*]] A) = [product([x | x <- A[i, :], x != 0L]) | i <- iota(A.size(0))];

// a guarded read stays under its If: indices out of range are dropped, not read
// == test
// in: [[0, 5, -1, 2], [7, 1, 1, -9]] [10, 20, 30]
// out: [40, 40]
export int[[*]] guarded(int[[*,*]] A, int[[*]] ys) =
  [sum([ys[x] | x <- A[i, :], x >= 0 && x < length(ys)]) | i <- iota(A.size(0))];

// float sums of squares of the negative elements, per row: [1 + 4, 0.25]
// == test
// in: [[-1.0f, 3.0f, -2.0f], [0.5f, -0.5f, 9.0f]]
// out: [5.0f, 0.25f]
export float[[*]] negsq(float[[*,*]] A) = [sum([x * x | x <- A[i, :], x < 0.0f]) | i <- iota(A.size(0))];
