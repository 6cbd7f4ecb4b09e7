// QA held-out: sort (doubles with duplicates and negatives), stable sort_by on tuples,
// reduce_by_key with negative keys (C remainder), argmin/argmax first index, at 200000
// elements; expected values from Python.
def int h(int i) = ((i * 7919) % 1009) - 500;
// == test
// in: 200000
// out: (0, 127.0, 107928, 33, 199940, 765)
export (int, double, int, int, int, int) sb(int n) {
  let xs = [double(h(i)) * 0.25 | i <- iota(n)];
  let s = sort(xs);
  let p = sort_by(\(k, _v) -> k, [(h(i) % 10, i) | i <- iota(n)]);
  let (ks, vs) = reduce_by_key((max), -1, [h(i) % 17 | i <- iota(n)], iota(n));
  return (argmin(xs), s[n - 1], p[n / 2].1, length(ks), vs[0], argmax([h(i) | i <- iota(n)]));
}
