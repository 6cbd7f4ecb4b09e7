// QA held-out: an associative, non-commutative operator on tuples (affine-map
// composition, int arithmetic wrapping) through reduce, scan and segmented_reduce at
// 100000 elements; expected values from a sequential Python fold modulo 2^32.
def (int, int) comp((int, int) f, (int, int) g) = (f.0 * g.0, f.1 * g.0 + g.1);
// == test
// in: 100000
// out: ((0, -742893291), (0, 5553535), 100, -742893291)
export ((int, int), (int, int), int, int) affine(int n) {
  let fs = [(i % 7 + 1, i % 13 - 6) | i <- iota(n)];
  let r = reduce(comp, (1, 0), fs);
  let s = scan(comp, (1, 0), fs);
  let sr = segmented_reduce(comp, (1, 0), [i % 1000 == 0 | i <- iota(n)], fs);
  return (r, s[n / 3], length(sr), sr[length(sr) - 1].1);
}
