// QA held-out (was .qa/bugs.md QA-1, fixed): rank-3 nested comprehension.

// == test
// in: 2
// out: [[[0, 1], [10, 11]], [[100, 101], [110, 111]]]
export int[[*,*,*]] rank3comp(int n) = [[[i * 100 + j * 10 + k | k <- [0..<2]] | j <- [0..<n]] | i <- [0..<2]];
