// Alternative forms (bench/forms/README.md): Black-Scholes written with arrays of doubles and aggregate operations.
// Each export with a bench block is timed by bench/run_forms.sh.
// Black-Scholes written with arrays of doubles and aggregate operations.
def double cnd(double x) = 0.5 * (1.0 + erf(x / sqrt(2.0)));
// == bench
// sizes: n=10^6
// gen: [n]:10..100 [n]:10..100 [n]:1..3 0.02 0.3
export (double[[*]], double[[*]]) bs1(double[[*]] S, double[[*]] K, double[[*]] T, double r, double v) {
  let d1 = [(log(s / k) + (r + 0.5 * v * v) * t) / (v * sqrt(t)) | s <- S | k <- K | t <- T];
  let d2 = [a - v * sqrt(t) | a <- d1 | t <- T];
  let disc = [k * exp(-r * t) | k <- K | t <- T];
  let call = [s * cnd(a) - dk * cnd(b) | s <- S | a <- d1 | b <- d2 | dk <- disc];
  let put = [dk * cnd(-b) - s * cnd(-a) | s <- S | a <- d1 | b <- d2 | dk <- disc];
  return (call, put);
}
// == bench
// sizes: n=10^6
// gen: [n]:10..100 [n]:10..100 [n]:1..3 0.02 0.3
export double[[*]] bs2(double[[*]] S, double[[*]] K, double[[*]] T, double r, double v) {
  let d1 = (log(S / K) + (r + 0.5 * v * v) * T) / (v * sqrt(T));
  let d2 = d1 - v * sqrt(T);
  return S * map(cnd, d1) - K * exp(-r * T) * map(cnd, d2);
}
// == bench
// sizes: n=10^6
// gen: [n]:10..100 [n]:10..100 [n]:1..3 0.02 0.3
export double[[*]] bs3(double[[*]] S, double[[*]] K, double[[*]] T, double r, double v) {
  let d1 = [(log(s / k) + (r + 0.5 * v * v) * t) / (v * sqrt(t)) | s <- S | k <- K | t <- T];
  let d2 = [a - v * sqrt(t) | a <- d1 | t <- T];
  return [s * cnd(a) - k * exp(-r * t) * cnd(b) | s <- S | k <- K | t <- T | a <- d1 | b <- d2];
}
