// A Reduce over a flattened regular nest folds its innermost axis in a loop
// on CPUs (ReduceInnerLoop.cpp): the If of plans by device, the CPU plan a
// Reduce over the outer rows whose element is a loop over the innermost
// axis (i % E as the counter, i / E and i / (A * E) from the row), the GPU
// plan the flat Reduce.
// RUN: %arrc --emit=ir %s | FileCheck %s
export int cube(int n) = sum([1 | x <- [1..<n], y <- [1..<n], z <- [1..<n], x * x + y * y == z * z]);
// CHECK-LABEL: export cube(
// CHECK: let n_[[E:[0-9]+]]: long = max((long(n_0) - 1L), 0L)
// CHECK: // plans by device: the innermost axis as a loop (CPUs) or flat (GPUs)
// CHECK-NEXT: red_{{[0-9]+}}: int = if inner_loops_sequential() then {
// CHECK: = reduce (o_[[O:[0-9]+]] < (n_[[E]] * n_[[E]])) {
// CHECK-NEXT: let i_{{[0-9]+}}: long = (o_[[O]] % n_[[E]])
// CHECK: = loop (acc_{{[0-9]+}}: int = 0) for k_[[K:[0-9]+]] < n_[[E]] {
// CHECK-NEXT: let z_{{[0-9]+}}: int = (1 + int(k_[[K]]))
// CHECK: } else {
// CHECK: = reduce (i_[[I:[0-9]+]] < n_{{[0-9]+}}) {
// CHECK-NEXT: let i_{{[0-9]+}}: long = (i_[[I]] % n_[[E]])

// Through a flattening view (i / (E * E), (i / E) % E, i % E).
export int cube_count(int n) =
  count(\(x, y, z) -> x * x + y * y == z * z, [(x, y, z) | x <- [1..<n], y <- [1..<n], z <- [1..<n]]);
// CHECK-LABEL: export cube_count(
// CHECK: if inner_loops_sequential() then {
// CHECK: = reduce (o_[[O2:[0-9]+]] < (n_[[E2:[0-9]+]] * n_[[E2]])) {
// CHECK-NEXT: let i_{{[0-9]+}}: long = (o_[[O2]] / n_[[E2]])

// Not for an operator whose neutral element is no identity (each row's
// fold would start at it).
export int shifted(int[[*]] xs, int[[*]] ys) = reduce((+), 1, [x * y | x <- xs, y <- ys]);
// CHECK-LABEL: export shifted(
// CHECK-NOT: inner_loops_sequential
// CHECK: } ne (1)
