// hello.arr — the smallest useful Arr program: the sum of the squares 1..n.
//
//   arrc run examples/hello.arr -e sum_squares 10  ==> 385
export int sum_squares(int n) = sum([i * i | i <- [1..n]]);
