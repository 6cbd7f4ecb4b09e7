// RUN: %arrc --emit=typed %s | FileCheck %s
export double[[*]] f(double[[*,*]] A) = [sum(row) | row <- A];
// CHECK-DAG: Bind row : double{{\[\[}}*{{\]\]}}
