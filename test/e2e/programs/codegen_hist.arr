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
