// QA held-out: every section-7 library function (map ... outer), incl. empty arrays.
def bool even(int x) = x % 2 == 0;
// == test
// in: [1, 2, 3, 4] [0.5, 1.5, 2.5, 3.5]
// out: ([1, 4, 9, 16], [2, 4], [(1, 0.5), (2, 1.5), (3, 2.5), (4, 3.5)], [1, 2, 3, 4], [1.5,
//      3.5, 5.5, 7.5])
export (int[[*]], int[[*]], (int, double)[[*]], int[[*]], double[[*]]) basics(int[[*]] xs, double[[*]] ds) {
  let m = map(\x -> x * x, xs);
  let f = filter(even, xs);
  let z = zip(xs, ds);
  let (u0, u1) = unzip(z);
  return (m, f, z, u0, map(\(a, b) -> double(a) + b, zip(u0, u1)));
}
// == test
// in: [3, 1, 4, 1, 5]
// out: (14, [3, 4, 8, 9, 14], [3, 3, 4, 4, 5], [0, 1, 2, 3], 5, [7, 7, 7], [3, 1, 4, 1, 5, 9,
//      8])
export (int, int[[*]], int[[*]], int[[*]], int, int[[*]], int[[*]]) basics2(int[[*]] xs) =
  (reduce((+), 0, xs), scan((+), 0, xs), scan((max), -1000, xs), iota(4), length(xs),
   replicate(3, 7), concat(xs, [9, 8]) ++ take(0, xs));
// == test
// in: [5, 3, 9, 1, 3, 6, 4]
// out: ([1, 3, 3, 4, 5, 6, 9], [3, 9, 3, 6, 1, 4, 5], [9, 6, 5, 4, 3, 3, 1], [4, 6, 3, 1, 9, 3,
//      5], [5, 3], [9, 1, 3, 6, 4])
export (int[[*]], int[[*]], int[[*]], int[[*]], int[[*]], int[[*]]) sorts(int[[*]] xs) =
  (sort(xs), sort_by(\x -> x % 3, xs), sort_by(\x -> -x, xs), reverse(xs), take(2, xs), drop(2, xs));
// == test
// in: [2.5, -1.0, 2.5, 0.0]
// out: ([-1.0, 0.0, 2.5, 2.5], [(1, -1.0), (3, 0.0), (0, 2.5), (2, 2.5)])
export (double[[*]], (int, double)[[*]]) sortd(double[[*]] xs) =
  (sort(xs), sort_by(\(_k, v) -> v, zip(iota(length(xs)), xs)));
// == test
// in: [1, 2, 3, 4, 5]
// out: ([3, 4, 5, 1, 2], [5, 1, 2, 3, 4], [1, 2, 3, 4, 5])
export (int[[*]], int[[*]], int[[*]]) rots(int[[*]] xs) = (rotate(2, xs), rotate(-1, xs), rotate(0, xs));
// == test
// in: [2, 0, 3]
// out: ([2, 3, 3, 4, 5], [2, 0, 9], [0, 0, 0])
export (int[[*]], int[[*]], int[[*]]) expands(int[[*]] xs) =
  (expand(\x -> x, \x i -> x + i, xs),
   expand_reduce(\x -> x, \x i -> x * i, (+), 0, xs),
   expand_reduce(\x -> x + 1, \x i -> i - x, (max), -100, xs));
// == test
// in: [0.0, 0.0, 0.0, 0.0] [2, 0, 5, -1, 2]
// out: ([0.0, 0.0, 3.0, 0.0], [40, 10, 10, 30], [0.5, 0.0, 5.0], [0, 7, 0, 2])
export (double[[*]], int[[*]], double[[*]], int[[*]]) scat_gath(double[[*]] d, int[[*]] is) =
  (scatter(d, is, map(\i -> double(i) * 1.5, is)), gather([10, 20, 30, 40], [3, 0, 0, 2]),
   hist((+), 0.0, 3, is, map(\i -> double(i) + 0.5, is)), hist((max), 0, 4, [1, 1, 3, 9, -1, 3], [5, 7, 2, 100, 100, 1]));
// == test
// in: [4, 2, 4, 7, 2, 2]
// out: (([2, 4, 7], [3.0, 4.0, 3.5]), ([2, 4, 7], [1, 0, 3]), ([4, 2, 4, 2, 2], [7]))
export ((int[[*]], double[[*]]), (int[[*]], int[[*]]), (int[[*]], int[[*]])) rbk(int[[*]] ks) =
  (reduce_by_key((+), 0.0, ks, map(\k -> double(k) * 0.5, ks)),
   reduce_by_key((min), 1000, ks, iota(length(ks))),
   partition(even, ks));
// == test
// in: [2, 3, 4, 6] [1.5, -2.0, 7.25, -2.0, 7.25]
// out: (3, true, false, false, true, 15144, 12.0, 7.25, -2.0, 1, 2)
export (int, bool, bool, bool, bool, int, double, double, double, int, int) aggs(int[[*]] xs, double[[*]] ds) =
  (count(even, xs), any(even, xs), all(even, xs), any(\x -> x > 100, []), all(\x -> x > 100, []),
   sum(xs) * 1000 + product(xs), sum(ds), maximum(ds), minimum(ds), argmin(ds), argmax(ds));
// == test
// in: [true, false, false, true, true, false] [1, 5, 2, 8, 3, 4]
// out: ([1, 6, 8, 8, 3, 7], [5, 8, 4], [0, 0, 2, 2, 2, 3], [0, 1, 2, 0, 0, 1])
export (int[[*]], int[[*]], int[[*]], int[[*]]) segs(bool[[*]] fl, int[[*]] xs) =
  (segmented_scan((+), 0, fl, xs), segmented_reduce((max), -1, fl, xs), repl_iota([2, 0, 3, 1]), segm_iota(fl));
// == test
// in: [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
// out: ([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]], [1, 2, 3, 4, 5, 6], [[1, 2], [3, 4], [5, 6]],
//      [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
export (double[[*,*]], int[[*]], int[[*,*]], double[[*,*]]) shapes(double[[*,*]] A) =
  (transpose(A), flatten([[1, 2, 3], [4, 5, 6]]), unflatten(3, 2, [1, 2, 3, 4, 5, 6]), transpose(transpose(A)));
// == test
// in: [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] [2.0, -1.0]
// out: (5.0, [0.0, 2.0, 4.0], [[5.0, 11.0, 17.0], [11.0, 25.0, 39.0], [17.0, 39.0, 61.0]],
//      [[2.0, -2.0], [-1.0, 1.0]])
export (double, double[[*]], double[[*,*]], double[[*,*]]) linalg(double[[*,*]] A, double[[*]] x) =
  (dot(x, x), matvec(A, x), matmul(A, transpose(A)), outer(x, [1.0, -1.0]));
// == test
// in: []
// out: (0, 1, [], 0.0, 0, 0)
export (int, int, int[[*]], double, int, int) edge(int[[*]] xs) =
  (sum(xs), product(xs), scan((+), 0, xs), sum(map(\x -> double(x), xs)), count(even, xs), length(sort(xs)));
