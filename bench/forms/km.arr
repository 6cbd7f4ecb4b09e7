// Alternative forms (bench/forms/README.md): k-means' parts written other ways: the assignment, the counts, the sums per centre.
// Each export with a bench block is timed by bench/run_forms.sh.
def double d2(double[[*,*]] P, int i, double[[*,*]] C, int c) =
  sum([(P[i, j] - C[c, j]) * (P[i, j] - C[c, j]) | j <- iota(P.size(1))]);

// == bench
// sizes: m=10^5, d=20, k=10
// gen: [m, d]:0..100 [k, d]:0..100
export int[[*]] assign1(double[[*,*]] P, double[[*,*]] C) =
  [argmin([d2(P, i, C, c) | c <- iota(C.size(0))]) | i <- iota(P.size(0))];

// == bench
// sizes: m=10^5, d=20, k=10
// gen: [m, d]:0..100 [k, d]:0..100
export int[[*]] assign2(double[[*,*]] P, double[[*,*]] C) =
  [reduce(\(da, ia) (db, ib) -> if db < da then (db, ib) else (da, ia), (1.0e300, -1),
          [(d2(P, i, C, c), c) | c <- iota(C.size(0))]).1 | i <- iota(P.size(0))];

// == bench
// sizes: m=10^5, d=20, k=10
// gen: [m, d]:0..100 [k, d]:0..100
export int[[*]] assign3(double[[*,*]] P, double[[*,*]] C) =
  [loop (best = 0) for c < C.size(0) do if d2(P, i, C, c) < d2(P, i, C, best) then c else best
   | i <- iota(P.size(0))];

// == bench
// sizes: m=10^5, k=10
// gen: [m]:0..9 k
export int[[*]] counts1(int[[*]] ids, int k) = [count(\x -> x == c, ids) | c <- iota(k)];

// == bench
// sizes: m=10^5, k=10
// gen: [m]:0..9 k
export int[[*]] counts2(int[[*]] ids, int k) = hist((+), 0, k, ids, replicate(length(ids), 1));

// == bench
// sizes: m=10^5, k=10
// gen: [m]:0..9 k
export int[[*]] counts3(int[[*]] ids, int k) = reduce_by_key((+), 0, ids, replicate(length(ids), 1)).1;

// == bench
// sizes: m=10^5, d=20, k=10
// gen: [m]:0..9 [m, d]:0..100 k
export double[[*,*]] sums1(int[[*]] ids, double[[*,*]] P, int k) =
  [[sum([if ids[i] == c then P[i, j] else 0.0 | i <- iota(P.size(0))]) | j <- iota(P.size(1))] | c <- iota(k)];

// == bench
// sizes: m=10^5, d=20, k=10
// gen: [m]:0..9 [m, d]:0..100 k
export double[[*]] sums2(int[[*]] ids, double[[*,*]] P, int k) =
  hist((+), 0.0, k * P.size(1), [ids[i] * P.size(1) + j | i <- iota(P.size(0)), j <- iota(P.size(1))], flatten(P));

// == bench
// sizes: m=10^5, d=20, k=10
// gen: [m]:0..9 [m, d]:0..100 k
export double[[*,*]] sums3(int[[*]] ids, double[[*,*]] P, int k) =
  [hist((+), 0.0, k, ids, P[:, j]) | j <- iota(P.size(1))];

// == bench
// sizes: m=10^5, d=20, k=10
// gen: [m]:0..9 [m, d]:0..100 k
export double[[*,*]] sums4(int[[*]] ids, double[[*,*]] P, int k) =
  transpose([hist((+), 0.0, k, ids, P[:, j]) | j <- iota(P.size(1))]);

// == bench
// sizes: m=10^5, d=20, k=10
// gen: [m, d]:0..100 [k, d]:0..100 5
export double[[*,*]] kmeans_loop(double[[*,*]] P, double[[*,*]] C0, int iters) =
  loop (C = C0) for it < iters do
    let ids = [argmin([d2(P, i, C, c) | c <- iota(C.size(0))]) | i <- iota(P.size(0))] in
    let cnt = hist((+), 0, C.size(0), ids, replicate(P.size(0), 1)) in
    [[ if cnt[c] == 0 then C[c, j] else sum([if ids[i] == c then P[i, j] else 0.0 | i <- iota(P.size(0))]) / double(cnt[c])
       | j <- iota(P.size(1))] | c <- iota(C.size(0))];

// Per-column sums through reduce_by_key, scattered into k bins (the
// held-out form of stop 37).
// == test
// in: [1, 0, 1] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] 3
// out: [[3.0, 6.0, 0.0], [4.0, 8.0, 0.0]]
// == bench
// sizes: m=10^5, d=20, k=10
// gen: [m]:0..9 [m, d]:0..100 k
export double[[*,*]] sums5(int[[*]] ids, double[[*,*]] P, int k) =
  [let (ks, vs) = reduce_by_key((+), 0.0, ids, P[:, j]) in scatter(replicate(k, 0.0), ks, vs) | j <- iota(P.size(1))];
