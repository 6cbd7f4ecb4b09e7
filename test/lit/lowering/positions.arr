// A check inside a stdlib or imported function is positioned at the user's
// call, followed by one note per function of the chain, innermost first
// (printed in parentheses; at run time the notes follow the message:
// "file:l:c: error: ...", the source line and caret, "note: in F at FILE:LINE").
// RUN: %arrc --emit=lowered %s | FileCheck %s
export int[[*]] t(int[[*]] x, int[[*]] y) = [dot(x, y)];
export double[[*]] mv(double[[*,*]] a, double[[*]] x) = matvec(a, x);
export int[[*]] tb(int[[*,*]] m, int[[*]] v) = [dot(m[i, :], v) | i <- iota(m.size(0))];
// CHECK: position #{{[0-9]+}} {{.*}}positions.arr:6:46 (note: in dot at {{.*}}linalg.arr:{{[0-9]+}})
// CHECK: position #{{[0-9]+}} {{.*}}positions.arr:7:57 (note: in dot at {{.*}}linalg.arr:{{[0-9]+}};note: in matvec at {{.*}}linalg.arr:{{[0-9]+}})
// CHECK: position #{{[0-9]+}} {{.*}}positions.arr:8:49 (note: in dot at {{.*}}linalg.arr:{{[0-9]+}})
