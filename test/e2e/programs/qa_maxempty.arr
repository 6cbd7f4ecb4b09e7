// QA held-out (was .qa/bugs.md QA-3, fixed): maximum/minimum of an empty inner comprehension.
//
//   arrc run qa_maxempty.arr -e top 0  ==> error: empty
//   arrc run qa_maxempty.arr -e inner "[5, 0]"  ==> error: empty
//   arrc run qa_maxempty.arr -e inner2 "[2, 0]"  ==> error: empty
//   arrc run qa_maxempty.arr -e inner2 "[2, 1]"  ==> [0.0, 0.0]
export int top(int n) = maximum([x * 2 | x <- [0..<n]]);
export int topf(int[[*]] xs) = minimum([x | x <- xs, x > 100]);
export int[[*]] inner(int[[*]] xs) = [maximum([j | j <- [0..<10], j < i]) | i <- xs];
export double[[*]] inner2(int[[*]] xs) = [minimum([double(j) | j <- [0..<i]]) | i <- xs];
