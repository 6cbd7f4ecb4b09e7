// RUN: %arrc --emit=typed %s | FileCheck %s
export (int, float)[[*,*]] f(int m, long n) = new (int, float)[[m, n]];
// CHECK-DAG: New (int, float) : (int, float){{\[\[}}*,*{{\]\]}}
