// QA held-out: lambdas capturing parameters, tuple generators with dependent
// ranges, lets feeding generator sizes, map-over-range generators, reductions of inner
// (irregular) comprehensions, nested projections, rank-1/rank-2 aggregates, loops.

// == test
// in: 3 [1, 2, 3] [2.5, -1.5]
// out: ([4, 5, 6], -1.5, [(3, 4)], 2)
export (int[[*]], double, (int, int)[[*]], int) capture(int k, int[[*]] xs, double[[*]] ds) =
  (map(\x -> x + k, xs), reduce((min), 1000.0, ds), filter(\(a, b) -> a < b, zip(xs, map(\x -> x * k - 5, xs))),
   count(\(a, _b) -> a > 1, [(x, x) | x <- xs]));
// == test
// in: [(3, 1), (2, 2), (4, 2)]
// out: [(3, 1), (3, 2), (4, 2), (4, 3)]
export (int, int)[[*]] tupgen((int, int)[[*]] ps) = [(a, c) | (a, b) <- ps, c <- [b..<a]];
// == test
// in: [2, 0, 3]
// out: [0, 3, 0, 3]
export int[[*]] letsize(int[[*]] ns) = [x | n <- ns, let m = n * 2, x <- [0..<m], x % 3 == 0];
// == test
// in: [3, 0, 2]
// out: [0, 3, 6, 0, 2]
export int[[*]] mapdep(int[[*]] xs) = [y | x <- xs, y <- map(\z -> z * x, [0..<x])];
// == test
// in: [0, 1, 3, 4]
// out: [0, 0, 9, 24]
export int[[*]] inner_red(int[[*]] xs) = [sum([i * j | j <- [0..<i]]) | i <- xs];
// == test
// in: [5, 1, 20]
// out: [4, 0, 9]
export int[[*]] maxinner(int[[*]] xs) = [maximum([j | j <- [0..<10], j < i]) | i <- xs];
// == test
// in: ((1, 2.5), 4)
// out: (5, 2.5)
export (int, double) proj(((int, double), int) t) = (t.0.0 + t.1, t.0.1);
// == test
// in: [1, 2, 3] [4, 5, 6] [[1.0, 2.0]]
// out: ([8, 10, 15], [[0.5, 1.0]], [[1.0, 0.0]], [-1, -2, -3])
export (int[[*]], double[[*,*]], double[[*,*]], int[[*]]) aggr1(int[[*]] xs, int[[*]] ys, double[[*,*]] A) =
  (xs + ys * 2 - ys % 3, A / 2.0, 2.0 - A, -xs);
// == test
// in: 3
// out: [6, 6, 6]
export int[[*]] looppar(int n) = loop (v = [0..<n]) for i < 3 do [x + i * y | x <- v | y <- reverse(v)];
// == test
// in: 3
// out: [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]
export double[[*,*]] host_nested(int n) = loop (M = new double[[n, n]]) for i < n do M with [i, i] = double(i + 1);
