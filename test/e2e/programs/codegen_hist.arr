// Histograms on the code generator's two paths (docs/codegen.md, Hist): the
// runtime histogram (+, *, min, max with a constant neutral element) and the
// exact fallback (sort by bin, then an in-order fold per bin) for other
// operators, non-identity neutral elements, tuples and bool.

// == test
// in: [0, 1, 0, 3, 9, -1, 1] [5, 6, 7, 8, 9, 10, 11]
// out: [7, 11, -1, 8]
export int[[*]] lastof(int[[*]] is, int[[*]] vs) = hist(\_a b -> b, -1, 4, is, vs);
// == test
// in: [2, 0, 2, 0] [1, 2, 3, 4]
// out: [2, 0, 1]
export int[[*]] firstof(int[[*]] is, int[[*]] vs) = hist(\a b -> if a == 0 then b else a, 0, 3, is, vs);
// == test
// in: [0, 0, 2, 5] [1, 2, 3, 4]
// out: [8, 5, 8]
export int[[*]] plus5(int[[*]] is, int[[*]] vs) = hist((+), 5, 3, is, vs);
// == test
// in: [1, 1, 0] [false, true, false]
// out: [false, true, false]
export bool[[*]] anyb(int[[*]] is, bool[[*]] vs) = hist(\a b -> a || b, false, 3, is, vs);
// == test
// in: [0, 1, 0] [2.5, -1.0, 0.5]
// out: [0.5f, -1.0f]
export float[[*]] minf(int[[*]] is, float[[*]] vs) = hist((min), 1.0e30f, 2, is, vs);
// == test
// in: [1, 1, 1, 0] [2, 3, 4, 5]
// out: [5L, 24L]
export long[[*]] prodl(int[[*]] is, long[[*]] vs) = hist((*), 1L, 2, is, vs);
// == test
// in: [] []
// out: [0, 0]
export int[[*]] empty(int[[*]] is, int[[*]] vs) = hist((+), 0, 2, is, vs);

// Every value is evaluated, whether its bin is in range or not (as the
// interpreter, `arrc run --interpret`): the value of element 2, whose bin 5
// is out of range, reads xs[3]. On the runtime histogram (+ on int and
// double) and on the exact fallback (a custom operator).
// == test
// in: [0, 1, 5] [10, 20, 30]
// error: codegen_hist.arr:44:79: index 3 out of bounds for axis 0 of size 3
// in: [0, 1, 1] [10, 20, 30, 40]
// out: [20, 70]
export int[[*]] valueerr(int[[*]] bins, int[[*]] xs) = hist((+), 0, 2, bins, [xs[i + 1] | i <- iota(3)]);
// == test
// in: [0, 1, 5] [10, 20, 30]
// error: codegen_hist.arr:48:92: index 3 out of bounds for axis 0 of size 3
export double[[*]] valueerrd(int[[*]] bins, int[[*]] xs) = hist((+), 0.0, 2, bins, [double(xs[i + 1]) | i <- iota(3)]);
// == test
// in: [0, 1, 5] [10, 20, 30]
// error: codegen_hist.arr:52:90: index 3 out of bounds for axis 0 of size 3
export int[[*]] valueerrc(int[[*]] bins, int[[*]] xs) = hist(\a b -> a + b, 0, 2, bins, [xs[i + 1] | i <- iota(3)]);

// Flattened producers (a row width for the runtime; SoacHist.cpp's row
// hooks): a lifted histogram (xor, whose neutral 3 is no identity), and
// rows of 2 over a matrix of width 3 (its divisions not all by the width:
// arrc_rows_exact fails, the index hooks run). Also in the GPU schedule
// (e2e.multihist_gpu_plan runs this file).
// == test
// in: [1, 0, 2, 1] [[1, 2], [3, 4], [5, 6], [7, 8]]
// out: [0, 7, 5, 9, 6, 5]
// in: [1, 9, -1, 1] [[1, 2], [3, 4], [5, 6], [7, 8]]
// out: [3, 3, 5, 9, 3, 3]
export int[[*]] rowsxor(int[[*]] ks, int[[*,*]] m) =
  hist((^), 3, 6, [ks[i] * 2 + j | i <- iota(length(ks)), j <- iota(2)], flatten(m));
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]
// out: [20.0, 19.0, 15.0, 13.0, 11.0]
export double[[*]] rowsother(double[[*,*]] m) =
  hist((+), 0.0, 5, [(i * 3 + j) % 5 | i <- iota(6), j <- iota(2)], flatten(m));
