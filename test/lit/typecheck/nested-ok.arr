// RUN: %arrc --emit=typed %s | FileCheck %s
export double[[*,*]] f(double[[*,*]] A, int m, int n) = [[A[i,k] * 2.0 | k <- [0..<n]] | i <- [0..<m]];
// CHECK-DAG: Comprehension : double{{\[\[}}*,*{{\]\]}}
// CHECK-DAG: Comprehension : double{{\[\[}}*{{\]\]}}
