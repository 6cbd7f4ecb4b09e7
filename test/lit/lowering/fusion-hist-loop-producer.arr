// A Map whose elements run a loop is not fused into the Hist that reads it
// (Fuse.cpp, rule 1): on CPUs the Hist's chunks would run the loop scalar,
// one element at a time (PoCL, 10^6 points, three histograms of one key:
// 30 ms fused, 4.5 ms apart). A Map without a loop still fuses.
// RUN: %arrc --emit=ir %s | FileCheck %s
export (double[[*]], int[[*]]) km2(double[[*]] xs, double[[*]] ys, double[[*]] cx, double[[*]] cy) {
  let k = length(cx);
  let a = [argmin([(x - u) * (x - u) + (y - v) * (y - v) | u <- cx | v <- cy]) | x <- xs | y <- ys];
  let cnt = hist((+), 0, k, a, replicate(length(xs), 1));
  let sx = hist((+), 0.0, k, a, xs);
  return (sx, cnt);
}
export int[[*]] cheap(int[[*]] xs) = hist((+), 0, 8, [x % 8 | x <- xs], replicate(length(xs), 1));
// CHECK-LABEL: export km2(
// CHECK: a_[[A:[0-9]+]]: int{{\[\[}}*]] = map (
// CHECK: loop
// CHECK: = hist bins
// CHECK-NOT: loop
// CHECK: a_[[A]][
// CHECK-LABEL: export cheap(
// CHECK-NOT: = map (
// CHECK: = hist bins
