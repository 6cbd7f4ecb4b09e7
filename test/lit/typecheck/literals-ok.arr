// RUN: %arrc --emit=typed %s | FileCheck %s
export double[[*,*]] f() = [[1.0, 2.0], [3.0, 4.0]];
export (int, bool)[[*]] g() = [(1, true), (2, false)];
// CHECK-DAG: ArrayLit : double{{\[\[}}*,*{{\]\]}}
// CHECK-DAG: ArrayLit : (int, bool){{\[\[}}*{{\]\]}}
