// Expand fused with its consumer (docs/lowering.md, Passes): a reduction or
// a filter of an irregular comprehension is one `expand into reduce` /
// `expand into filter` (the expanded array is never materialised), a map or
// filter of the kept elements joins the filter, and a filter used only
// through its length is a count. Expected values from
// test/e2e/reference/fuse_reference.py (plain Python loops).
//
//   arrc run fuse_expand.arr -e pyth 1  ==> 0
//   arrc run fuse_expand.arr -e pyth 30  ==> 10
//   arrc run fuse_expand.arr -e pyth 300  ==> 207
//   arrc run fuse_expand.arr -e triples 1  ==> []
//   arrc run fuse_expand.arr -e triples 30  ==> [(3, 4, 5), (5, 12, 13), (6, 8, 10), (7, 24, 25), (8, 15, 17), (9, 12, 15), (10, 24, 26), (12, 16, 20), (15, 20, 25), (20, 21, 29)]
//   arrc run fuse_expand.arr -e wsum 0  ==> 0.0
//   arrc run fuse_expand.arr -e wsum 10  ==> 137.5
//   arrc run fuse_expand.arr -e wsum 1000  ==> 249501249.0
//   arrc run fuse_expand.arr -e lsum 0  ==> 0L
//   arrc run fuse_expand.arr -e lsum 7  ==> 266L
//   arrc run fuse_expand.arr -e lsum 2000  ==> 1999332833500L
//   arrc run fuse_expand.arr -e best 0  ==> (0, -1)
//   arrc run fuse_expand.arr -e best 5  ==> (403, 12)
//   arrc run fuse_expand.arr -e best 9  ==> (802, 16)
//   arrc run fuse_expand.arr -e evens 0  ==> []
//   arrc run fuse_expand.arr -e evens 6  ==> [20, 31, 40, 42, 51, 53]
//   arrc run fuse_expand.arr -e pairs 8  ==> [(1, 1), (1, 4), (1, 7), (2, 2), (2, 5), (4, 4), (4, 7), (5, 5), (7, 7)]
//   arrc run fuse_expand.arr -e cnt 0  ==> 0
//   arrc run fuse_expand.arr -e cnt 8  ==> 9
//   arrc run fuse_expand.arr -e cnt 500  ==> 27889
//   arrc run fuse_expand.arr -e fc "[5, 25, 45, 1, 2, 3, 65]"  ==> 4
//   arrc run fuse_expand.arr -e fc "[]"  ==> 0
//   arrc run fuse_expand.arr -e fcbig 100000  ==> 5000
//   arrc run fuse_expand.arr -e mf 0  ==> []
//   arrc run fuse_expand.arr -e mf 7  ==> [4, 6, 8, 24, 10, 30, 12, 36, 60]
//   arrc run fuse_expand.arr -e safe "[10, 20]" "[0, 5, 1, -3]"  ==> [10, 20]
//   arrc run fuse_expand.arr -e ff "[1, 5, 2]" "[0, 9, 1, 2, -1, 1]"  ==> [1, 2, 1]

// expand into reduce (int, the filters guard the element)
export int pyth(int n) = sum([1 | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z]);
// expand into filter (three components)
export (int,int,int)[[*]] triples(int n) = [(x, y, z) | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z];
// expand into reduce (double; the outer array comes from a map)
export double wsum(int n) {
  let a = [double(i % 7) * 0.5 | i <- iota(n)];
  return sum([a[i] * double(j) | i <- iota(n), j <- [0..<i]]);
}
// expand into reduce (long)
export long lsum(int n) = reduce((+), 0L, [long(x) * long(y) | x <- [0..<n], y <- [x..<n]]);
// expand into reduce with a tuple element and a non-commutative operator
// (the first element of maximal second component)
export (int, int) best(int n) =
  reduce(\a b -> if a.1 >= b.1 then a else b, (0, -1), [(x * 100 + y, (x * y) % 17) | x <- [0..<n], y <- [0..<x]]);
// expand into filter (one component; two components)
export int[[*]] evens(int n) = [x * 10 + y | x <- [0..<n], y <- [0..<x], (x + y) % 2 == 0];
export (int, int)[[*]] pairs(int n) = [(x, y) | x <- [1..<n], y <- [x..<n], (x * y) % 3 == 1];
// length of an expand into filter: an expand into reduce counting
export int cnt(int n) = length([(x, y) | x <- [1..<n], y <- [x..<n], (x * y) % 3 == 1]);
// length of a filter: a reduce counting (no compaction)
export int fc(int[[*]] xs) = length(filter(\x -> x % 20 == 0, [x + 15 | x <- xs]));
export int fcbig(int n) = length(filter(\x -> x % 20 == 0, [x * 7 + 15 | x <- iota(n)]));
// a map over the compacted elements joins the filter (under the keep flag)
export int[[*]] mf(int n) = map(\v -> v * 2, [x * y | x <- [0..<n], y <- [0..<x], y % 2 == 1]);
export int[[*]] safe(int[[*]] xs, int[[*]] is) = map(\i -> xs[i], filter(\i -> i >= 0 && i < xs.size(0), is));
// a filter of a filter: one compaction; the second test only on kept elements
export int[[*]] ff(int[[*]] xs, int[[*]] is) = filter(\i -> xs[i] > 1, filter(\i -> i >= 0 && i < xs.size(0), is));
