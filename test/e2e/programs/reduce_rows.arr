// Reductions over flattened regular nests (ReduceInnerLoop.cpp): on CPUs the
// innermost axis is a loop per row, on GPUs the flat Reduce. Expected values
// worked by hand: the Pythagorean triples below 26 with x <= y are (3,4,5),
// (6,8,10), (5,12,13), (9,12,15), (8,15,17), (12,16,20), (15,20,25),
// (7,24,25).

// == test
// in: 1
// out: 0
// in: 2
// out: 0
// in: 26
// out: 8
export int cube(int n) = sum([1 | x <- [1..<n], y <- [1..<n], z <- [1..<n], x * x + y * y == z * z, x <= y]);

// == test
// in: 26
// out: 8
// in: 0
// out: 0
export int cube_count(int n) =
  count(\(x, y, z) -> x * x + y * y == z * z && x < y, [(x, y, z) | x <- [1..<n], y <- [1..<n], z <- [1..<n]]);

// (sum xs) (sum ys) - len(xs) (sum ys): 3.5 * 2.5 - 2 * 2.5; an empty inner
// axis under a non-empty outer one, and the reverse
// == test
// in: [1.5, 2.0] [3.0, -1.0, 0.5]
// out: 3.75
// in: [1.5, 2.0] []
// out: 0.0
// in: [] [1.0]
// out: 0.0
export double pairs(double[[*]] xs, double[[*]] ys) = sum([x * y - y | x <- xs, y <- ys]);

// min and max (identities as neutral elements): -3 - 2 * 7, 5 * 7
// == test
// in: [1, 5, -3] [2, 7]
// out: (-17, 35)
export (int, int) minmax(int[[*]] xs, int[[*]] ys) =
  (minimum([x - 2 * y | x <- xs, y <- ys]), maximum([x * y | x <- xs, y <- ys]));

// a matrix's rows weighted: (1 + 20 + 300) + (4 + 50 + 600)
// == test
// in: [[1, 2, 3], [4, 5, 6]] [1, 10, 100]
// out: 975
export int grid(int[[*,*]] a, int[[*]] w) = sum([a[i, j] * w[j] | i <- iota(a.size(0)), j <- iota(a.size(1))]);

// a checked read in the row's loop keeps its error and position
// == test
// in: [1, 2, 3] [0, 2, 5]
// error: index 5 out of bounds for axis 0 of size 3
// in: [1, 2] [0, 1]
// out: 6
export int bad(int[[*]] xs, int[[*]] ys) = sum([xs[y] | _x <- xs, y <- ys]);
