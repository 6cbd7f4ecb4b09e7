// pythagorean.arr — all Pythagorean triples (x, y, z) with x <= y and z < n:
// the irregular comprehension of LANGUAGE.md §5 (each generator's range
// depends on the variables bound before it: flattening by expansion).

// == test
// in:  20
// out: [(3, 4, 5), (5, 12, 13), (6, 8, 10), (8, 15, 17), (9, 12, 15)]
// in:  5
// out: []
//
// == bench
// gen: 500
export (int, int, int)[[*]] triples(int n) =
  [(x, y, z) | x <- [1..<n], y <- [x..<n], z <- [y..<(x + y)], z < n, x * x + y * y == z * z];
