// Programs timed by bench/bench_programs.cpp (arrc_bench_programs) against
// hand-written OpenCL kernels. See docs/performance.md, "Compiled programs".
export float dot(float[[*]] a, float[[*]] b) = sum([x * y | x <- a | y <- b]);

export float[[*]] saxpy(float a, float[[*]] x, float[[*]] y) = [a * xi + yi | xi <- x | yi <- y];

def float cnd(float x) = 0.5f * (1.0f + erf(x / sqrt(2.0f)));

def (float, float) price(float S, float K, float T, float r, float v) {
  let d1 = (log(S / K) + (r + 0.5f * v * v) * T) / (v * sqrt(T));
  let d2 = d1 - v * sqrt(T);
  let discount = K * exp(-r * T);
  let call = S * cnd(d1) - discount * cnd(d2);
  let put = discount * cnd(-d2) - S * cnd(-d1);
  return (call, put);
}

export (float, float)[[*]] blackscholes(float[[*]] S, float[[*]] K, float[[*]] T, float r, float v) =
  [price(s, k, t, r, v) | s <- S | k <- K | t <- T];

export int[[*]] sorti(int[[*]] xs) = sort(xs);

export float[[*]] sortf(float[[*]] xs) = sort(xs);

export int[[*]] histo(int bins, int[[*]] xs) = hist((+), 0, bins, [x % bins | x <- xs], replicate(length(xs), 1));

export int filtersum(int[[*]] xs) = sum(filter(\x -> x % 3 == 0, xs));
