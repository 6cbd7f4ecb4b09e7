// SOACs whose bodies hold several reads that can fail, each in range for the
// whole index space or not (VersionChecks.cpp: a host test of the reads'
// ranges picks the copy without checks, else the SOAC runs as written and
// raises the first error in element order). Expected values worked by hand.

// N-body's shape over a matrix of bodies: B[j, 2] and B[i, a] fail when B
// has fewer than 3 columns (the first read, in order, is B[0, 2]).
// == test
// in: [[1, 2, 3], [4, 6, 5], [0, 1, 2]]
// out: [[13, 18], [-17, -22], [23, 28]]
// in: [[1, 2], [4, 6]]
// error: versioned_reads.arr:16:10: index 2 out of bounds for axis 1 of size 2
// in: [[1], [2]]
// error: versioned_reads.arr:16:10: index 2 out of bounds for axis 1 of size 1
export int[[*,*]] pulls(int[[*,*]] B) =
  [[sum([B[j, 2] * (B[j, a] - B[i, a]) | j <- iota(B.size(0))]) | a <- iota(2)] | i <- iota(B.size(0))];

// Two reads past the element, m x n of them: in range when m and n are below
// the extents; else the first element in row-major order that reads past
// one raises (A[0, n] when n is A's width, A[m, 0] when only m is too far).
// == test
// in: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] 2 2
// out: [[6, 8], [12, 14]]
// in: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] 2 3
// error: versioned_reads.arr:31:5: index 3 out of bounds for axis 1 of size 3
// in: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] 3 2
// error: versioned_reads.arr:31:19: index 3 out of bounds for axis 0 of size 3
// in: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] 0 5
// out: []
export int[[*,*]] shifted(int[[*,*]] A, int m, int n) =
  [[A[i, j + 1] + A[i + 1, j] | j <- iota(n)] | i <- iota(m)];

// An index whose int arithmetic wraps (i * k + j with k = 2^31 - 1): the
// test requires it not to, so the checked copy runs and raises as written.
// == test
// in: [10, 11, 12, 13, 14, 15] 2 3
// out: [[10, 11], [13, 14]]
// in: [10, 11, 12, 13, 14, 15] 2 2147483647
// error: versioned_reads.arr:43:5: index 2147483647 out of bounds for axis 0 of size 6
// in: [10, 11, 12, 13, 14, 15] 3 3
// error: versioned_reads.arr:43:5: index 6 out of bounds for axis 0 of size 6
export int[[*,*]] rows(int[[*]] a, int m, int k) =
  [[a[i * k + j] | j <- iota(2)] | i <- iota(m)];

// Reads in a loop over a row of a matrix of unknown width (k-means' distance
// with d given apart from the matrices): sums of squares of differences.
// == test
// in: [[1.0, 2.0], [3.0, 5.0]] [[0.0, 0.0], [1.0, 1.0]] 2
// out: [[5.0, 1.0], [34.0, 20.0]]
// in: [[1.0, 2.0], [3.0, 5.0]] [[0.0, 0.0], [1.0, 1.0]] 3
// error: versioned_reads.arr:53:11: index 2 out of bounds for axis 1 of size 2
export double[[*,*]] dists(double[[*,*]] P, double[[*,*]] C, int d) =
  [[sum([(P[i, j] - C[c, j]) * (P[i, j] - C[c, j]) | j <- iota(d)]) | c <- iota(C.size(0))] | i <- iota(P.size(0))];

// A filter and a reduce whose element reads two arrays at i and i + 1.
// == test
// in: [1, 5, 2, 8, 3] [0, 1, 0, 1, 0, 1]
// out: ([5, 8], 8)
// in: [1, 5, 2, 8, 3] [0, 1, 0, 1, 0]
// error: versioned_reads.arr:62:41: index 5 out of bounds for axis 0 of size 5
export (int[[*]], int) picks(int[[*]] a, int[[*]] f) =
  ([a[i] | i <- iota(length(a)), f[i] + f[i + 1] == 1, f[i] == 1], sum([a[i] * f[i + 1] + f[i] | i <- iota(length(a))]));

// A kernel that can raise inside an if and one outside it (indices from
// data: neither versioned): the export checks the error record after both.
// == test
// in: [1, 2, 3] [0, 1] true
// out: [2, 3]
// in: [1, 2, 3] [0, 1] false
// out: [1, 2]
// in: [1, 2, 3] [0, 2] true
// error: index 3 out of bounds for axis 0 of size 3
// in: [1, 2, 3] [5] false
// error: index 5 out of bounds for axis 0 of size 3
export int[[*]] mixed(int[[*]] a, int[[*]] ix, bool b) {
  let g = [a[j] | j <- ix];
  return if b then [a[j + 1] | j <- ix] else g;
}
