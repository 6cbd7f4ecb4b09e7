// Maps whose element is a sum over a range read from memory (CSR SpMV's
// shape). On GPUs the rows longer than arrc::Context::long_row_min() (128)
// are shared by their work-group's work-items (codegen/src/SoacMapLongRows.cpp);
// ctest e2e.long_rows_shared runs these on PoCL with ARRC_LONG_ROWS=2, so
// every row of 3 or more is shared there. Row lengths 0, 1, 256, 257 and
// 3000 (several rounds of a work-group), a negative count (an empty range).
// Expected values from test/e2e/reference/long_rows_reference.py; the sums
// are exact in any order.

// a double sum over 0 ..< lens[i]
// == test
// in: [0, 1, 300, 5, -5, 1000, 257, 2, 256, 3000]
// out: [0.0, 0.25, 225.5, 4.5, 0.0, 749.75, 192.0, 0.25, 191.5, 2250.5]
export double[[*]] rowsums(int[[*]] lens) =
  [sum([double((i + j) % 7) * 0.25 | j <- [0..<lens[i]]]) | i <- iota(length(lens))];

// an int sum
// == test
// in: [0, 1, 300, 5, -5, 1000, 257, 2, 256, 3000]
// out: [0, 0, 1491, 19, 0, 4999, 1279, 7, 1278, 15003]
export int[[*]] isums(int[[*]] lens) = [sum([(i * j) % 11 | j <- [0..<lens[i]]]) | i <- iota(length(lens))];

// rows from offsets (CSR), the sum used in the element after it
// == test
// in: [0, 3, 3, 700, 702, 2702, 2960, 2961]
// out: [3.0, 1.0, 1399.0, 4.0, 4004.0, 524.0, 6.0]
export double[[*]] csr(int[[*]] off) {
  let v = [double(k % 5) * 0.5 | k <- iota(off[length(off) - 1])];
  return [2.0 * sum([v[k] | k <- [off[i]..<off[i + 1]]]) + double(i) | i <- iota(length(off) - 1)];
}

// an index out of bounds inside a row (a shared one under ARRC_LONG_ROWS=2)
// == test
// in: [2, 700, 0] [1.0, 2.0, 3.0]
// error: out of bounds
// in: [2, 3, 0] [1.0, 2.0, 3.0]
// out: [3.0, 6.0, 0.0]
export double[[*]] oob(int[[*]] lens, double[[*]] a) = [sum([a[j] | j <- [0..<lens[i]]]) | i <- iota(length(lens))];
