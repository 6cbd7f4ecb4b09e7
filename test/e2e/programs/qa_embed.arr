// Export signatures a C++ user meets (held-out QA of stop 39): tuples holding
// arrays, arrays of tuples inside tuples, rank 9 (views copied back through
// the strided copy's loop over its outer axis). test/e2e/harness.cpp calls
// them from C++ too (unequal components of an array of tuples, moved-from
// arrays, null host pointers).

// == test
// in: ([1.0, 2.0, 3.0], 1)
// out: 2.0
export double pick((double[[*]], int) p) = p.0[p.1];

// == test
// in: (([[1, 2], [3, 4]], 0.5f), [1.0, 2.0])
// out: 13.5f
export float nest(((int[[*,*]], float), double[[*]]) q) = q.0.1 + float(sum(q.1)) + float(sum(flatten(q.0.0)));

// == test
// in: ([(1, 2.0), (3, 4.0)], 10)
// out: 16
// in: ([], 10)
// out: 10
export int aot(((int, double)[[*]], int) r) = length(r.0) + r.1 + sum([t.0 | t <- r.0]);

// == test
// in: ([1.0], 1)
// out: ([1.0], 2)
export (double[[*]], int) echo((double[[*]], int) p) = (p.0, p.1 + 1);

// == test
// in: [(1, 2.5), (3, 4.5)]
// out: 7.0
export double second_sum((int, double)[[*]] p) = sum([q.1 | q <- p]);

type A9 = double[[*,*,*,*,*,*,*,*,*]];
// == test
// in: [[[[[[[[[1.0, 2.0, 3.0]]]]]]]], [[[[[[[[4.0, 5.0, 6.0]]]]]]]]]
// out: [[[[[[[[[2.0, 3.0]]]]]]]], [[[[[[[[5.0, 6.0]]]]]]]]]
export A9 sec9(A9 a) = a[:, :, :, :, :, :, :, :, 1:2];
// == test
// in: [[[[[[[[[1.0, 2.0, 3.0]]]]]]]], [[[[[[[[4.0, 5.0, 6.0]]]]]]]]]
// out: [[[[[[[[[4.0, 6.0]]]]]]]], [[[[[[[[1.0, 3.0]]]]]]]]]
export A9 flip9(A9 a) = a[1:0:-1, :, :, :, :, :, :, :, 0:2:2];
// == test
// in: [[[[[[[[[1.0, 2.0, 3.0]]]]]]]], [[[[[[[[4.0, 5.0, 6.0]]]]]]]]]
// out: 21.0
export double sum9(A9 a) = sum(flatten(a));
