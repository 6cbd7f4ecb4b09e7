// Sorting ints ascending. Timed by bench/whole (arrc_bench_whole).
//
//   arrc run bench/programs/sorting.arr -e sort_ints "[3, -1, 2, 3, 0]"  ==> [-1, 0, 2, 3, 3]
export int[[*]] sort_ints(int[[*]] xs) = sort(xs);
