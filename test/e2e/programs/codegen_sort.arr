// Sort through the runtime radix sort (docs/codegen.md, Sort): signed long
// extremes, float keys with -0.0 (equal to 0.0 under `<`, so input order is
// kept and the bits survive), stable sort_by on double keys.

// == test
// in: [5, -9223372036854775807, 3, -1, 9223372036854775807]
// out: [-9223372036854775807L, -1L, 3L, 5L, 9223372036854775807L]
export long[[*]] sl(long[[*]] xs) = sort(xs);
// == test
// in: [0.0, -0.0, -1.5, 2.0, -0.0, 1e300, -1e300]
// out: [-1e+300, -1.5, 0.0, -0.0, -0.0, 2.0, 1e+300]
export double[[*]] sd(double[[*]] xs) = sort(xs);
// == test
// in: [0.0, -0.0, -1.0, 0.0] [0, 1, 2, 3]
// out: [2, 0, 1, 3]
export int[[*]] byd(double[[*]] ks, int[[*]] vs) = sort_by(\i -> ks[i], [0..<length(vs)]);
// == test
// in: []
// out: []
// in: [2.5]
// out: [2.5f]
export float[[*]] sf(float[[*]] xs) = sort(xs);
