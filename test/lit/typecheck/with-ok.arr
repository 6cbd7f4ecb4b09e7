// RUN: %arrc --emit=typed %s | FileCheck %s
export double[[*,*]] f(double[[*,*]] A, double[[*]] c) = (A with [0, 1] = 2.0) with [:, 0] = c;
// CHECK-DAG: With : double{{\[\[}}*,*{{\]\]}}
