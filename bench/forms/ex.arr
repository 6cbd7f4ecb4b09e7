// Alternative forms (bench/forms/README.md): expand-shaped comprehensions written other ways.
// Each export with a bench block is timed by bench/run_forms.sh.
// == bench
// sizes: n=10^7
// gen: [n]:1..2
export float[[*]] e1(float[[*]] xs) = [exp(x) | x <- xs];
// == bench
// sizes: n=10^7
// gen: [n]:1..2
export float[[*]] e2(float[[*]] xs) = [exp(x - 2.0f) | x <- xs];
// == bench
// sizes: n=10^7
// gen: [n]:1..2 2.0f
export float[[*]] e3(float[[*]] xs, float m) = [exp(x - m) | x <- xs];
