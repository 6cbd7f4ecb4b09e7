// dot.arr — the dot product of two vectors: a zip comprehension, reduced
// by sum (the reduction fuses: no intermediate array is made).
//
//   arrc run examples/dot.arr -e dot "[1.0, 2.0]" "[3.0, 4.0]"  ==> 11.0
export double dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);
