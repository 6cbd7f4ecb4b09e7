// Sums per group written as masked sums over all elements
// (lowering/src/GroupSums.cpp: they become histograms). Keys outside the
// groups count nowhere; a key is read for every element once there is a
// group, a value only where its key names a group; no groups, no elements.
// Expected values worked by hand: P's rows are (1, 2), (3, 4), (5, 6), (7, 8).

// Per centre and coordinate (k-means' sums); ids one short: the read of
// ids[3] fails where there is a centre.
// == test
// in: [0, 1, 0, 2] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]] 3
// out: [[6.0, 8.0], [3.0, 4.0], [7.0, 8.0]]
// in: [0, 5, -1, 2] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]] 3
// out: [[1.0, 2.0], [0.0, 0.0], [7.0, 8.0]]
// in: [0, 1, 0] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]] 3
// error: group_sums.arr:21:13: index 3 out of bounds for axis 0 of size 3
// in: [0, 1, 0] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]] 0
// out: []
// in: [] [] 2
// out: [[], []]
export double[[*,*]] sums(int[[*]] ids, double[[*,*]] P, int k) =
  [[sum([if ids[i] == c then P[i, j] else 0.0 | i <- iota(P.size(0))]) | j <- iota(P.size(1))]
   | c <- iota(k)];

// The same transposed, the group as a filter's guard.
// == test
// in: [0, 1, 0, 2] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]] 3
// out: [[6.0, 3.0, 7.0], [8.0, 4.0, 8.0]]
// in: [0, 1] [[], []] 2
// out: []
export double[[*,*]] sums_t(int[[*]] ids, double[[*,*]] P, int k) =
  [[sum([P[i, j] | i <- iota(P.size(0)), c == ids[i]]) | c <- iota(k)] | j <- iota(P.size(1))];

// Counts per group, int and long.
// == test
// in: [0, 1, 0, 2, 7, -3] 3
// out: [2, 1, 1]
// in: [] 2
// out: [0, 0]
// in: [1, 1] 0
// out: []
export int[[*]] counts(int[[*]] ids, int k) = [count(\x -> x == c, ids) | c <- iota(k)];

// == test
// in: [0L, 1L, 0L, 2L, 7L, -3L] 3L
// out: [2L, 1L, 1L]
// in: [4000000000L, 1L] 2L
// out: [0L, 1L]
export long[[*]] counts_long(long[[*]] ids, long k) =
  [sum([1L | i <- iota(length(ids)), ids[i] == c]) | c <- [0L..<k]];

// v is read only where the key names a group: element 3 (key 9) is past v's
// end without an error; with 10 groups its key is one, and the read fails.
// == test
// in: [0, 1, 1, 9] [1.5f, 2.5f, 3.5f] 2
// out: [1.5f, 6.0f]
// in: [0, 1, 1, 9] [1.5f, 2.5f, 3.5f] 10
// error: group_sums.arr:59:29: index 3 out of bounds for axis 0 of size 3
export float[[*]] picked(int[[*]] ids, float[[*]] v, int k) =
  [sum([if ids[i] == c then v[i] else 0.0f | i <- iota(length(ids))]) | c <- iota(k)];

// Two sums per group, and the mean per group in an if's branch.
// == test
// in: [0, 1, 1, 4] [5, 6, 7] 2
// out: [13, 32]
export int[[*]] both(int[[*]] ids, int[[*]] v, int k) =
  [sum([if ids[i] == c then v[i] * 2 else 0 | i <- iota(length(ids))]) + sum([if c == ids[i] then 3 else 0 | i <- iota(length(ids))])
   | c <- iota(k)];

// == test
// in: [0, 0, 2] [[1.0, 2.0], [3.0, 6.0], [5.0, 5.0]] [[9.0, 9.0], [8.0, 8.0], [7.0, 7.0]] [2, 0, 1]
// out: [[2.0, 4.0], [8.0, 8.0], [5.0, 5.0]]
export double[[*,*]] means(int[[*]] ids, double[[*,*]] P, double[[*,*]] C, int[[*]] cnt) =
  [[if cnt[c] == 0 then C[c, j] else sum([if ids[i] == c then P[i, j] else 0.0 | i <- iota(P.size(0))]) / double(cnt[c])
    | j <- iota(C.size(1))] | c <- iota(C.size(0))];

// A pair per group: the count and the sum (both histograms, the map reads them).
// == test
// in: [0, 1, 1, 9] [1.5, 2.5, 3.5] 2
// out: [(1, 1.5), (2, 6.0)]
// in: [0, 1, 1, 1] [1.5, 2.5, 3.5] 2
// error: group_sums.arr:83:56: index 3 out of bounds for axis 0 of size 3
export (int, double)[[*]] count_sum(int[[*]] ids, double[[*]] v, int k) =
  [(count(\x -> x == c, ids), sum([if ids[i] == c then v[i] else 0.0 | i <- iota(length(ids))])) | c <- iota(k)];
