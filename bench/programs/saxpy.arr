// a * x + y on float vectors (BLAS level 1). Timed by bench/whole (arrc_bench_whole).

// == test
// in: 2.0f [1.0f, 2.0f] [10.0f, 20.0f]
// out: [12.0f, 24.0f]
export float[[*]] saxpy(float a, float[[*]] x, float[[*]] y) = [a * xi + yi | xi <- x | yi <- y];
