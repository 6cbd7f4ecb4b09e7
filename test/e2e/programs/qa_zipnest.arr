// QA held-out (was .qa/bugs.md QA-2, fixed for comprehensions): zip size checks inside
// nested comprehensions.
//
//   arrc run qa_zipnest.arr -e f "[[1.0, 2.0], [3.0, 4.0]]" "[1.0, 1.0, 1.0]"  ==> error: zip of arrays of unequal sizes
//   arrc run qa_zipnest.arr -e g "[1, 2]" "[1, 2, 3]"  ==> error: zip of arrays of unequal sizes
//   arrc run qa_zipnest.arr -e f "[[1.0, 2.0], [3.0, 4.0]]" "[1.0, 1.0]"  ==> [3.0, 7.0]
export double[[*]] f(double[[*,*]] A, double[[*]] x) = [sum([a * b | a <- A[i, :] | b <- x]) | i <- iota(A.size(0))];
export int[[*,*]] g(int[[*]] xs, int[[*]] ys) = [[a + b | a <- xs | b <- ys] | _k <- [0..<2]];
