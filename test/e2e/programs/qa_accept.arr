// QA held-out: size/rank as ordinary identifiers, builtins passed as functions, an export
// calling other exports, lambdas indexing captured arrays.
//
//  arrc run qa_accept.arr -e size3   ==> 6
//  arrc run qa_accept.arr -e base "[-1, 2]"  ==> [1, 2]
//  arrc run qa_accept.arr -e caller "[-1, 2]"  ==> 9
//  arrc run qa_accept.arr -e msq "[4.0]"  ==> [2.0]
//  arrc run qa_accept.arr -e idx "[5, 6, 7]" 2  ==> [10, 12]
export int size3() = let size = 3 in let rank = 2 in size * rank;
export int[[*]] base(int[[*]] xs) = map(abs, xs);
export int caller(int[[*]] xs) = sum(base(xs)) + size3();
export double[[*]] msq(double[[*]] ds) = map(sqrt, ds);
export int[[*]] idx(int[[*]] xs, int n) = map(\i -> xs[i] * 2, iota(n));
