// A loop's read checked before the map (BoundsChecks.cpp, promoteLoopRead):
// a read at k on one axis (k the loop counter, exact) and at fixed or proven
// indices on the others, the only thing in the loop that can raise, is
// checked once by a host Check before the map; in the loop it is unchecked.
// RUN: %arrc --emit=ir %s | FileCheck %s

// dgemm as a sum over k: B[k, j] (k below A.size(1), not B.size(0)).
// CHECK-LABEL: export mm_sum(
// CHECK: check Bounds #{{[0-9]+}} ({{.*}}(max(long(int(A_{{[0-9]+}}.shape(1))), 0L) <= B_[[B:[0-9]+]].shape(0)){{.*}} [select((!(0L < B_[[B]].shape(0))), 0L, B_[[B]].shape(0)), B_[[B]].shape(0), 0L]
// CHECK: = map (
// CHECK-NOT: ]!
// CHECK: yield nest_
export double[[*,*]] mm_sum(double[[*,*]] A, double[[*,*]] B) =
  [[sum([A[i, k] * B[k, j] | k <- iota(A.size(1))]) | j <- iota(B.size(1))] | i <- iota(A.size(0))];

// A fixed row r: its range is part of the Check, reported first.
// CHECK-LABEL: export rowsum(
// CHECK: check Bounds #{{[0-9]+}} {{.*}}(long(r_{{[0-9]+}}) >= 0L) && (long(r_{{[0-9]+}}) < M_{{[0-9]+}}.shape(0))
// CHECK-NOT: ]!
// CHECK: yield t_
export double[[*]] rowsum(double[[*,*]] M, int r, int m, int n) = [sum([M[r, k] + double(i) | k <- iota(m)]) | i <- iota(n)];

// o + k in int arithmetic may wrap: not exact, the read stays checked.
// CHECK-LABEL: export win(
// CHECK-NOT: check Bounds
// CHECK: x_{{[0-9]+}}[long((o_{{[0-9]+}} + k_{{[0-9]+}}))]!
export double[[*]] win(double[[*]] x, int o, int m, int n) = [sum([x[o + k] * double(i) | k <- iota(m)]) | i <- iota(n)];

// Two reads that may raise in the loop: which one fails first depends on
// k, so neither moves.
// CHECK-LABEL: export two(
// CHECK-NOT: check Bounds
// CHECK: ]!{{[0-9]+}}
export double[[*]] two(double[[*]] x, double[[*]] y, int m, int n) = [sum([x[k] * y[k] | k <- iota(m)]) | i <- iota(n)];
