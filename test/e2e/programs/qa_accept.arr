// QA held-out: size/rank as ordinary identifiers, builtins passed as functions, an export
// calling other exports, lambdas indexing captured arrays.

// == test
// in:
// out: 6
export int size3() = let size = 3 in let rank = 2 in size * rank;
// == test
// in: [-1, 2]
// out: [1, 2]
export int[[*]] base(int[[*]] xs) = map(abs, xs);
// == test
// in: [-1, 2]
// out: 9
export int caller(int[[*]] xs) = sum(base(xs)) + size3();
// == test
// in: [4.0]
// out: [2.0]
export double[[*]] msq(double[[*]] ds) = map(sqrt, ds);
// == test
// in: [5, 6, 7] 2
// out: [10, 12]
export int[[*]] idx(int[[*]] xs, int n) = map(\i -> xs[i] * 2, iota(n));
