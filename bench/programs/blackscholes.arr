// Black-Scholes European option prices in single precision (float), one
// option per element: spot S, strike K, years to expiry T, with a common
// risk-free rate r and volatility v. Timed by bench/whole (arrc_bench_whole).

// The standard normal cumulative distribution function.
def float cnd(float x) = 0.5f * (1.0f + erf(x / sqrt(2.0f)));

def (float, float) price(float S, float K, float T, float r, float v) {
  let d1 = (log(S / K) + (r + 0.5f * v * v) * T) / (v * sqrt(T));
  let d2 = d1 - v * sqrt(T);
  let discount = K * exp(-r * T);
  let call = S * cnd(d1) - discount * cnd(d2);
  let put = discount * cnd(-d2) - S * cnd(-d1);
  return (call, put);
}

// The last digits vary with the device's erf/exp/log: a float tolerance.
// == test
// in: [100.0f, 110.0f] [100.0f, 100.0f] [1.0f, 0.5f] 0.05f 0.2f
// out: [(10.450576f, 5.5735264f), (14.075391f, 1.606376f)]
// tolerance: 1e-5
export (float, float)[[*]] blackscholes(float[[*]] S, float[[*]] K, float[[*]] T, float r, float v) =
  [price(s, k, t, r, v) | s <- S | k <- K | t <- T];
