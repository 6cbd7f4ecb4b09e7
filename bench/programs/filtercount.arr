// map + filter + count: how many of x + 15 (x in xs) are multiples of 20.
// Timed by bench/whole (arrc_bench_whole).

// == test
// in: [5, 6, 25, 45, -15, 0]
// out: 4
export int filter_count(int[[*]] xs) = length(filter(\x -> x % 20 == 0, [x + 15 | x <- xs]));
