// RUN: %arrc --emit=typed %s | FileCheck %s
export double[[*]] f(double[[*]] a, (int, double)[[*]] ps) = [x * y + double(i) | x <- a | (i, y) <- ps];
// CHECK-DAG: Branch 1
// CHECK-DAG: Bind (i, y) : (int, double)
