// The benchmark's programs written the other ways a user might write them
// (docs/performance.md, "Other forms"): each form gives the same results and
// compiles to the same kernels as the benchmark's (lit: lowering/fold-views.arr,
// lowering/loop-range-checks.arr). Expected values worked by hand.

// dgemm as a sum over k (B[k, j] read in the loop: its row range checked
// once before the map)
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
// out: [[22.0, 28.0], [49.0, 64.0]]
// in: [[1.0, 2.0, 3.0]] [[1.0], [2.0]]
// error: index 2 out of bounds for axis 0 of size 2
// in: [[1.0, 2.0]] [[1.0], [2.0], [3.0]]
// out: [[5.0]]
export double[[*,*]] mm_sum(double[[*,*]] A, double[[*,*]] B) =
  [[sum([A[i, k] * B[k, j] | k <- iota(A.size(1))]) | j <- iota(B.size(1))] | i <- iota(A.size(0))];

// dgemm through a transpose (rows of Bt are columns of B)
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
// out: [[22.0, 28.0], [49.0, 64.0]]
// in: [[1.0, 2.0, 3.0]] [[1.0], [2.0]]
// error: zip of arrays of unequal sizes
export double[[*,*]] mm_t(double[[*,*]] A, double[[*,*]] B) {
  let Bt = transpose(B);
  return [[dot(A[i, :], Bt[j, :]) | j <- iota(B.size(1))] | i <- iota(A.size(0))];
}

// matmul from the library
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
// out: [[22.0, 28.0], [49.0, 64.0]]
export double[[*,*]] mm_lib(double[[*,*]] A, double[[*,*]] B) = matmul(A, B);

// A read in a loop at k on one axis and a fixed index on the other: checked
// once before the map (the first error as the loop would raise it: the
// fixed axis at k = 0, else the k axis at its extent); no error where the
// map or the loop is empty. The same cases through the interpreter agree.
// == test
// in: [[1.0, 2.0], [3.0, 4.0]] 1 2 3
// out: [7.0, 9.0, 11.0]
// in: [[1.0, 2.0], [3.0, 4.0]] 5 1 2
// error: index 5 out of bounds for axis 0 of size 2
// in: [[1.0, 2.0], [3.0, 4.0]] -1 2 3
// error: index -1 out of bounds for axis 0 of size 2
// in: [[1.0, 2.0], [3.0, 4.0]] 1 3 2
// error: index 2 out of bounds for axis 1 of size 2
// in: [[1.0, 2.0], [3.0, 4.0]] 7 0 3
// out: [0.0, 0.0, 0.0]
// in: [[1.0, 2.0], [3.0, 4.0]] 7 3 0
// out: []
export double[[*]] rowsum(double[[*,*]] M, int r, int m, int n) = [sum([M[r, k] + double(i) | k <- iota(m)]) | i <- iota(n)];
// == test
// in: [[1.0, 2.0], [3.0, 4.0]] 1 2 3
// out: [0.0, 6.0, 12.0]
// in: [[1.0, 2.0], [3.0, 4.0]] 5 1 2
// error: index 5 out of bounds for axis 1 of size 2
// in: [[1.0, 2.0], [3.0, 4.0]] 1 3 2
// error: index 2 out of bounds for axis 0 of size 2
export double[[*]] colsum(double[[*,*]] M, int c, int m, int n) = [sum([M[k, c] * double(i) | k <- iota(m)]) | i <- iota(n)];

// N-body's per-component sums written one by one: sibling loops over the
// same array, fused into one (FuseLoops.cpp)
// == test
// in: [1.0, 2.0, 3.0] 3
// out: [(0.0, 14.0), (6.0, 17.0), (12.0, 20.0)]
// in: [] 2
// out: [(0.0, 0.0), (0.0, 0.0)]
export (double, double)[[*]] moments(double[[*]] xs, int n) =
  [(sum([x * double(i) | x <- xs]), sum([x * x + double(i) | x <- xs])) | i <- iota(n)];

// two sums that may raise stay two loops: the first one's error comes first
// == test
// in: [1.0] [2.0, 3.0] [0, 1] 1
// error: index 1 out of bounds for axis 0 of size 1
// in: [1.0, 5.0] [2.0] [0, 1] 1
// error: index 1 out of bounds for axis 0 of size 1
// in: [1.0, 5.0] [2.0, 3.0] [0, 1] 2
// out: [16.0, 16.0]
export double[[*]] tworaise(double[[*]] a, double[[*]] b, int[[*]] idx, int n) =
  [sum([a[j] | j <- idx]) + sum([b[j] * 2.0 | j <- idx]) | _i <- iota(n)];

// sort_by with the identity as its key: one sort of the keys alone (Simplify)
// == test
// in: [3, 1, 2, 1, -5]
// out: [-5, 1, 1, 2, 3]
// in: []
// out: []
export int[[*]] sort_self(int[[*]] xs) = sort_by(\x -> x, xs);
// == test
// in: [0.5, -0.0, 0.0, -2.5, 0.5]
// out: [-2.5, -0.0, 0.0, 0.5, 0.5]
export double[[*]] sort_self_d(double[[*]] xs) = sort_by(\x -> x, xs);
// a key other than the value: values permuted by the keys (stable)
// == test
// in: [3, 1, 2, 1, -5]
// out: [-5, 1, 1, 2, 3]
export int[[*]] sort_neg(int[[*]] xs) = reverse(sort_by(\x -> -x, xs));

// Stop 30's forms (docs/performance.md, "More forms"): a 3-point stencil
// over [1..<n - 1] (a map whose size the work-groups do not divide), a
// product by index (one check before the reduce: a shorter b raises at its
// length), a maximum of absolute values (CPUs: integer keys), and pow by
// 1.5 (a square root).
// == test
// in: [3.0f, 6.0f, 9.0f, 3.0f, 0.0f]
// out: [6.0f, 6.0f, 4.0f]
// in: [1.0f, 2.0f]
// out: []
export float[[*]] stencil3(float[[*]] a) = [(a[i - 1] + a[i] + a[i + 1]) / 3.0f | i <- [1..<length(a) - 1]];
// == test
// in: [1.0, 2.0, 3.0] [4.0, 5.0, 6.0, 7.0]
// out: 32.0
// in: [1.0, 2.0, 3.0] [4.0, 5.0]
// error: index 2 out of bounds for axis 0 of size 2
export double dot_by_index(double[[*]] a, double[[*]] b) = sum([a[i] * b[i] | i <- iota(length(a))]);
// == test
// in: [1.5f, -7.25f, 3.0f, -0.0f]
// out: 7.25f
export float max_abs(float[[*]] a) = maximum([abs(x) | x <- a]);
// == test
// in: [4.0f, 0.25f, 9.0f]
// out: [8.0f, 0.125f, 27.0f]
export float[[*]] pow_three_halves(float[[*]] a) = [pow(x, 1.5f) | x <- a];
