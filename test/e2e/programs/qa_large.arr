// QA held-out: library functions and irregular comprehensions at sizes beyond one
// work-group (sort, scan, hist, all, filter, reduce_by_key, expand); expected values
// computed with a Python reference of the same LCG.
def int lcg(int i) = (i * 1103515245 + 12345) & 1048575;
// == test
// in: 300000
// out: (157287623600L, 18768750, 524293, 264562503L, 99998)
export (long, int, int, long, int) big(int n) {
  let xs = [lcg(i) | i <- iota(n)];
  let s = sort(xs);
  let sc = scan((+), 0L, map(\x -> long(x), xs));
  let h = hist((+), 0, 16, map(\x -> x % 16, xs), replicate(n, 1));
  let ok = all(\i -> s[i] <= s[i + 1], iota(n - 1));
  return (sc[n - 1], h[3] + h[7] * 1000, if ok then s[n / 2] else -1, reduce((+), 0L, [long(x) * long(y) | x <- xs[0:99], y <- iota(x % 7)]), length(filter(\x -> x % 3 == 0, xs)));
}
// == test
// in: 5000
// out: (10000, [7505000, 7501000, 7502000, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
export (int, int[[*]]) bigirr(int n) {
  let ys = [i * 3 + j | i <- iota(n), j <- iota(i % 5)];
  let (k, v) = reduce_by_key((+), 0, map(\y -> y % 10, ys), ys);
  return (length(ys), take(3, v) ++ k);
}
