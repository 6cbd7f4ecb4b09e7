// QA held-out (was .qa/bugs.md QA-6, fixed): a let before the first binding (docs/language.md allows it).

// == test
// in: [1, 2]
// out: [3, 4]
export int[[*]] f(int[[*]] xs) = [x + k | let k = 2, x <- xs];
