// Malformed blocks (see ../test-blocks-err.test for the expected errors).
// == tset
// in: 1
// out: 1
export int id(int x) = x;

// == test
// in:   [1, 2 3]
// out: 1
// ouput: 2
// in: 3
// in: 4
// error: x
// out: 5
// tolerance: big
// in: 6
// out: [1,
//       ]
export int twice(int x) = 2 * x;

// == bench
// out: 1
export int thrice(int x) = 3 * x;

// == test
// entry: nosuch
// in: 1
// out: 1
export int four(int x) = 4 * x;

// == bench
// gen: [n]:0.5
// sizes: 3
export int five(int x) = 5 * x;

//   arrc run x.arr -e id 1  ==> 1
