// Expand fused with its consumer (docs/lowering.md, Passes): a reduction or
// a filter of an irregular comprehension is one `expand into reduce` /
// `expand into filter` (the expanded array is never materialised), a map or
// filter of the kept elements joins the filter, and a filter used only
// through its length is a count. Expected values from
// test/e2e/reference/fuse_reference.py (plain Python loops).

// expand into reduce (int, the filters guard the element)
// == test
// in: 1
// out: 0
// in: 30
// out: 10
// in: 300
// out: 207
export int pyth(int n) = sum([1 | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z]);
// a filter between the generators (an expand into filter feeding the
// reduce; on CPUs one expand into reduce whose pairs fold their z's in a
// loop where the filter keeps them: FuseExpandLoop)
// == test
// in: 1
// out: 0
// in: 30
// out: 9
// in: 300
// out: 157
export int pythf(int n) =
  sum([1 | x <- [1..<n], y <- [x..<n], (x + y) % 3 != 0, z <- [y..<(x+y)], z < n, x*x + y*y == z*z]);
// the same with a double sum and ranges that start at 0
// == test
// in: 0
// out: 0.0
// in: 1
// out: 0.0
// in: 12
// out: 600.0
// in: 200
// out: 51189072.0
export double wfilt(int n) =
  sum([double(x) * 0.5 + double(z) | x <- [0..<n], y <- [0..<x], (x * y) % 3 == 1, z <- [y..<x]]);
// expand into filter (three components)
// == test
// in: 1
// out: []
// in: 30
// out: [(3, 4, 5), (5, 12, 13), (6, 8, 10), (7, 24, 25), (8, 15, 17), (9, 12, 15), (10, 24,
//      26), (12, 16, 20), (15, 20, 25), (20, 21, 29)]
export (int,int,int)[[*]] triples(int n) = [(x, y, z) | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z];
// expand into reduce (double; the outer array comes from a map)
// == test
// in: 0
// out: 0.0
// in: 10
// out: 137.5
// in: 1000
// out: 249501249.0
export double wsum(int n) {
  let a = [double(i % 7) * 0.5 | i <- iota(n)];
  return sum([a[i] * double(j) | i <- iota(n), j <- [0..<i]]);
}
// expand into reduce (long)
// == test
// in: 0
// out: 0L
// in: 7
// out: 266L
// in: 2000
// out: 1999332833500L
export long lsum(int n) = reduce((+), 0L, [long(x) * long(y) | x <- [0..<n], y <- [x..<n]]);
// expand into reduce with a tuple element and a non-commutative operator
// (the first element of maximal second component)
// == test
// in: 0
// out: (0, -1)
// in: 5
// out: (403, 12)
// in: 9
// out: (802, 16)
export (int, int) best(int n) =
  reduce(\a b -> if a.1 >= b.1 then a else b, (0, -1), [(x * 100 + y, (x * y) % 17) | x <- [0..<n], y <- [0..<x]]);
// expand into filter (one component; two components)
// == test
// in: 0
// out: []
// in: 6
// out: [20, 31, 40, 42, 51, 53]
export int[[*]] evens(int n) = [x * 10 + y | x <- [0..<n], y <- [0..<x], (x + y) % 2 == 0];
// == test
// in: 8
// out: [(1, 1), (1, 4), (1, 7), (2, 2), (2, 5), (4, 4), (4, 7), (5, 5), (7, 7)]
export (int, int)[[*]] pairs(int n) = [(x, y) | x <- [1..<n], y <- [x..<n], (x * y) % 3 == 1];
// length of an expand into filter: an expand into reduce counting
// == test
// in: 0
// out: 0
// in: 8
// out: 9
// in: 500
// out: 27889
export int cnt(int n) = length([(x, y) | x <- [1..<n], y <- [x..<n], (x * y) % 3 == 1]);
// length of a filter: a reduce counting (no compaction)
// == test
// in: [5, 25, 45, 1, 2, 3, 65]
// out: 4
// in: []
// out: 0
export int fc(int[[*]] xs) = length(filter(\x -> x % 20 == 0, [x + 15 | x <- xs]));
// == test
// in: 100000
// out: 5000
export int fcbig(int n) = length(filter(\x -> x % 20 == 0, [x * 7 + 15 | x <- iota(n)]));
// a map over the compacted elements joins the filter (under the keep flag)
// == test
// in: 0
// out: []
// in: 7
// out: [4, 6, 8, 24, 10, 30, 12, 36, 60]
export int[[*]] mf(int n) = map(\v -> v * 2, [x * y | x <- [0..<n], y <- [0..<x], y % 2 == 1]);
// == test
// in: [10, 20] [0, 5, 1, -3]
// out: [10, 20]
export int[[*]] safe(int[[*]] xs, int[[*]] is) = map(\i -> xs[i], filter(\i -> i >= 0 && i < xs.size(0), is));
// a filter of a filter: one compaction; the second test only on kept elements
// == test
// in: [1, 5, 2] [0, 9, 1, 2, -1, 1]
// out: [1, 2, 1]
export int[[*]] ff(int[[*]] xs, int[[*]] is) = filter(\i -> xs[i] > 1, filter(\i -> i >= 0 && i < xs.size(0), is));
