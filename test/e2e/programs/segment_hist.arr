// Histograms binned by the segment ids of an expand (SegmentHist.cpp): CSR
// SpMV through `hist` of the row ids, and other operators, value tuples,
// empty rows and bins that are not the segments (kept a histogram).
// Expected values from Python (test/e2e/reference in the comments' words:
// rows[i] repeated ro[i+1]-ro[i] times, then a fold per bin).

// == test
// in:  [0, 2, 2, 5] [0, 2, 0, 1, 2] [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 10.0, 100.0]
// out: [201.0, 0.0, 543.0]
// in:  [0] [] [] [1.0]
// out: []
// in:  [0, 0, 0] [] [] [1.0]
// out: [0.0, 0.0]
export double[[*]] spmv(int[[*]] ro, int[[*]] cols, double[[*]] vals, double[[*]] x) {
  let n = length(ro) - 1;
  let rows = [i | i <- iota(n), _k <- [ro[i]..<ro[i + 1]]];
  return hist((+), 0.0, n, rows, [v * x[c] | v <- vals | c <- cols]);
}

// max per row with a neutral element that is not the identity, and the
// count of each row beside it (a tuple of values)
// == test
// in:  [0, 3, 3, 4] [5, -2, 7, 9]
// out: ([7, 1, 9], [3, 0, 1])
export (int[[*]], int[[*]]) max_count(int[[*]] ro, int[[*]] vs) {
  let n = length(ro) - 1;
  let rows = [i | i <- iota(n), _k <- [ro[i]..<ro[i + 1]]];
  return unzip(hist(\(a, c) (b, d) -> (max(a, b), c + d), (1, 0), n, rows, [(v, 1) | v <- vs]));
}

// a non-commutative operator (the last value wins): each bin's elements in order
// == test
// in:  [0, 2, 5] [4, 8, 1, 6, 3]
// out: [8, 3]
export int[[*]] last(int[[*]] ro, int[[*]] vs) {
  let n = length(ro) - 1;
  let rows = [i | i <- iota(n), _k <- [ro[i]..<ro[i + 1]]];
  return hist(\_a b -> b, -1, n, rows, vs);
}

// more bins than segments: a histogram as written (the last bin empty)
// == test
// in:  [0, 2, 5] [4, 8, 1, 6, 3]
// out: [12, 10, 0]
export int[[*]] extra_bin(int[[*]] ro, int[[*]] vs) {
  let n = length(ro) - 1;
  let rows = [i | i <- iota(n), _k <- [ro[i]..<ro[i + 1]]];
  return hist((+), 0, n + 1, rows, vs);
}

// the ids used besides their bin (rows[j] in the value)
// == test
// in:  [0, 2, 5] [4, 8, 1, 6, 3]
// out: [12, 13]
export int[[*]] id_in_value(int[[*]] ro, int[[*]] vs) {
  let n = length(ro) - 1;
  let rows = [i | i <- iota(n), _k <- [ro[i]..<ro[i + 1]]];
  return hist((+), 0, n, rows, [v + rows[j] | v <- vs | j <- iota(length(vs))]);
}

// many rows of power-law-ish lengths (long rows shared on GPUs): row i has
// (i * 37) % 50 elements, and one of 3000; the sum of each row's
// (k % 7) * x[k % 1000] with x[c] = c % 13, summed over rows weighted by
// (row % 5). Python: see the comment at the end of the file.
// == test
// in:  20000
// out: 18109246.0
export double many_rows(int n) {
  let lens = [if i == 77 then 3000 else (i * 37) % 50 | i <- iota(n)];
  let ro = [0] ++ scan((+), 0, lens);
  let nnz = ro[n];
  let x = [double(c % 13) | c <- iota(1000)];
  let rows = [i | i <- iota(n), _k <- [ro[i]..<ro[i + 1]]];
  let y = hist((+), 0.0, n, rows, [double(k % 7) * x[k % 1000] | k <- iota(nnz)]);
  return sum([y[i] * double(i % 5) | i <- iota(n)]);
}
// n = 20000
// lens = [3000 if i == 77 else (i * 37) % 50 for i in range(n)]
// ro = [0]; [ro.append(ro[-1] + l) for l in lens]
// y = [sum((k % 7) * ((k % 1000) % 13) for k in range(ro[i], ro[i + 1])) for i in range(n)]
// print(float(sum(y[i] * (i % 5) for i in range(n))))
