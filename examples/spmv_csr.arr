// spmv_csr.arr — sparse matrix-vector product, the matrix in compressed
// sparse row (CSR) form: row i holds vals[k] at column col_idx[k] for k in
// [row_off[i] ..< row_off[i+1]]. Written as a comprehension (an irregular
// inner range, reduced per row) and with expand_reduce (flattening by
// expansion, as in Elsman, Henriksen & Serup's example).
//
// The test matrix (5x5) and vector:
//   [[1, 2, 0, 11, 0], [0, 3, 4, 0, 0], [0, 5, 6, 7, 0], [0, 0, 0, 8, 0], [0, 0, 0, 9, 10]]
//   x = [3, 1, 2, 6, 5]

// == test
// entry: spmv spmv_expand
// in:  [0, 3, 5, 8, 9, 11] [0, 1, 3, 1, 2, 1, 2, 3, 3, 3, 4]
//      [1, 2, 11, 3, 4, 5, 6, 7, 8, 9, 10] [3, 1, 2, 6, 5]
// out: [71, 11, 59, 48, 104]
// in:  [0, 0, 2] [0, 1] [5, 7] [2, 3]
// out: [0, 31]
// in:  [0, 1] [5] [1] [1, 2]
// error: index 5 out of bounds
export int[[*]] spmv(int[[*]] row_off, int[[*]] col_idx, int[[*]] vals, int[[*]] x) =
  [sum([vals[k] * x[col_idx[k]] | k <- [row_off[i]..<row_off[i + 1]]])
   | i <- [0..<length(row_off) - 1]];

export int[[*]] spmv_expand(int[[*]] row_off, int[[*]] col_idx, int[[*]] vals, int[[*]] x) =
  expand_reduce(\r -> row_off[r + 1] - row_off[r],
                \r j -> vals[row_off[r] + j] * x[col_idx[row_off[r] + j]],
                (+), 0, iota(length(row_off) - 1));
