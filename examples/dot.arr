// dot.arr — the dot product of two vectors: a zip comprehension, reduced
// by sum (the reduction fuses: no intermediate array is made).
//
//   arrc run examples/dot.arr -e dot "[1.0, 2.0]" "[3.0, 4.0]"     # 11.0
//   arrc test examples/dot.arr                                    # the blocks below
//   arrc bench examples/dot.arr --size n=10^7

// == test
// in:  [1.0, 2.0] [3.0, 4.0]
// out: 11.0
// in:  [] []
// out: 0.0
// in:  [1.0, 2.0] [3.0]
// error: zip of arrays of unequal sizes
//
// == bench
// sizes: n=10^6
// gen:   [n] [n]
// bytes: 16*n
export double dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);
