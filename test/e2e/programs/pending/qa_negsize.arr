// QA pending (.qa/bugs.md QA-4): a negative size must be a positioned runtime error.

// == test
// tags: pending
// in: -1
// error: negative size -1
export int[[*]] newneg(int n) = new int[[n]];
// == test
// tags: pending
// in: -1 -2 [1, 2]
// error: negative size
export int[[*,*]] unf(int m, int n, int[[*]] xs) = unflatten(m, n, xs);
