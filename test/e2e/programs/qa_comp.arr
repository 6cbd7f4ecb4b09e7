// QA held-out: comprehensions: filters, lets, sequence, zip (also of sequences),
// nested rank-2 results, irregular (expand) and dependent-filter (fallback) generators,
// fused reductions of comprehensions, empty results.

// == test
// in: 30
// out: [(3, 4, 5), (5, 12, 13), (6, 8, 10), (7, 24, 25), (8, 15, 17), (9, 12, 15), (10, 24,
//      26), (12, 16, 20), (15, 20, 25), (20, 21, 29)]
export (int, int, int)[[*]] pyth(int n) =
  [(x, y, z) | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z];
// == test
// in: [1, 2, 3, 4, 5, 7]
// out: [40, 60, 80]
export int[[*]] filt_let(int[[*]] xs) = [y * 10 | x <- xs, x % 2 == 1, let y = x + 1, y > 2];
// == test
// in: 4
// out: [(0, 0), (0, 2), (0, 4), (1, 1), (1, 3), (2, 2), (2, 4), (3, 3)]
export (int, int)[[*]] seqs(int n) = [(i, j) | i <- [0..<n], j <- [i..n], (i + j) % 2 == 0];
// == test
// in: [1.0, 2.0, 3.0] [0.5, 0.25, 2.0] [1, 2, 3]
// out: [1.5, 2.5, 9.0]
export double[[*]] zips(double[[*]] a, double[[*]] b, int[[*]] c) = [x * y + double(z) | x <- a | y <- b | z <- c];
// == test
// in: 0
// out: [5, 16, 107, 118]
export int[[*]] zipseq(int _n) = [a * 100 + b * 10 + c | a <- [0..<2], b <- [0..<2] | c <- [5..<9]];
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
// out: [[2.0, 5.0, 8.0], [8.0, 11.0, 14.0]]
export double[[*,*]] nested2(double[[*,*]] A) = [[A[i,k] * 2.0 + double(k) | k <- [0..<A.size(1)]] | i <- [0..<A.size(0)]];
// == test
// in: 3
// out: [[0, 2, 6], [0, 2, 6]]
export int[[*,*]] nested_tuple(int n) = [[i * j | (i, j) <- zip(iota(n), [1..n])] | _r <- [0..<2]];
// == test
// in: [2, 0, 3, 1]
// out: [20, 21, 30, 31, 32, 10]
export int[[*]] irregular(int[[*]] xs) = [x * 10 + i | x <- xs, i <- [0..<x]];
// == test
// in: [3, 0, 2, 4]
// out: [0, 2, 2, 4, 6]
export int[[*]] irr_tuple(int[[*]] ls) = [a + b | (a, l) <- zip(iota(length(ls)), ls), b <- iota(l), (a + b) % 2 == 0];
// == test
// in: [3, 1, 2, 5]
// out: [301, 302, 201, 503, 501, 502]
export int[[*]] depfilter(int[[*]] xs) = [x * 100 + y | x <- xs, y <- filter(\v -> v < x, xs)];
// == test
// in: 6
// out: [10, 20, 21, 30, 32, 40, 41, 43, 50, 54, 60, 61, 62, 65]
export int[[*]] depfilter2(int n) = [x * 10 + y | x <- [1..n], y <- [y2 | y2 <- [0..<x], x % (y2 + 1) == 0]];
// == test
// in: 7
// out: (462, 3, 0.6, -5, true)
export (int, int, double, int, bool) reds(int n) =
  (sum([i * j | i <- [1..n], j <- [i..n]]), count(\b -> b, [i % 3 == 0 | i <- [0..<n]]),
   maximum([double(i) * 0.5 - double(i * i) * 0.1 | i <- iota(n)]),
   minimum([x - y | x <- [0..<n] | y <- [5..<(n+5)]]),
   all(\x -> x >= 0, [i * i | i <- [-n..n]]));
// == test
// in: [0, 2, 2, 5] [1, 2, 3, 4, 5] [10, 20, 30, 40, 50]
// out: [10, 40, 90, 160, 250]
export int[[*]] comp_pointer(int[[*]] rows, int[[*]] cols, int[[*]] vals) =
  [vals[k] * cols[k] | r <- [0..<length(rows)-1], k <- [rows[r]..<rows[r+1]]];
// == test
// in: 3
// out: []
export int[[*]] empties(int n) = [x | x <- [0..<n], x > 100] ++ [y | y <- [n..<n]];
