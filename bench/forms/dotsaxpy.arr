// Alternative forms (bench/forms/README.md): dot, saxpy and map+filter+count written other ways.
// Each export with a bench block is timed by bench/run_forms.sh.
// == bench
// sizes: n=10^7
// gen: [n] [n]
export float dot1(float[[*]] a, float[[*]] b) = sum([x * y | x <- a | y <- b]);
// == bench
// sizes: n=10^7
// gen: [n] [n]
export float dot2(float[[*]] a, float[[*]] b) = reduce((+), 0.0f, map(\(x, y) -> x * y, zip(a, b)));
// == bench
// sizes: n=10^7
// gen: [n] [n]
export float dot3(float[[*]] a, float[[*]] b) = sum(a * b);
// == bench
// sizes: n=10^7
// gen: [n] [n]
export float dot4(float[[*]] a, float[[*]] b) = dot(a, b);
// == bench
// sizes: n=10^7
// gen: [n] [n]
export float dot5(float[[*]] a, float[[*]] b) = sum([a[i] * b[i] | i <- iota(length(a))]);
// == bench
// sizes: n=10^7
// gen: 2.0f [n] [n]
export float[[*]] saxpy1(float s, float[[*]] x, float[[*]] y) = s * x + y;
// == bench
// sizes: n=10^7
// gen: 2.0f [n] [n]
export float[[*]] saxpy2(float s, float[[*]] x, float[[*]] y) = map(\(a, b) -> s * a + b, zip(x, y));
// == bench
// sizes: n=10^7
// gen: 2.0f [n] [n]
export float[[*]] saxpy3(float s, float[[*]] x, float[[*]] y) = [s * x[i] + y[i] | i <- iota(length(x))];
// == bench
// sizes: n=10^7
// gen: [n]:0..1000000
export int fc1(int[[*]] xs) = length(filter(\x -> x % 20 == 0, [x + 15 | x <- xs]));
// == bench
// sizes: n=10^7
// gen: [n]:0..1000000
export int fc2(int[[*]] xs) = count(\x -> x % 20 == 0, map(\x -> x + 15, xs));
// == bench
// sizes: n=10^7
// gen: [n]:0..1000000
export int fc3(int[[*]] xs) = length([x | x <- xs, (x + 15) % 20 == 0]);
// == bench
// sizes: n=10^7
// gen: [n]:0..1000000
export int fc4(int[[*]] xs) = sum([if (x + 15) % 20 == 0 then 1 else 0 | x <- xs]);
// == bench
// sizes: n=10^7
// gen: [n]:0..1000000
export int fc5(int[[*]] xs) = sum(map(\x -> if (x + 15) % 20 == 0 then 1 else 0, xs));
// == bench
// sizes: n=10^7
// gen: [n]:0..1000000
export int[[*]] fc6(int[[*]] xs) = filter(\x -> x % 20 == 0, [x + 15 | x <- xs]);
