// == test
// entry: nosuch
// in: 1
// out: 1
export int four(int x) = 4 * x;

// == test
// in: 1
// out: 1
def int last(int x) = x;
