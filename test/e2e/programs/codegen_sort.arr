// Sort through the runtime radix sort (docs/codegen.md, Sort): signed long
// extremes, float keys with -0.0 (equal to 0.0 under `<`, so input order is
// kept and the bits survive), stable sort_by on double keys.
//
//   arrc run codegen_sort.arr -e sl "[5, -9223372036854775807, 3, -1, 9223372036854775807]"  ==> [-9223372036854775807L, -1L, 3L, 5L, 9223372036854775807L]
//   arrc run codegen_sort.arr -e sd "[0.0, -0.0, -1.5, 2.0, -0.0, 1e300, -1e300]"  ==> [-1e+300, -1.5, 0.0, -0.0, -0.0, 2.0, 1e+300]
//   arrc run codegen_sort.arr -e byd "[0.0, -0.0, -1.0, 0.0]" "[0, 1, 2, 3]"  ==> [2, 0, 1, 3]
//   arrc run codegen_sort.arr -e sf "[]"  ==> []
//   arrc run codegen_sort.arr -e sf "[2.5]"  ==> [2.5f]
export long[[*]] sl(long[[*]] xs) = sort(xs);
export double[[*]] sd(double[[*]] xs) = sort(xs);
export int[[*]] byd(double[[*]] ks, int[[*]] vs) = sort_by(\i -> ks[i], [0..<length(vs)]);
export float[[*]] sf(float[[*]] xs) = sort(xs);
