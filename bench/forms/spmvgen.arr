// Alternative forms (bench/forms/README.md): CSR SpMV written three ways on
// a matrix each export builds the same way (row i has (i * 7919) % 31
// non-zeros, column (k * 104729) & (2^20 - 1) for non-zero k), so the
// forms' times differ only by the product itself: row by row, through
// `expand_reduce`, and through `hist` of the row ids (SegmentHist.cpp).
// The result is y's weighted sum (every row read).
def int len(int i) = int((long(i) * 7919L) % 31L);
def double wsum(double[[*]] y) = sum([y[i] * double(i % 5) | i <- iota(length(y))]);

// == test
// in: 1000
// out: 178860.0
// == bench
// sizes: n=1048576
// gen: n
export double rows(int n) {
  let ro = [0] ++ scan((+), 0, [len(i) | i <- iota(n)]);
  let cols = [(k * 104729) & 1048575 | k <- iota(ro[n])];
  let vals = [double(k % 7) | k <- iota(ro[n])];
  let x = [double(c % 5) | c <- iota(1048576)];
  return wsum([sum([vals[k] * x[cols[k]] | k <- [ro[i]..<ro[i + 1]]]) | i <- iota(n)]);
}

// == test
// in: 1000
// out: 178860.0
// == bench
// sizes: n=1048576
// gen: n
export double by_hist(int n) {
  let ro = [0] ++ scan((+), 0, [len(i) | i <- iota(n)]);
  let cols = [(k * 104729) & 1048575 | k <- iota(ro[n])];
  let vals = [double(k % 7) | k <- iota(ro[n])];
  let x = [double(c % 5) | c <- iota(1048576)];
  let ids = [i | i <- iota(n), _k <- [ro[i]..<ro[i + 1]]];
  return wsum(hist((+), 0.0, n, ids, [v * x[c] | v <- vals | c <- cols]));
}

// == test
// in: 1000
// out: 178860.0
// == bench
// sizes: n=1048576
// gen: n
export double by_expand_reduce(int n) {
  let ro = [0] ++ scan((+), 0, [len(i) | i <- iota(n)]);
  let cols = [(k * 104729) & 1048575 | k <- iota(ro[n])];
  let vals = [double(k % 7) | k <- iota(ro[n])];
  let x = [double(c % 5) | c <- iota(1048576)];
  return wsum(expand_reduce(\i -> ro[i + 1] - ro[i], \i j -> vals[ro[i] + j] * x[cols[ro[i] + j]], (+), 0.0, iota(n)));
}
