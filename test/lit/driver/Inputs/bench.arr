// A bench block with sizes, gen: (shapes, a value range, a scalar), bytes:;
// a test block for the second export (its inputs are timed when there is no
// bench block).
// == bench
// sizes: n=1000, m=n/10
// gen: [n] [m]:0..n-1 2.5
// bytes: 8*n + 4*m
// in: [1.0, 2.0] [0] 1.0
export double pick(double[[*]] xs, int[[*]] is, double s) = s * sum([xs[i] | i <- is]);

// == test
// in: [3, 1, 2]
// out: [1, 2, 3]
// in: []
// out: []
export int[[*]] sorted(int[[*]] xs) = sort(xs);

export int[[*]] get(int[[*]] xs, int i) = [xs[i]];
