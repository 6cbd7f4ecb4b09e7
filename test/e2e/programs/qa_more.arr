// QA held-out: import, generics with function params, aliases, arrays of tuples
// (in, out, unzip, sort_by), rows as views, column update, empty arrays, long/float,
// loops inside comprehensions and parallel work inside host loops.
import "inc/qa_helper";
type pair = (int, double);
type mat = double[[*,*]];
<T> def T[[*]] twice((T) -> T f, T[[*]] xs) = map(\x -> f(f(x)), xs);
<T> def T[[*]] grev(T[[*]] xs) = xs[xs.size(0)-1 : 0 : -1];
def double rowsum(double[[*]] r) = sum(r);
def int inc(int x) = x + 1;
// == test
// in: [1, 2, 3] [1.5, 2.0, 0.5]
// out: ([3, 4, 5], [5.0625, 16.0, 0.0625], [(3, 0.5), (2, 2.0), (1, 1.5)], [9, 6, 3])
export (int[[*]], double[[*]], pair[[*]], int[[*]]) generic(int[[*]] xs, double[[*]] ds) =
  (twice(inc, xs), twice(\d -> d * d, ds), grev(zip(xs, ds)), grev(map(triple, xs)));
// == test
// in: [(1, 0.5), (-1, 2.0), (3, 1.5)]
// out: ([2, 6], [1.5, 2.5])
export (int[[*]], double[[*]]) tuparr(pair[[*]] ps) {
  let (is, ds) = unzip([(i * 2, d + 1.0) | (i, d) <- ps, i > 0]);
  return (is, ds);
}
// == test
// in: [(3, 0.5), (1, 2.0), (3, 1.5), (0, 9.0)]
// out: [(0, 9.0), (1, 2.0), (3, 0.5), (3, 1.5)]
export pair[[*]] tupsort(pair[[*]] ps) = sort_by(\(i, _d) -> i, ps);
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
// out: ([6.0, 15.0], [[2.0, 3.0, 4.0], [5.0, 6.0, 7.0]], [8.0, 10.0, 12.0], 17.0)
export (double[[*]], mat, double[[*]], double) rows(mat A) =
  ([rowsum(A[i, :]) | i <- [0..<A.size(0)]], exp(A * 0.0) + A, [x * 2.0 | x <- A[1, :]],
   sum([A[i, j] | i <- [0..<A.size(0)], j <- [i..<A.size(1)]]));
// == test
// in: [[1.0, 2.0], [3.0, 4.0]]
// out: [[9.0, 2.0], [8.0, 10.0]]
export mat colset(mat A) {
  let B = A with [:, 0] = [9.0, 8.0];
  let C = B with [1, 1] = B[0, 0] + 1.0;
  return C;
}
// == test
// in: []
// out: ([], [], [], ([], []), ([], []), [0, 0])
export (int[[*]], int[[*]], int[[*]], (int[[*]], int[[*]]), (int[[*]], int[[*]]), int[[*]]) empties(int[[*]] xs) =
  (sort(xs), scan((+), 0, xs), [x | x <- [5..2]], reduce_by_key((+), 0, xs, xs), partition(\x -> x > 0, xs),
   hist((+), 0, 2, xs, xs));
// == test
// in: 0
// out: ([[], [], []], 3, 0)
export (double[[*,*]], int, int) empty2(int n) {
  let A = new double[[n, 3]];
  let T = transpose(A);
  return (T, T.size(0), T.size(1));
}
// == test
// in: 3L
// out: (30L, [3L, 9L, 27L], 5.0f)
export (long, long[[*]], float) longs(long n) =
  (reduce((+), 0L, [long(i) * n | i <- [0..<5]]), scan((*), 1L, replicate(3, n)), sum([float(i) * 0.5f | i <- [1..4]]));
// == test
// in: [1, 2, 3]
// out: [6, 12, 18]
export int[[*]] loopcomp(int[[*]] xs) = [ loop (acc = 0) for i < length(xs) do acc + xs[i] * k | k <- [1..3] ];
// == test
// in: [4.0, 0.5, 2.0]
// out: [1.0, 0.125, 0.5]
export double[[*]] hostloop_par(double[[*]] xs) =
  loop (v = xs) while maximum(v) > 1.0 do [x / 2.0 | x <- v];
// == test
// in: [(1, 2, 3), (4, 5, 6)]
// out: (5, 36, 2)
export (int, int, int) tup3((int, int, int)[[*]] ts) =
  (sum([a | (a, _, _) <- ts]), sum([b * c | (_, b, c) <- ts]), length(ts));
// == test
// in: [1, 2] [3, 4, 5]
// out: [[3, 4, 5], [6, 8, 10]]
export int[[*,*]] nested_zip(int[[*]] xs, int[[*]] ys) = [[x * y | y <- ys] | x <- xs];
// == test
// in: [[1, 2, 3, 4], [5, 6, 7, 8]]
// out: [2, 3, 4, 7, 8, 9]
export int[[*]] gen_sect(int[[*,*]] A) = [x + i | i <- [0..<A.size(0)], x <- A[i, 1:A.size(1)-1]];
