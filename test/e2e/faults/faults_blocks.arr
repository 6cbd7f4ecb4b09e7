// e2e.faults.concurrent-arrc: two `arrc test` processes build this program
// (the driver's harness and the kernels) into one empty cache at once.
// == test
// in: [1.0, 2.0, 3.5]
// out: 6.5
export double total(double[[*]] xs) = sum(xs);
// == test
// in: [3, 1, 2]
// out: [1, 2, 3]
export int[[*]] sorted(int[[*]] xs) = sort(xs);
