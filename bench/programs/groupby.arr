// Group-by: the sum of the values of each distinct key, keys ascending
// (reduce_by_key: a stable sort by key, then a segmented reduction). Timed
// distributed on several GPUs by bench/bench_distributed.cpp.

// == test
// in: [3, 1, 3, 2, 1, 3] [1.0f, 2.0f, 0.5f, 4.0f, 1.0f, 2.5f]
// out: ([1, 2, 3], [3.0f, 4.0f, 4.0f])
// in: [] []
// out: ([], [])
export (int[[*]], float[[*]]) groupby(int[[*]] keys, float[[*]] vs) = reduce_by_key((+), 0.0f, keys, vs);
