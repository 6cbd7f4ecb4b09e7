// QA held-out: lambdas capturing parameters, tuple generators with dependent
// ranges, lets feeding generator sizes, map-over-range generators, reductions of inner
// (irregular) comprehensions, nested projections, rank-1/rank-2 aggregates, loops.
//
//   arrc run qa_mix.arr -e capture 3 "[1, 2, 3]" "[2.5, -1.5]"  ==> ([4, 5, 6], -1.5, [(3, 4)], 2)
//   arrc run qa_mix.arr -e tupgen "[(3, 1), (2, 2), (4, 2)]"  ==> [(3, 1), (3, 2), (4, 2), (4, 3)]
//   arrc run qa_mix.arr -e letsize "[2, 0, 3]"  ==> [0, 3, 0, 3]
//   arrc run qa_mix.arr -e mapdep "[3, 0, 2]"  ==> [0, 3, 6, 0, 2]
//   arrc run qa_mix.arr -e inner_red "[0, 1, 3, 4]"  ==> [0, 0, 9, 24]
//   arrc run qa_mix.arr -e maxinner "[5, 1, 20]"  ==> [4, 0, 9]
//   arrc run qa_mix.arr -e proj "((1, 2.5), 4)"  ==> (5, 2.5)
//   arrc run qa_mix.arr -e aggr1 "[1, 2, 3]" "[4, 5, 6]" "[[1.0, 2.0]]"  ==> ([8, 10, 15], [[0.5, 1.0]], [[1.0, 0.0]], [-1, -2, -3])
//   arrc run qa_mix.arr -e looppar 3  ==> [6, 6, 6]
//   arrc run qa_mix.arr -e host_nested 3  ==> [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]
export (int[[*]], double, (int, int)[[*]], int) capture(int k, int[[*]] xs, double[[*]] ds) =
  (map(\x -> x + k, xs), reduce((min), 1000.0, ds), filter(\(a, b) -> a < b, zip(xs, map(\x -> x * k - 5, xs))),
   count(\(a, _b) -> a > 1, [(x, x) | x <- xs]));
export (int, int)[[*]] tupgen((int, int)[[*]] ps) = [(a, c) | (a, b) <- ps, c <- [b..<a]];
export int[[*]] letsize(int[[*]] ns) = [x | n <- ns, let m = n * 2, x <- [0..<m], x % 3 == 0];
export int[[*]] mapdep(int[[*]] xs) = [y | x <- xs, y <- map(\z -> z * x, [0..<x])];
export int[[*]] inner_red(int[[*]] xs) = [sum([i * j | j <- [0..<i]]) | i <- xs];
export int[[*]] maxinner(int[[*]] xs) = [maximum([j | j <- [0..<10], j < i]) | i <- xs];
export (int, double) proj(((int, double), int) t) = (t.0.0 + t.1, t.0.1);
export (int[[*]], double[[*,*]], double[[*,*]], int[[*]]) aggr1(int[[*]] xs, int[[*]] ys, double[[*,*]] A) =
  (xs + ys * 2 - ys % 3, A / 2.0, 2.0 - A, -xs);
export int[[*]] looppar(int n) = loop (v = [0..<n]) for i < 3 do [x + i * y | x <- v | y <- reverse(v)];
export double[[*,*]] host_nested(int n) = loop (M = new double[[n, n]]) for i < n do M with [i, i] = double(i + 1);
