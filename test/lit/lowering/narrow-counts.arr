// Counting loops in device code count on an int accumulator where the trip
// count allows (NarrowCounts.cpp): `length` of a filtered comprehension
// (a long count) and `sum([1L | ..])`, their innermost level folded in a
// loop per element (the CPU plan), test the count against 2^31 - 1 once per
// loop; a sum of other values is left alone.
// RUN: %arrc --emit=ir %s | FileCheck %s
// CHECK-LABEL: export triples(
// CHECK: [[N:cse_[0-9]+]]: long = max(
// CHECK-NEXT: part_{{[0-9]+}}: long = if ([[N]] <= 2147483647L) then {
// CHECK-NEXT: [[P:part_[0-9]+]]: int = loop ([[A:acc_[0-9]+]]: int = 0) for k_{{[0-9]+}} < [[N]] {
// CHECK: yield ([[A]] + select(
// CHECK: yield long([[P]])
// CHECK-NEXT: } else {
// CHECK-NEXT: part_{{[0-9]+}}: long = loop (acc_{{[0-9]+}}: long = 0L)
export int triples(int n) =
  length([(x, y, z) | x <- [1..<n], y <- [x+1..<n], z <- [y+1..<n], x*x + y*y == z*z]);
// CHECK-LABEL: export ones(
// CHECK: if ({{.*}} <= 2147483647L) then {
// CHECK: yield (acc_{{[0-9]+}} + int(e_
export long ones(int n) = sum([1L | x <- [1..<n], y <- [x+1..<n], z <- [y..<n], x % y == z]);
// CHECK-LABEL: export sums(
// CHECK-NOT: 2147483647L
// CHECK: }
export long sums(int n) = sum([long(y) | x <- [1..<n], y <- [x+1..<n], z <- [y..<n], x % y == z]);
