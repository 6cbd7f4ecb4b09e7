// QA held-out (was .qa/bugs.md QA-3, fixed): maximum/minimum of an empty inner comprehension.

// == test
// in: 0
// error: empty
export int top(int n) = maximum([x * 2 | x <- [0..<n]]);
export int topf(int[[*]] xs) = minimum([x | x <- xs, x > 100]);
// == test
// in: [5, 0]
// error: empty
export int[[*]] inner(int[[*]] xs) = [maximum([j | j <- [0..<10], j < i]) | i <- xs];
// == test
// in: [2, 0]
// error: empty
// in: [2, 1]
// out: [0.0, 0.0]
export double[[*]] inner2(int[[*]] xs) = [minimum([double(j) | j <- [0..<i]]) | i <- xs];
