// Nested SOACs flattened through an expand whose segments all have one
// size (lowering/src/RegularExpand.cpp: the expand becomes a map over
// segments x size, which fuses into the histogram). A histogram per column
// of P over the same ids: bins out of range ignored, the zip of ids with a
// column checked (and only where there is a column), no columns, no bins.
// Expected values worked by hand: column 0 of P is 1, 3, 5, 7, column 1 is
// 2, 4, 6, 8.

// == test
// in: [0, 1, 0, 2] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]] 3
// out: [[6.0, 3.0, 7.0], [8.0, 4.0, 8.0]]
// in: [0, 5, -1, 2] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]] 3
// out: [[1.0, 0.0, 7.0], [2.0, 0.0, 8.0]]
// in: [0, 1, 0] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]] 3
// error: regular_expand.arr:23:4: zip of arrays of unequal sizes
// in: [1] [[]] 3
// out: []
// in: [] [] 3
// out: []
// in: [0, 1] [[1.0, 2.0], [3.0, 4.0]] 0
// out: [[], []]
export double[[*,*]] colsums(int[[*]] ids, double[[*,*]] P, int k) =
  [hist((+), 0.0, k, ids, P[:, j]) | j <- iota(P.size(1))];

// Many chunks (PoCL) and work-groups: P[i, j] = i * d + j, ids[i] = i % k,
// so with t = m / k rows per id, column j's sum for id c is
// t*c*d + k*d*t*(t-1)/2 + t*j (integers: exact in any order).
// == test
// in: 100000 20 10
// out: 0.0
// in: 99995 3 7
// out: 0.0
export double colsums_big(int m, int d, int k) {
  let P = [[double(i * d + j) | j <- iota(d)] | i <- iota(m)];
  let ids = [i % k | i <- iota(m)];
  let S = colsums(ids, P, k);
  let t = double(m / k);
  return maximum([abs(S[j, c] - (t * double(c * d) + double(k * d) * t * (t - 1.0) / 2.0 + t * double(j)))
                  | j <- iota(d), c <- iota(k)]);
}
