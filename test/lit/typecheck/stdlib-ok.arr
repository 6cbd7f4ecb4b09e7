// RUN: %arrc --emit=typed %s | FileCheck %s
export int f(double[[*]] xs, int[[*]] ys, double[[*,*]] A, bool[[*]] fl) {
  let c = count(\x -> x > 0.0, xs);
  let b = any(\y -> y == 3, ys) && all(\x -> x < 1.0, xs);
  let (p, q) = partition(\y -> y % 2 == 0, ys);
  let t = take(2, xs) ++ drop(1, xs) ++ rotate(-1, xs);
  let m = argmin(xs) + argmax(ys);
  let r = repl_iota(ys) ++ segm_iota(fl);
  let d = dot(xs, xs) + sum(matvec(A, xs)) + sum(flatten(matmul(A, A))) + sum(flatten(outer(xs, xs)));
  return c + int(d) + length(p) + length(q) + length(t) + m + length(r) + (if b then 1 else 0);
}
// CHECK-DAG: def count<double>
// CHECK-DAG: def partition<int>
// CHECK-DAG: def argmin<double>
// CHECK-DAG: def repl_iota(reps : int{{\[\[}}*{{\]\]}}) : int{{\[\[}}*{{\]\]}}
// CHECK-DAG: def matmul<double>
// CHECK-DAG: def outer<double>
// CHECK-DAG: def dot<double>(x : double{{\[\[}}*{{\]\]}}, y : double{{\[\[}}*{{\]\]}}) : double
