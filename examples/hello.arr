// hello.arr — the smallest useful Arr program: the sum of the squares 1..n.
//
//   arrc run examples/hello.arr -e sum_squares 10     # 385

// == test
// in:  10
// out: 385
// in:  0
// out: 0
export int sum_squares(int n) = sum([i * i | i <- [1..n]]);
