// Reads at base + k in a counted loop, checked once before the loop
// (docs/codegen.md, "Range checks of loop reads"): in range, the loop runs
// without their checks; out of range, the loop as written reports the same
// first error. Expected values by hand.

// == test
// in: [0, 2, 3] [0, 1, 1] [1.0, 2.0, 3.0] [10.0, 20.0]
// out: [50.0, 60.0]
// in: [0, 0, 3, 3] [1, 0, 1] [1.0, 2.0, 3.0] [10.0, 20.0]
// out: [0.0, 100.0, 0.0]
// in: [0, 2, 4] [0, 1, 1] [1.0, 2.0, 3.0] [10.0, 20.0]
// error: range_checks.arr:18:9: index 3 out of bounds for axis 0 of size 3
// in: [-1, 1] [0, 1, 1] [1.0, 2.0, 3.0] [10.0, 20.0]
// error: range_checks.arr:18:9: index -1 out of bounds for axis 0 of size 3
// in: [0, 2] [0, 5, 1] [1.0, 2.0, 3.0] [10.0, 20.0]
// error: range_checks.arr:18:19: index 5 out of bounds for axis 0 of size 2
export double[[*]] spmv(int[[*]] row_off, int[[*]] cols, double[[*]] vals, double[[*]] x) =
  [sum([vals[k] * x[cols[k]] | k <- [row_off[i]..<row_off[i + 1]]]) | i <- iota(length(row_off) - 1)];

// == test
// in: [1, 2, 3, 4, 5, 6] [0, 2, 3]
// out: [6, 12, 15]
// in: [1, 2, 3] [2]
// error: range_checks.arr:25:63: index 3 out of bounds for axis 0 of size 3
export int[[*]] windows(int[[*]] xs, int[[*]] starts) = [sum([xs[s + k] | k <- iota(3)]) | s <- starts];
