// The number of Pythagorean triples x <= y < z < n (x*x + y*y == z*z) by
// brute force over an irregular comprehension (each generator's range
// depends on the variables bound before it), reduced by sum: nothing is
// materialised. Timed by bench/whole (arrc_bench_whole).

// == test
// in: 20
// out: 5
export int count_triples(int n) =
  sum([1 | x <- [1..<n], y <- [x..<n], z <- [y..<(x + y)], z < n, x * x + y * y == z * z]);
