// RUN: %arrc --emit=typed %s | FileCheck %s
export bool[[*,*]] f(double[[*,*]] A, double[[*,*]] B, double s) = (s * A + B * s - -A) / B < sqrt(A);
// CHECK-DAG: Binary < : bool{{\[\[}}*,*{{\]\]}}
// CHECK-DAG: Unary - : double{{\[\[}}*,*{{\]\]}}
// CHECK-DAG: Call : double{{\[\[}}*,*{{\]\]}}
