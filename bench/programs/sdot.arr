// The dot product of two float vectors (a reduction of a zip comprehension).
// Timed by bench/whole (arrc_bench_whole).

// == test
// in: [1.0f, 2.0f] [3.0f, 4.0f]
// out: 11.0f
export float sdot(float[[*]] a, float[[*]] b) = sum([x * y | x <- a | y <- b]);
