// Alternative forms (bench/forms/README.md): matrix-vector forms, softmax, convolution, reversal, outer products, clamping, smoothing.
// Each export with a bench block is timed by bench/run_forms.sh.
// == bench
// sizes: n=2000
// gen: [n, n] [n]
export double[[*]] mv2(double[[*,*]] A, double[[*]] x) = [sum(A[i, :] * x) | i <- iota(A.size(0))];
// == bench
// sizes: n=2000
// gen: [n, n] [n]
export double[[*]] mv3(double[[*,*]] A, double[[*]] x) = matvec(A, x);
// == bench
// sizes: n=10^7
// gen: [n]
export float[[*]] softmax(float[[*]] xs) {
  let m = maximum(xs);
  let e = [exp(x - m) | x <- xs];
  let s = sum(e);
  return [v / s | v <- e];
}
// == bench
// sizes: n=10^6, m=15
// gen: [n] [m]
export float[[*]] conv(float[[*]] a, float[[*]] w) =
  [sum([a[i + k] * w[k] | k <- iota(length(w))]) | i <- iota(length(a) - length(w) + 1)];
// == bench
// sizes: n=10^7
// gen: [n]
export float[[*]] rev(float[[*]] a) = reverse(a);
// == bench
// sizes: n=3000
// gen: [n] [n]
export float[[*,*]] outerp(float[[*]] x, float[[*]] y) = outer(x, y);
// == bench
// sizes: n=10^7
// gen: [n]:0..1000
export int[[*]] clamp1(int[[*]] xs) = [min(max(x, 10), 900) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]
export float[[*]] smooth(float[[*]] a) = [if i == 0 || i == length(a) - 1 then a[i] else (a[i - 1] + a[i] + a[i + 1]) / 3.0f | i <- iota(length(a))];
