// Sparse matrix-vector product y = A x, A in compressed sparse row form:
// row i holds vals[k] at column cols[k] for k in [row_off[i] ..< row_off[i+1]].
// Timed by bench/whole (arrc_bench_whole) on power-law row lengths.

// == test
// in: [0, 2, 3, 3] [0, 2, 1] [1.0, 2.0, 3.0] [1.0, 10.0, 100.0]
// out: [201.0, 30.0, 0.0]
export double[[*]] smvm(int[[*]] row_off, int[[*]] cols, double[[*]] vals, double[[*]] x) =
  [sum([vals[k] * x[cols[k]] | k <- [row_off[i]..<row_off[i + 1]]]) | i <- iota(length(row_off) - 1)];
