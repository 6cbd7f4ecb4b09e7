// blackscholes.arr — European call and put prices by the Black-Scholes
// formula, one option per element: spot S, strike K, years to expiry T, with
// a common risk-free rate r and volatility v.


// The standard normal cumulative distribution function.
def double cnd(double x) = 0.5 * (1.0 + erf(x / sqrt(2.0)));

def (double, double) price(double S, double K, double T, double r, double v) {
  let d1 = (log(S / K) + (r + 0.5 * v * v) * T) / (v * sqrt(T));
  let d2 = d1 - v * sqrt(T);
  let discount = K * exp(-r * T);
  let call = S * cnd(d1) - discount * cnd(d2);
  let put = discount * cnd(-d2) - S * cnd(-d1);
  return (call, put);
}

// The last digits may differ with the device's erf/exp/log: compared to 1e-12.
// == test
// tolerance: 1e-12
// in:  [100.0, 110.0] [100.0, 100.0] [1.0, 0.5] 0.05 0.2
// out: [(10.450583572185565, 5.573526022256971), (14.075384036381692, 1.606375239214966)]
//
// == bench
// sizes: n=10^6
// gen:   [n]:50..150 [n]:50..150 [n]:0.1..2 0.05 0.2
// bytes: 40*n
export (double, double)[[*]] blackscholes(double[[*]] S, double[[*]] K, double[[*]] T,
                                          double r, double v) =
  [price(s, k, t, r, v) | s <- S | k <- K | t <- T];
