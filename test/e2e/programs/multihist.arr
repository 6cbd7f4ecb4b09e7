// A map and the histograms that read it, in one pass (IR MultiHist,
// lowering/src/FuseMultiHist.cpp; runtime arrc::histogram_items): k-means'
// assignment with its counts and per-dimension sums (a flattened index
// comprehension), histograms of different bins and operators over the same
// keys, out-of-range bins, values evaluated whatever their bin, and the step
// inside a host loop. Expected values worked out by hand (the comments).

def double dist2(double[[*]] a, double[[*]] b) = sum([(x - y) * (x - y) | x <- a | y <- b]);

// ids = [0, 0, 1, 1]: counts [2, 2]; sums [0+1, 0+0, 10+11, 10+10]. An empty
// P literal has shape 0 x 0: d = 0, so no sums.
// == test
// in: [[0.0, 0.0], [1.0, 0.0], [10.0, 10.0], [11.0, 10.0]] [[0.0, 1.0], [10.0, 9.0]]
// out: ([2, 2], [1.0, 0.0, 21.0, 20.0])
// in: [[0.0, 0.0]] [[5.0, 5.0], [0.0, 1.0], [9.0, 9.0]]
// out: ([0, 1, 0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
// in: [] [[1.0, 2.0]]
// out: ([0], [])
export (int[[*]], double[[*]]) kstep(double[[*,*]] P, double[[*,*]] C) {
  let M = P.size(0);
  let k = C.size(0);
  let d = P.size(1);
  let ids = [argmin([dist2(P[i, :], C[c, :]) | c <- iota(k)]) | i <- iota(M)];
  let counts = hist((+), 0, k, ids, replicate(M, 1));
  let sums = hist((+), 0.0, k * d, [ids[i] * d + j | i <- iota(M), j <- iota(d)], flatten(P));
  return (counts, sums);
}

// b = x % k = [3, 0, 3, 0, 0, -1] (the last out of range): sums of x by b
// [-4+0+12, 0, 0, 3+7]; min of x by 2b+1 (bins 7, 1, 7, 1, 1, -1)
// == test
// in: [3, -4, 7, 0, 12, -5] 4
// out: ([8, 0, 0, 10], [1000, -4, 1000, 1000, 1000, 1000, 1000, 3])
// in: [] 3
// out: ([0, 0, 0], [1000, 1000, 1000, 1000, 1000, 1000])
// in: [5, 6] 0
// out: ([], [])
export (int[[*]], int[[*]]) twobins(int[[*]] xs, int k) {
  let b = [x % k | x <- xs];
  return (hist((+), 0, k, b, xs), hist(min, 1000, 2 * k, [b[i] * 2 + 1 | i <- iota(xs.size(0))], xs));
}

// long max and float sums over keys x / 10 = [0, 1, 2, 9, -1, 1] (-1 out of
// range): max [5, max(17, 12), 23, .., 95]; sums [0.5, 1.7 + 1.2, 2.3, .., 9.5]
// == test
// in: [5, 17, 23, 95, -12, 12] 10
// out: ([5L, 17L, 23L, 0L, 0L, 0L, 0L, 0L, 0L, 95L], [0.5f, 2.9f, 2.3f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 9.5f])
export (long[[*]], float[[*]]) maxsum(int[[*]] xs, int k) {
  let b = [x / 10 | x <- xs];
  let n = xs.size(0);
  return (hist(max, 0L, k, b, [long(x) | x <- xs]), hist((+), 0.0f, k, [b[i] | i <- iota(n)], [float(x) / 10.0f | x <- xs]));
}

// Every value is evaluated whatever its bin: element 2 has bin -2 (out of
// range) and its value reads ys[3].
// == test
// in: [1, 2, -1] [1, 2, 3] 2
// error: multihist.arr:63:92: index 3 out of bounds for axis 0 of size 3
// in: [1, 2, -1] [1, 2, 3, 4] 2
// out: ([2, 1], [3, 0, 2, 0])
export (int[[*]], int[[*]]) valueerr(int[[*]] xs, int[[*]] ys, int k) {
  let b = [x % k | x <- xs];
  return (hist((+), 0, k, b, xs), hist((+), 0, 2 * k, [b[i] * 2 | i <- iota(xs.size(0))], [ys[i + 1] | i <- iota(xs.size(0))]));
}

// Two k-means steps in one call: the step is a multihist in a host loop.
// Step 1 as kstep's first test: centres [[0.5, 0.0], [10.5, 10.0]]; step 2
// keeps them.
// == test
// in: 2 [[0.0, 0.0], [1.0, 0.0], [10.0, 10.0], [11.0, 10.0]] [[0.0, 1.0], [10.0, 9.0]]
// out: [[0.5, 0.0], [10.5, 10.0]]
export double[[*,*]] kmeans(int iterations, double[[*,*]] P, double[[*,*]] C0) =
  loop (C = C0) for _it < iterations do
    let k = C.size(0) in
    let d = P.size(1) in
    let ids = [argmin([dist2(P[i, :], C[c, :]) | c <- iota(k)]) | i <- iota(P.size(0))] in
    let counts = hist((+), 0, k, ids, replicate(P.size(0), 1)) in
    let sums = hist((+), 0.0, k * d, [ids[i] * d + j | i <- iota(P.size(0)), j <- iota(d)], flatten(P)) in
    [[if counts[c] == 0 then C[c, j] else sums[c * d + j] / double(counts[c]) | j <- iota(d)] | c <- iota(k)];

// A flattened hist's values from a matrix of another width (Q: 2 x 3 for
// 3 items x 2): its index divided by 3, the quotient and remainder stepped
// on by the item's loop. ids = [1, 0, 1]; item 0 adds Q's flat 1, 2 to bins
// 2, 3; item 1 adds 3, 4 to bins 0, 1; item 2 adds 5, 6 to bins 2, 3. Six
// items: ids [1, 0, 1, 1, 0, 1], item i adds 2i + 1, 2i + 2.
// == test
// in: [5, 2, 7] [[1, 2, 3], [4, 5, 6]]
// out: ([1, 2], [3, 4, 6, 8])
// in: [5, 2, 7, 9, 4, 1] [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
// out: ([2, 4], [12, 14, 24, 28])
// in: [5, 2] [[1, 2, 3], [4, 5, 6]]
// error: multihist.arr:96:50: the indices and values of hist differ in size: 4 vs 6
export (int[[*]], int[[*]]) otherwidth(int[[*]] xs, int[[*,*]] Q) {
  let ids = [x % 2 | x <- xs];
  let M = xs.size(0);
  return (hist((+), 0, 2, ids, replicate(M, 1)), hist((+), 0, 4, [ids[i] * 2 + j | i <- iota(M), j <- iota(2)], flatten(Q)));
}
