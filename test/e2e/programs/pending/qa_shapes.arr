// QA pending (.qa/bugs.md QA-2: now raises, but positioned in stdlib/linalg.arr, not at the call): zip size checks inside nested comprehensions.
//
//   arrc run qa_shapes.arr -e f "[[1.0, 2.0], [3.0, 4.0]]" "[1.0, 1.0, 1.0]"  ==> error: zip of arrays of unequal sizes
//   arrc run qa_shapes.arr -e g "[1, 2]" "[1, 2, 3]"  ==> error: zip of arrays of unequal sizes
//   arrc run qa_shapes.arr -e mv "[[1.0, 2.0], [3.0, 4.0]]" "[1.0, 1.0, 1.0]"  ==> error: 
//   arrc run qa_shapes.arr -e mm "[[1.0, 2.0]]" "[[1.0], [2.0], [3.0]]"  ==> error: 
//   arrc run qa_shapes.arr -e f "[[1.0, 2.0], [3.0, 4.0]]" "[1.0, 1.0]"  ==> [3.0, 7.0]
export double[[*]] f(double[[*,*]] A, double[[*]] x) = [sum([a * b | a <- A[i, :] | b <- x]) | i <- iota(A.size(0))];
export int[[*,*]] g(int[[*]] xs, int[[*]] ys) = [[a + b | a <- xs | b <- ys] | _k <- [0..<2]];
export double[[*]] mv(double[[*,*]] A, double[[*]] x) = matvec(A, x);
export double[[*,*]] mm(double[[*,*]] A, double[[*,*]] B) = matmul(A, B);
