// == test
// in: 1
// out: 2
export int f(int x) = x + true;
