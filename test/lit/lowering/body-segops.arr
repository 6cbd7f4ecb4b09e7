// scatter/hist/sort/segmented ops inside a parallel body: index functions
// whose elements are sequential Loops over the arguments (no storage); the
// zip size of index and value arrays is a guard, hoisted to a host Check when
// it only uses host values.
// RUN: %arrc --emit=lowered %s | FileCheck %s
export int[[*]] hi(int n) = [let h = hist((+), 0, 3, [x % 3, 1, 1, 7], [10, 20, 30, 40]) in h[0] | x <- [0..<n]];
// CHECK-LABEL: export hi(
// CHECK: // hoisted from a parallel body
// CHECK-NEXT: check ZipSize #{{[0-9]+}} (4L == 4L) [4L, 4L]
// CHECK: = map (
// CHECK: = loop (
// CHECK: = if
// CHECK-NOT: = hist
export int[[*]] so(int n) = [sort([x, 3, 1, 2])[0] | x <- [0..<n]];
// CHECK-LABEL: export so(
// CHECK: = map (
// CHECK: = loop (
// CHECK: = loop (
// CHECK-NOT: = sort
