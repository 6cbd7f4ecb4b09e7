// Sorting ints ascending. Timed by bench/whole (arrc_bench_whole).

// == test
// in: [3, -1, 2, 3, 0]
// out: [-1, 0, 2, 3, 3]
export int[[*]] sort_ints(int[[*]] xs) = sort(xs);
