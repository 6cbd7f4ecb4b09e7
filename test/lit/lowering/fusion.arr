// Fusion: a reduction of a comprehension reads its inputs once and writes no
// intermediate array.
// RUN: %arrc --emit=lowered %s | FileCheck %s --check-prefix=LOW
// RUN: %arrc --emit=ir %s | FileCheck %s
export double dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);
// LOW-LABEL: export dot(
// LOW: check ZipSize
// LOW: = map (
// LOW: = reduce (
// CHECK-LABEL: export dot(
// CHECK: check ZipSize
// CHECK-NOT: map
// CHECK: // sum; fused with comprehension 5:55: zip
// CHECK-NEXT: red_{{[0-9]+}}: double = reduce (i_{{[0-9]+}} < n_{{[0-9]+}}) {
// CHECK-NEXT: yield (a_{{[0-9]+}}[i_{{[0-9]+}}] * b_{{[0-9]+}}[i_{{[0-9]+}}])
// CHECK-NOT: map
export int positives(int[[*]] xs) = sum([x | x <- xs, x > 0]);
// LOW-LABEL: export positives(
// LOW: = filter (
// LOW: = reduce (
// CHECK-LABEL: export positives(
// CHECK-NOT: filter
// CHECK: // sum; fused with comprehension
// CHECK-NEXT: = reduce (
// CHECK-NOT: filter
export double[[*]] mapmap(double[[*]] a) = [y + 1.0 | y <- [x * 2.0 | x <- a]];
// CHECK-LABEL: export mapmap(
// CHECK-COUNT-1: = map (
// CHECK-NOT: = map (
// CHECK: yield
export int[[*]] mapscan(int[[*]] a) = scan((+), 0, [x * x | x <- a]);
// CHECK-LABEL: export mapscan(
// CHECK-NOT: = map (
// CHECK: = scan (
// CHECK-NEXT: x_{{[0-9]+}}: int = a_{{[0-9]+}}[
export int tri(int n) = sum([x * y | x <- [0..<n], y <- [0..<x]]);
// LOW-LABEL: export tri(
// LOW: = expand (
// LOW: = reduce (
// A sum of an irregular comprehension stays flat (load balanced) and
// materialises nothing: one expand into reduce whose body computes the head.
// CHECK-LABEL: export tri(
// CHECK-NOT: = expand (
// CHECK: red_{{[0-9]+}}: int = expand into reduce (
// CHECK: yield (x_{{[0-9]+}} * y_{{[0-9]+}})
// CHECK-NEXT: } op (x_{{[0-9]+}}: int, y_{{[0-9]+}}: int) {
// CHECK-NEXT: yield (x_{{[0-9]+}} + y_{{[0-9]+}})
// CHECK-NEXT: } ne (0)
// CHECK-NOT: reduce (
// CHECK-NOT: loop
