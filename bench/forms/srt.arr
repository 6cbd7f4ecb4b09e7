// Alternative forms (bench/forms/README.md): sorting and grouping written other ways.
// Each export with a bench block is timed by bench/run_forms.sh.
// == bench
// sizes: n=10^6
// gen: [n]
export double[[*]] s1(double[[*]] xs) = sort(xs);
// == bench
// sizes: n=10^6
// gen: [n]
export int[[*]] s2(int[[*]] xs) = sort_by(\x -> -x, xs);
// == bench
// sizes: n=10^6
// gen: [n] [n]
export (int, float)[[*]] s3(int[[*]] ks, float[[*]] vs) = sort_by(\(k, v) -> k, zip(ks, vs));
// == bench
// sizes: n=10^6
// gen: [n]
export long[[*]] s4(long[[*]] xs) = sort(xs);
// == bench
// sizes: n=10^6
// gen: [n]:0..1000
export (int[[*]], int[[*]]) s5(int[[*]] xs) = reduce_by_key((+), 0, xs, replicate(length(xs), 1));
// == bench
// sizes: n=10^6
// gen: [n]
export int s6(int[[*]] xs) = let ys = sort(xs) in length([1 | i <- iota(length(ys) - 1), ys[i] == ys[i + 1]]);
// == bench
// sizes: n=10^6, k=1000
// gen: [n]:0..999 [n] k
export float[[*]] g1(int[[*]] keys, float[[*]] vs, int k) = [sum([vs[i] | i <- iota(length(keys)), keys[i] == g]) | g <- iota(k)];
// == bench
// sizes: n=10^6, k=1000
// gen: [n]:0..999 [n] k
export float[[*]] g2(int[[*]] keys, float[[*]] vs, int k) = hist((+), 0.0f, k, keys, vs);
