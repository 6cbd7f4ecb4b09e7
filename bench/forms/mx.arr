// Alternative forms (bench/forms/README.md): minimum and maximum written other ways.
// Each export with a bench block is timed by bench/run_forms.sh.
// == bench
// sizes: n=10^7
// gen: [n]
export float m1(float[[*]] a) = maximum(a);
// == bench
// sizes: n=10^7
// gen: [n]
export float m2(float[[*]] a) = reduce(\x y -> if x > y then x else y, -1.0f / 0.0f, a);
// == bench
// sizes: n=10^7
// gen: [n]
export int m3(int[[*]] a) = maximum(a);
// == bench
// sizes: n=10^7
// gen: [n]
export double m4(double[[*]] a) = minimum(a);
// == bench
// sizes: n=10^7
// gen: [n]
export float m5(float[[*]] a) = sum(a);
