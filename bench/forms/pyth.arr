// Alternative forms (bench/forms/README.md): Pythagorean triples written other ways.
// Each export with a bench block is timed by bench/run_forms.sh.
// == bench
// sizes: n=300
// gen: n
export int py1(int n) = sum([1 | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z]);
// == bench
// sizes: n=300
// gen: n
export int py2(int n) = length([(x, y, z) | x <- [1..<n], y <- [x..<n], z <- [y..<n], x*x + y*y == z*z]);
// == bench
// sizes: n=300
// gen: n
export int py3(int n) = count(\(x, y, z) -> x*x + y*y == z*z, [(x, y, z) | x <- [1..<n], y <- [x..<n], z <- [y..<n]]);
// == bench
// sizes: n=300
// gen: n
export int py4(int n) = sum([1 | x <- [1..n-1], y <- [x..n-1], let s = x*x + y*y, z <- [y..n-1], z*z == s]);
// == bench
// sizes: n=300
// gen: n
export (int, int, int)[[*]] py5(int n) = [(x, y, z) | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z];
// == bench
// sizes: n=300
// gen: n
export int py6(int n) = sum([ count(\z -> x*x + y*y == z*z, [y..<n]) | x <- [1..<n], y <- [x..<n]]);
