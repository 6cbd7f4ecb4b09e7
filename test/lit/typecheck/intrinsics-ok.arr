// RUN: %arrc --emit=typed %s | FileCheck %s
export int f(double[[*]] xs, int[[*]] is, bool[[*]] fl, double[[*,*]] A) {
  let a = sum(xs) + product(xs) + maximum(xs) + minimum(xs);
  let b = scatter(xs, is, xs) ++ gather(xs, is) ++ reverse(xs) ++ concat(xs, xs);
  let c = hist((+), 0.0, 10, is, xs) ++ sort(xs) ++ sort_by(\x -> -x, xs);
  let (ks, vs) = reduce_by_key((+), 0.0, is, xs);
  let (u, w) = unzip(zip(is, xs));
  let e = expand(\k -> k, \k j -> k * j, is) ++ expand_reduce(\k -> k, \k j -> k + j, (+), 0, is);
  let g = segmented_scan((+), 0.0, fl, xs) ++ segmented_reduce((+), 0.0, fl, xs);
  let h = transpose(A)[0, :] ++ flatten(A) ++ flatten(unflatten(2, 3, xs)) ++ replicate(3, 1.0);
  let m = floor(xs) ++ ceil(xs) ++ round(xs) ++ exp(xs) ++ log(xs) ++ sin(xs) ++ cos(xs) ++ tan(xs) ++ erf(xs) ++ pow(xs, xs) ++ atan2(xs, xs) ++ abs(xs) ++ min(xs, xs) ++ max(xs, xs);
  let n = isnan(xs);
  return int(a) + length(b) + length(c) + length(ks) + length(vs) + length(u) + length(w) + length(e) + length(g) + length(h) + length(m) + length(n) + length(A);
}
// CHECK-DAG: Var reduce_by_key [intrinsic] : ((double, double) -> double, double, int{{\[\[}}*{{\]\]}}, double{{\[\[}}*{{\]\]}}) -> (int{{\[\[}}*{{\]\]}}, double{{\[\[}}*{{\]\]}})
// CHECK-DAG: Var unzip [intrinsic] : ((int, double){{\[\[}}*{{\]\]}}) -> (int{{\[\[}}*{{\]\]}}, double{{\[\[}}*{{\]\]}})
// CHECK-DAG: Var transpose [intrinsic] : (double{{\[\[}}*,*{{\]\]}}) -> double{{\[\[}}*,*{{\]\]}}
// CHECK-DAG: Var isnan [intrinsic] : (double{{\[\[}}*{{\]\]}}) -> bool{{\[\[}}*{{\]\]}}
