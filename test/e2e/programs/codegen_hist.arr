// Histograms on the code generator's two paths (docs/codegen.md, Hist): the
// runtime histogram (+, *, min, max with a constant neutral element) and the
// exact fallback (sort by bin, then an in-order fold per bin) for other
// operators, non-identity neutral elements, tuples and bool.
//
//   arrc run codegen_hist.arr -e lastof "[0, 1, 0, 3, 9, -1, 1]" "[5, 6, 7, 8, 9, 10, 11]"  ==> [7, 11, -1, 8]
//   arrc run codegen_hist.arr -e firstof "[2, 0, 2, 0]" "[1, 2, 3, 4]"  ==> [2, 0, 1]
//   arrc run codegen_hist.arr -e plus5 "[0, 0, 2, 5]" "[1, 2, 3, 4]"  ==> [8, 5, 8]
//   arrc run codegen_hist.arr -e anyb "[1, 1, 0]" "[false, true, false]"  ==> [false, true, false]
//   arrc run codegen_hist.arr -e minf "[0, 1, 0]" "[2.5, -1.0, 0.5]"  ==> [0.5f, -1.0f]
//   arrc run codegen_hist.arr -e prodl "[1, 1, 1, 0]" "[2, 3, 4, 5]"  ==> [5L, 24L]
//   arrc run codegen_hist.arr -e empty "[]" "[]"  ==> [0, 0]
export int[[*]] lastof(int[[*]] is, int[[*]] vs) = hist(\_a b -> b, -1, 4, is, vs);
export int[[*]] firstof(int[[*]] is, int[[*]] vs) = hist(\a b -> if a == 0 then b else a, 0, 3, is, vs);
export int[[*]] plus5(int[[*]] is, int[[*]] vs) = hist((+), 5, 3, is, vs);
export bool[[*]] anyb(int[[*]] is, bool[[*]] vs) = hist(\a b -> a || b, false, 3, is, vs);
export float[[*]] minf(int[[*]] is, float[[*]] vs) = hist((min), 1.0e30f, 2, is, vs);
export long[[*]] prodl(int[[*]] is, long[[*]] vs) = hist((*), 1L, 2, is, vs);
export int[[*]] empty(int[[*]] is, int[[*]] vs) = hist((+), 0, 2, is, vs);
