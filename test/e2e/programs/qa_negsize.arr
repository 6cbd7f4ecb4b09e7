// QA-4 (was pending): a negative size is a runtime error positioned at the size expression.

// == test
// in: -1
// error: negative size -1
export int[[*]] newneg(int n) = new int[[n]];
// == test
// in: -1 -2 [1, 2]
// error: negative size
export int[[*,*]] unf(int m, int n, int[[*]] xs) = unflatten(m, n, xs);
