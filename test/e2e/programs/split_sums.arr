// Maps of few elements that each sum over one long range (SplitLongLoops.cpp:
// on GPUs the sums run in chunks over more work-items; ctest's
// e2e.split_sums runs this file with ARRC_SPLIT_LOOPS=3 on PoCL, so that the
// chunks' plan is tested here too). Expected values worked by hand. The
// sums per centre (`ids[i] == c`) become histograms (GroupSums.cpp), so the
// same shapes with `<=` keep the chunks.

// k-means' counts written per centre: 7 ids, one out of range.
// == test
// in: [0, 2, 1, 0, 2, 2, 5] 3
// out: [2, 1, 3]
// in: [] 2
// out: [0, 0]
// in: [1, 1] 0
// out: []
export int[[*]] counts(int[[*]] ids, int k) = [count(\x -> x == c, ids) | c <- iota(k)];

// How many ids are at most c, and the sums of their rows (not a group:
// every id counts for several c).
// == test
// in: [0, 2, 1, 0, 2, 2, 5] 3
// out: [2, 3, 6]
export int[[*]] counts_upto(int[[*]] ids, int k) = [count(\x -> x <= c, ids) | c <- iota(k)];

// == test
// in: [0, 1, 0, 1] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]] 2
// out: [[6.0, 8.0], [16.0, 20.0]]
export double[[*,*]] sums_upto(int[[*]] ids, double[[*,*]] P, int k) =
  [[sum([if ids[i] <= c then P[i, j] else 0.0 | i <- iota(P.size(0))]) | j <- iota(P.size(1))] | c <- iota(k)];

// k-means' sums per centre and coordinate, a masked sum over all points.
// == test
// in: [0, 1, 0, 1] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]] 2
// out: [[6.0, 8.0], [10.0, 12.0]]
// in: [1, 1, 1] [[1.5, -1.0], [2.5, -2.0], [0.5, 0.0]] 3
// out: [[0.0, 0.0], [4.5, -3.0], [0.0, 0.0]]
export double[[*,*]] sums(int[[*]] ids, double[[*,*]] P, int k) =
  [[sum([if ids[i] == c then P[i, j] else 0.0 | i <- iota(P.size(0))]) | j <- iota(P.size(1))] | c <- iota(k)];

// Two sums per element in one loop, of long and of int (the int sum wraps
// as the sequential one: 2147483656 - 2^32 = -2147483640).
// == test
// in: [5, 1, 2147483647, 3] 2
// out: [(0, -2147483640), (2147483656, -2147483636)]
export (long, int)[[*]] two(int[[*]] xs, int k) = [(sum([long(x) * long(c) | x <- xs]), sum([x + c | x <- xs])) | c <- iota(k)];

// A float dot product per row of few rows (dgemv with 3 rows and 5 columns).
// == test
// in: [[1.0f, 2.0f, 3.0f, 4.0f, 5.0f], [0.5f, 0.5f, 0.5f, 0.5f, 0.5f], [-1.0f, 0.0f, 1.0f, 0.0f, -1.0f]] [2.0f, 1.0f, 0.0f, 1.0f, 2.0f]
// out: [18.0f, 3.0f, -4.0f]
export float[[*]] dgemv(float[[*,*]] A, float[[*]] x) = [sum([A[i, j] * x[j] | j <- iota(A.size(1))]) | i <- iota(A.size(0))];

// k-means' new centres with the sum in an if's branch (a centre without
// points stays): the chunks sum for every centre, the if picks.
// == test
// in: [0, 0, 2] [[1.0, 2.0], [3.0, 6.0], [5.0, 5.0]] [[9.0, 9.0], [8.0, 8.0], [7.0, 7.0]] [2, 0, 1]
// out: [[2.0, 4.0], [8.0, 8.0], [5.0, 5.0]]
export double[[*,*]] means(int[[*]] ids, double[[*,*]] P, double[[*,*]] C, int[[*]] cnt) =
  [[if cnt[c] == 0 then C[c, j] else sum([if ids[i] == c then P[i, j] else 0.0 | i <- iota(P.size(0))]) / double(cnt[c])
    | j <- iota(C.size(1))] | c <- iota(C.size(0))];
