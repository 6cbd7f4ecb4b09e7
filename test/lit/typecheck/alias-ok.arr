// RUN: %arrc --emit=typed %s | FileCheck %s
type vec = double[[*]];
type mat = vec[[*]];
export mat f(mat A, vec x) = A with [0, :] = x;
// CHECK-DAG: export f(A : double{{\[\[}}*,*{{\]\]}}, x : double{{\[\[}}*{{\]\]}}) : double{{\[\[}}*,*{{\]\]}}
