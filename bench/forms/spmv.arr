// Alternative forms (bench/forms/README.md): CSR SpMV written other ways.
// Each export with a bench block is timed by bench/run_forms.sh.
// == test
// in: [0, 2, 2, 5] [0, 2, 0, 1, 2] [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 10.0, 100.0]
// out: [201.0, 0.0, 543.0]
export double[[*]] sp1(int[[*]] ro, int[[*]] cols, double[[*]] vals, double[[*]] x) =
  [sum([vals[k] * x[cols[k]] | k <- [ro[i]..<ro[i + 1]]]) | i <- iota(length(ro) - 1)];
// == test
// in: [0, 2, 2, 5] [0, 2, 0, 1, 2] [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 10.0, 100.0]
// out: [201.0, 0.0, 543.0]
export double[[*]] sp2(int[[*]] ro, int[[*]] cols, double[[*]] vals, double[[*]] x) =
  expand_reduce(\i -> ro[i + 1] - ro[i], \i j -> vals[ro[i] + j] * x[cols[ro[i] + j]], (+), 0.0, iota(length(ro) - 1));
// == test
// in: [0, 2, 2, 5] [0, 2, 0, 1, 2] [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 10.0, 100.0]
// out: [201.0, 0.0, 543.0]
export double[[*]] sp3(int[[*]] ro, int[[*]] cols, double[[*]] vals, double[[*]] x) {
  let n = length(ro) - 1;
  let rows = [i | i <- iota(n), k <- [ro[i]..<ro[i + 1]]];
  return hist((+), 0.0, n, rows, [v * x[c] | v <- vals | c <- cols]);
}
// == test
// in: [0, 2, 2, 5] [0, 2, 0, 1, 2] [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 10.0, 100.0]
// out: [201.0, 0.0, 543.0]
export double[[*]] sp4(int[[*]] ro, int[[*]] cols, double[[*]] vals, double[[*]] x) =
  [let a = ro[i] in let b = ro[i + 1] in reduce((+), 0.0, [vals[k] * x[cols[k]] | k <- [a..<b]]) | i <- iota(length(ro) - 1)];
// == test
// in: [0, 2, 2, 5] [0, 2, 0, 1, 2] [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 10.0, 100.0]
// out: [201.0, 0.0, 543.0]
export double[[*]] sp5(int[[*]] ro, int[[*]] cols, double[[*]] vals, double[[*]] x) =
  [loop (acc = 0.0) for k < ro[i + 1] - ro[i] do acc + vals[ro[i] + k] * x[cols[ro[i] + k]] | i <- iota(length(ro) - 1)];
