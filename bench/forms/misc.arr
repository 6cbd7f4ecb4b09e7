// Alternative forms (bench/forms/README.md): stencils, Jacobi, Mandelbrot, transposes, prefix sums, histograms, norms, matrix-vector products.
// Each export with a bench block is timed by bench/run_forms.sh.
// == bench
// sizes: n=10^7
// gen: [n]
export float[[*]] stencil1(float[[*]] a) = [(a[i - 1] + a[i] + a[i + 1]) / 3.0f | i <- [1..<length(a) - 1]];
// == bench
// sizes: n=2000
// gen: [n, n]
export float[[*,*]] jacobi(float[[*,*]] A) =
  [[0.25f * (A[i - 1, j] + A[i + 1, j] + A[i, j - 1] + A[i, j + 1]) | j <- [1..<A.size(1) - 1]] | i <- [1..<A.size(0) - 1]];
// == bench
// sizes: n=500
// gen: [n, n] 10
export float[[*,*]] jacobi_loop(float[[*,*]] A0, int iters) =
  loop (A = A0) for it < iters do
    [[if i == 0 || j == 0 || i == A.size(0) - 1 || j == A.size(1) - 1 then A[i, j]
      else 0.25f * (A[i - 1, j] + A[i + 1, j] + A[i, j - 1] + A[i, j + 1]) | j <- iota(A.size(1))] | i <- iota(A.size(0))];
// == bench
// sizes: n=512
// gen: n 100
export int[[*,*]] mandel(int n, int maxit) =
  [[ (loop (st = (0.0f, 0.0f, 0)) while st.2 < maxit && st.0 * st.0 + st.1 * st.1 < 4.0f do
        (st.0 * st.0 - st.1 * st.1 + (-2.0f + 3.0f * float(j) / float(n)), 2.0f * st.0 * st.1 + (-1.5f + 3.0f * float(i) / float(n)), st.2 + 1)).2
     | j <- iota(n)] | i <- iota(n)];
// == bench
// sizes: n=2000
// gen: [n, n]
export float[[*,*]] transp(float[[*,*]] A) = [[A[j, i] | j <- iota(A.size(0))] | i <- iota(A.size(1))];
// == bench
// sizes: n=10^7
// gen: [n]
export float[[*]] prefix(float[[*]] a) = scan((+), 0.0f, a);
// == bench
// sizes: n=10^7
// gen: [n]:0..255
export int[[*]] histo(int[[*]] px) = hist((+), 0, 256, px, replicate(length(px), 1));
// == bench
// sizes: n=10^7
// gen: [n]
export float maxabs(float[[*]] a) = maximum([abs(x) | x <- a]);
// == bench
// sizes: n=10^7
// gen: [n]
export (float, float) meanvar(float[[*]] a) {
  let n = float(length(a));
  let m = sum(a) / n;
  return (m, sum([(x - m) * (x - m) | x <- a]) / n);
}
// == bench
// sizes: n=1000
// gen: [n, n] [n]
export double[[*]] matvec1(double[[*,*]] A, double[[*]] x) = [sum([A[i, j] * x[j] | j <- iota(A.size(1))]) | i <- iota(A.size(0))];
// == bench
// sizes: n=1000
// gen: [n, n] [n]
export double[[*]] matvecT(double[[*,*]] A, double[[*]] x) = [sum([A[j, i] * x[j] | j <- iota(A.size(0))]) | i <- iota(A.size(1))];
