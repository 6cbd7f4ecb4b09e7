// QA held-out (was .qa/bugs.md QA-1, fixed): rank-3 nested comprehension.

// == test
// in: 2
// out: [[[0, 1], [10, 11]], [[100, 101], [110, 111]]]
export int[[*,*,*]] rank3comp(int n) = [[[i * 100 + j * 10 + k | k <- [0..<2]] | j <- [0..<n]] | i <- [0..<2]];

// Map kernels in work-groups rounded up past the extents (docs/codegen.md,
// "Map work-group sizes"): a rank-4 nest (one flattened axis, 1155
// elements) and a rank-2 stencil over interior rows (3 x 3 of a 5 x 3).
// == test
// in: 3 5 7 11
// out: (1426425, 2470, 1155)
export (int, int, int) rank4_rounded(int a, int b, int c, int d) {
  let X = [[[[i * 1000 + j * 100 + k * 10 + l | l <- iota(d)] | k <- iota(c)] | j <- iota(b)] | i <- iota(a)];
  return (sum(flatten(X)), X[a - 1, b - 1, c - 1, d - 1], length(flatten(X)));
}
// == test
// in: [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15]]
// out: [[8, 10, 12], [14, 16, 18], [20, 22, 24]]
export int[[*,*]] interior_rows(int[[*,*]] A) =
  [[A[i - 1, j] + A[i + 1, j] | j <- iota(A.size(1))] | i <- [1..<A.size(0) - 1]];
