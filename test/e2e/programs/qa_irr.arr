// QA held-out: irregular generators whose Size/Fetch go through sections, zip, let,
// map over sections, three-level irregular nests, fused sums with filters; expected
// values from Python list comprehensions.

// == test
// in: [2, 0, 3, 1]
// out: [2, 0, 3, 2, 2, 0, 3, 1, 2, 0]
export int[[*]] secdep(int[[*]] xs) = [y | x <- xs, y <- xs[0:x]];
// == test
// in: [2, 0, 3]
// out: [(0, 2), (1, 3), (0, 3), (1, 4), (2, 5)]
export (int, int)[[*]] zipdep(int[[*]] xs) = [p | x <- xs, p <- zip(iota(x), [x..<(2*x)])];
// == test
// in: [1, 3, 2]
// out: [11, 31, 33, 21]
export int[[*]] letdep(int[[*]] xs) = [x * 10 + y | x <- xs, let r = [1..x], y <- r, y != 2];
// == test
// in: 4
// out: [210, 310, 320, 321]
export int[[*]] triple(int n) = [x * 100 + y * 10 + z | x <- [0..<n], y <- [0..<x], z <- [0..<y]];
// == test
// in: [1, 2, 0, 3]
// out: [2, 0, 3, 0, 6, 0, 0, 0, 0, 9]
export int[[*]] mapsec(int[[*]] xs) = [y | x <- xs, y <- map(\v -> v * x, xs[x:length(xs)-1])];
// == test
// in: 12
// out: 54390
export int tri_sum(int n) = sum([x * y * z | x <- [1..n], y <- [x..n], z <- [y..n], (x + y + z) % 2 == 0]);
// == test
// in: [1, 2, 5, 3]
// out: [3, 5, 7, 9, 3, 5]
export int[[*]] filt_then_irr(int[[*]] xs) = [y | x <- xs, x > 1, y <- [x..<(x * 2)], y % 2 == 1];
