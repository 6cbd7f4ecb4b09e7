// k-means clustering (Lloyd's algorithm) on M points of dimension d, with k
// centres. Timed by bench/whole (arrc_bench_whole) against C++ loops.
// P is M x d (one point per row), C is k x d (one centre per row).

// The squared Euclidean distance between two points.
def double dist2(double[[*]] p, double[[*]] c) = sum([(a - b) * (a - b) | a <- p | b <- c]);

// The index of the centre nearest to p (the first one on a tie).
def int nearest(double[[*]] p, double[[*,*]] C) = argmin([dist2(p, C[c, :]) | c <- iota(C.size(0))]);

// One step: assign every point to its nearest centre, then move each centre
// to the mean of its points (a centre without points stays where it is).
def double[[*,*]] step(double[[*,*]] P, double[[*,*]] C) {
  let M = P.size(0);
  let d = P.size(1);
  let k = C.size(0);
  let ids = [nearest(P[i, :], C) | i <- iota(M)];
  let counts = hist((+), 0, k, ids, replicate(M, 1));
  let sums = hist((+), 0.0, k * d, [ids[i] * d + j | i <- iota(M), j <- iota(d)], flatten(P));
  return [[if counts[c] == 0 then C[c, j] else sums[c * d + j] / double(counts[c]) | j <- iota(d)]
          | c <- iota(k)];
}

// == test
// in: [[0.0, 0.0], [1.0, 0.0], [10.0, 10.0], [11.0, 10.0]] [[0.0, 1.0], [10.0, 9.0]]
// out: [[0.5, 0.0], [10.5, 10.0]]
export double[[*,*]] kmeans_step(double[[*,*]] P, double[[*,*]] C) = step(P, C);

// `iterations` steps from the centres C0, in one call.
export double[[*,*]] kmeans(int iterations, double[[*,*]] P, double[[*,*]] C0) =
  loop (C = C0) for _it < iterations do step(P, C);
