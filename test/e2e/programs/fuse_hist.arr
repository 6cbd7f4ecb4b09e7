// Producers fused into hist and scatter, and histograms over the same keys
// fused into one (docs/lowering.md, Passes): counts and per-dimension sums
// (int and double components) are one pass over the keys; the k-means step's
// hists read no materialised producer but `ids`. Expected values from
// test/e2e/reference/fuse_reference.py (plain Python loops).

def (int[[*]], double[[*]], double[[*]]) stats3(int[[*]] ids, double[[*,*]] X, int k) {
  let n = ids.size(0);
  let counts = hist((+), 0, k, ids, replicate(n, 1));
  let sx = hist((+), 0.0, k, ids, X[:, 0]);
  let sy = hist((+), 0.0, k, ids, [X[i, 1] * 2.0 | i <- iota(n)]);
  return (counts, sx, sy);
}
// == test
// in: [0, 2, 1, 0, 5, -1, 2, 2] [[1.0, 0.5], [2.0, 1.5], [3.0, 2.5], [4.0, 3.5], [5.0, 4.5], [6.0, 5.5], [7.0, 6.5], [8.0, 7.5]] 3
// out: ([2, 1, 3], [5.0, 3.0, 17.0], [8.0, 5.0, 31.0])
export (int[[*]], double[[*]], double[[*]]) stats(int[[*]] ids, double[[*,*]] X, int k) = stats3(ids, X, k);
// == test
// in: 100000 7
// out: ([14286, 14286, 14286, 14285, 14285, 14286, 14286], [28572.0, 28574.0, 28570.0, 28572.0,
//      28568.0, 28574.0, 28570.0], [7143.0, 7142.5, 7142.5, 7143.0, 7143.0, 7142.0, 7143.5])
export (int[[*]], double[[*]], double[[*]]) statsgen(int n, int k) =
  stats3([(i * 3 + i / 4) % k | i <- iota(n)], [[double(i % 5), double(i % 3) * 0.25] | i <- iota(n)], k);
// three int histograms (+, max, +) over the same computed keys
// == test
// in: [3, 8, 5, 12, 7, 1, 0] 4
// out: ([3, 2, 0, 2], [144, 25, 0, 49], [20, 6, 0, 10])
// in: [] 3
// out: ([0, 0, 0], [0, 0, 0], [0, 0, 0])
export (int[[*]], int[[*]], int[[*]]) ihist(int[[*]] a, int k) {
  let keys = [x % k | x <- a];
  return (hist((+), 0, k, keys, replicate(a.size(0), 1)), hist((max), 0, k, keys, [x * x | x <- a]), hist((+), 0, k, keys, a));
}
def double dist2(double[[*]] a, double[[*]] b) = sum([(x - y) * (x - y) | x <- a | y <- b]);
def (int[[*]], int[[*]], double[[*]]) kstep2(double[[*,*]] P, double[[*,*]] C) {
  let M = P.size(0);
  let k = C.size(0);
  let d = P.size(1);
  let ids = [argmin([dist2(P[i, :], C[c, :]) | c <- iota(k)]) | i <- iota(M)];
  let counts = hist((+), 0, k, ids, replicate(M, 1));
  let sums = hist((+), 0.0, k * d, [ids[i] * d + j | i <- iota(M), j <- iota(d)], flatten(P));
  return (ids, counts, sums);
}
// == test
// in: [[0.0, 0.0], [1.0, 1.0], [9.0, 9.0], [10.0, 10.0], [0.0, 1.0]] [[0.0, 0.5], [9.5, 9.5], [100.0, 100.0]]
// out: ([0, 0, 1, 1, 0], [3, 2, 0], [1.0, 2.0, 19.0, 19.0, 0.0, 0.0])
export (int[[*]], int[[*]], double[[*]]) kstep(double[[*,*]] P, double[[*,*]] C) = kstep2(P, C);
// == test
// in: 10000 20 10
// out: (49998, [1176, 589, 1176, 589, 1176, 588, 589, 588, 1765, 1764], 1600001.0, [4116.0,
//      12348.0, 588.0, 8820.0, 17052.0, 5292.0, 13524.0, 1764.0, 9996.0, 18228.0, 6468.0,
//      14700.0, 2940.0, 11172.0, 9408.0, 7644.0, 15876.0, 4116.0, 12348.0, 588.0])
export (int, int[[*]], double, double[[*]]) kcheck(int M, int d, int k) {
  let P = [[double((i * 13 + j * 7) % 17) | j <- iota(d)] | i <- iota(M)];
  let C = [[double((c * 5 + j * 3) % 17) | j <- iota(d)] | c <- iota(k)];
  let (ids, counts, sums) = kstep2(P, C);
  return (sum(ids), counts, sum(sums), take(d, sums));
}
// iterations of the step in one host loop (the hists fuse inside the loop too)
// == test
// in: [[0.0, 0.0], [1.0, 1.0], [9.0, 9.0], [10.0, 10.0], [0.0, 1.0], [5.0, 6.0]] [[0.0, 0.5], [9.5, 9.5], [100.0, 100.0]] 3
// out: [[0.3333333333333333, 0.6666666666666666], [8.0, 8.333333333333334], [100.0, 100.0]]
export double[[*,*]] kmeans(double[[*,*]] P, double[[*,*]] C0, int iters) {
  let k = C0.size(0);
  let d = P.size(1);
  return loop (C = C0) for _it < iters do
    let (_ids, counts, sums) = kstep2(P, C) in
    [[if counts[c] == 0 then C[c, j] else sums[c * d + j] / double(counts[c]) | j <- iota(d)] | c <- iota(k)];
}
// producers of scatter's indices and values fuse into it
// == test
// in: 10
// out: [0, 0, 0, 2, 0, 0, 4, 0, 0, 6]
export int[[*]] scat(int n) = scatter(replicate(n, 0), [x * 3 | x <- iota(n)], [x * 2 | x <- iota(n)]);
// flatten of a map nest is a view of it (returned as is; fused into scatter)
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
// out: [2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
export double[[*]] flres(double[[*,*]] A) = flatten([[x + 1.0 | x <- r] | r <- A]);
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] [5, 4, 3, 2, 1, 0]
// out: [12.0, 10.0, 8.0, 6.0, 4.0, 2.0]
export double[[*]] flscat(double[[*,*]] A, int[[*]] is) = scatter(replicate(is.size(0), 0.0), is, flatten([[x * 2.0 | x <- r] | r <- A]));

// Every value of a scatter is evaluated, its index in range or not (as the
// interpreter): element 2's index 5 is out of range and its value reads
// xs[3]; an empty destination ignores every index and still raises.
// == test
// in: [0, 0, 0] [0, 1, 5] [10, 20, 30]
// error: fuse_hist.arr:95:81: index 3 out of bounds for axis 0 of size 3
// in: [] [0, 1, 5] [10, 20, 30]
// error: fuse_hist.arr:95:81: index 3 out of bounds for axis 0 of size 3
// in: [0, 0, 0] [0, 1, 5] [10, 20, 30, 40]
// out: [20, 30, 0]
export int[[*]] scaterr(int[[*]] d, int[[*]] is, int[[*]] xs) = scatter(d, is, [xs[i + 1] | i <- iota(3)]);

// k-means' assignment over two coordinate arrays into three histograms of
// one key: the assignment (a loop per point) stays a Map (Fuse.cpp, rule 1).
// == test
// in: [0.0, 1.0, 10.0, 11.0] [0.0, 0.0, 10.0, 10.0] [0.0, 10.0] [1.0, 9.0]
// out: ([0.5, 10.5], [0.0, 10.0], [2, 2])
// in: [] [] [0.0] [0.0]
// out: ([0.0], [0.0], [0])
export (double[[*]], double[[*]], int[[*]]) km2_sep(double[[*]] xs, double[[*]] ys, double[[*]] cx, double[[*]] cy) {
  let k = length(cx);
  let a = [argmin([(x - u) * (x - u) + (y - v) * (y - v) | u <- cx | v <- cy]) | x <- xs | y <- ys];
  let cnt = hist((+), 0, k, a, replicate(length(xs), 1));
  let sx = hist((+), 0.0, k, a, xs);
  let sy = hist((+), 0.0, k, a, ys);
  return ([s / double(max(c, 1)) | s <- sx | c <- cnt], [s / double(max(c, 1)) | s <- sy | c <- cnt], cnt);
}
