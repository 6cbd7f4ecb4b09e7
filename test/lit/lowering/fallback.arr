// A generator over a filter whose predicate uses the outer variable has no
// Size/Fetch: the general fallback (count, exclusive scan, fill).
// RUN: %arrc --emit=lowered %s | FileCheck %s
export int[[*]] f(int[[*]] ys) = [x + y | x <- [0..<3], y <- filter(\v -> v > x, ys)];
// CHECK-LABEL: export f(
// CHECK-NOT: expand (
// CHECK: // comprehension 4:34: fallback (count, scan, fill) for generator 4:57
// CHECK-NEXT: counts_{{[0-9]+}}: long{{\[\[\*\]\]}} = map (
// CHECK: loop (
// CHECK: scan_exclusive (
// CHECK: = alloc(
// CHECK: map (
// CHECK: loop (
// CHECK: write col_{{[0-9]+}}[
