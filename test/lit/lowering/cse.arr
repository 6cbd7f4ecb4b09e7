// Common subexpressions inside SOAC bodies and the loops in them (--emit=ir):
// a repeated pure subexpression is bound once by a `cse` Let. argmin's fold
// in a map body tests the same conditions for both components of its
// state; dist2's loop body squares one difference. Bounds-checked reads are
// left alone (each keeps its position). JamLoops (off here) would run the
// argmin two centres per step (lowering/jam-loops.arr).
// RUN: %arrc --emit=lowered %s | FileCheck %s --check-prefix=LOW
// RUN: env ARRC_JAM_LOOPS=0 %arrc --emit=ir %s | FileCheck %s
def double dist2(double[[*]] a, double[[*]] b) = sum([(x - y) * (x - y) | x <- a | y <- b]);
export int[[*]] nearest(double[[*,*]] P, double[[*,*]] C) = [argmin([dist2(P[i, :], C[c, :]) | c <- iota(C.size(0))]) | i <- iota(P.size(0))];
// LOW-LABEL: export nearest(
// LOW-NOT: cse_
// LOW: yield (acc_{{[0-9]+}} + ((x_[[X:[0-9]+]] - y_[[Y:[0-9]+]]) * (x_[[X]] - y_[[Y]])))
// CHECK-LABEL: export nearest(
// CHECK: = loop (
// CHECK: = loop (
// CHECK: let [[D:cse_[0-9]+]]: double = (x_{{[0-9]+}} - y_{{[0-9]+}})
// CHECK-NEXT: yield (acc_{{[0-9]+}} + ([[D]] * [[D]]))
// CHECK-NEXT: }
// The fold's `int(k) < 0` (b's index, k the loop counter) is decided false
// (BoundsChecks), so its select is gone; so is the tie-break `int(k) < p`
// (p, the index state, is below k: indexStateFacts).
// CHECK-NEXT: let [[C1:cse_[0-9]+]]: bool = (acc_{{[0-9]+}} < 0)
// CHECK-NEXT: let [[C3:cse_[0-9]+]]: bool = (acc_{{[0-9]+}} < acc_{{[0-9]+}})
// CHECK-NEXT: yield select([[C1]], int(k_{{[0-9]+}}), select([[C3]], int(k_{{[0-9]+}}), acc_{{[0-9]+}})), select([[C1]], acc_{{[0-9]+}}, select([[C3]], acc_{{[0-9]+}}, acc_{{[0-9]+}}))
export int[[*]] chk(int[[*]] xs, int[[*]] ys) = [xs[y] * xs[y] + xs[y + 1] | y <- ys];
export double[[*]] poly(double[[*]] xs) = [(x * x + 1.0) * (x * x + 1.0) - x * x | x <- xs];
// CHECK-LABEL: export chk(
// CHECK-NOT: cse_
// CHECK: yield ((xs_{{[0-9]+}}[long(y_{{[0-9]+}})]!{{[0-9]+}} * xs_{{[0-9]+}}[long(y_{{[0-9]+}})]!{{[0-9]+}}) + xs_
// Nested repeats: the largest repeated expression is bound, and its parts
// only where they also occur elsewhere.
// CHECK-LABEL: export poly(
// CHECK: let x_[[X:[0-9]+]]: double = xs_{{[0-9]+}}[i_{{[0-9]+}}]
// CHECK-NEXT: let [[SQ:cse_[0-9]+]]: double = (x_[[X]] * x_[[X]])
// CHECK-NEXT: let [[P:cse_[0-9]+]]: double = ([[SQ]] + 1.0)
// CHECK-NEXT: yield (([[P]] * [[P]]) - [[SQ]])
