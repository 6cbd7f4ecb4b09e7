// RUN: %arrc --emit=typed %s | FileCheck %s
<T> def T[[*]] rev(T[[*]] xs) = xs[xs.size(0)-1 : 0 : -1];
export int[[*]] f(int[[*]] a, double[[*]] b) = rev(a) ++ rev(rev(a)) ++ [int(x) | x <- rev(b)];
// CHECK-DAG: def rev<int>(xs : int{{\[\[}}*{{\]\]}}) : int{{\[\[}}*{{\]\]}} [instance of rev]
// CHECK-DAG: def rev<double>(xs : double{{\[\[}}*{{\]\]}}) : double{{\[\[}}*{{\]\]}} [instance of rev]
// CHECK-DAG: Var rev [function rev<int>] : (int{{\[\[}}*{{\]\]}}) -> int{{\[\[}}*{{\]\]}}
