// Sibling loops fused (FuseLoops.cpp): consecutive `for` loops of a body
// with the same count, the second using nothing the first defines, are one
// loop carrying both states; simplify then computes what they share once.
// RUN: %arrc --emit=ir %s | FileCheck %s

// Two sums over the same row: one loop, x[k] read once.
// CHECK-LABEL: export moments(
// CHECK: acc_{{[0-9]+}}: double, acc_{{[0-9]+}}: double = loop (acc_{{[0-9]+}}: double = 0.0, acc_{{[0-9]+}}: double = 0.0) for k_[[K:[0-9]+]] <
// CHECK-NEXT: let [[X:[a-z_0-9]+]]: double = xs_{{[0-9]+}}[k_[[K]]]
// CHECK-NOT: xs_{{[0-9]+}}[
// CHECK: yield
// CHECK-NOT: = loop (
// CHECK: yield t_
export (double, double)[[*]] moments(double[[*]] xs, int n) =
  [(sum([x * double(i) | x <- xs]), sum([x * x + double(i) | x <- xs])) | i <- iota(n)];

// The second loop's count uses the first's result: two loops.
// CHECK-LABEL: export chained(
// CHECK: = loop (
// CHECK: = loop (
export int[[*]] chained(int[[*]] xs, int n) =
  [let s = sum([x % 3 | x <- xs]) in sum([j | j <- iota(s)]) | _i <- iota(n)];

// Both loops may raise (a[idx[k]] and b[idx[k]]): fused, the first error
// could change, so two loops.
// CHECK-LABEL: export tworaise(
// CHECK: = loop (acc_{{[0-9]+}}: double = 0.0) for
// CHECK: = loop (acc_{{[0-9]+}}: double = 0.0) for
export double[[*]] tworaise(double[[*]] a, double[[*]] b, int[[*]] idx, int n) =
  [sum([a[j] | j <- idx]) + sum([b[j] * 2.0 | j <- idx]) | _i <- iota(n)];
