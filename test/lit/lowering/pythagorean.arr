// Irregular generators with Size/Fetch (ranges depending on outer variables)
// become expand; the filters become one filter.
// RUN: %arrc --emit=lowered %s | FileCheck %s
export (int,int,int)[[*]] pyth(int n) =
  [(x, y, z) | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z];
// CHECK-LABEL: export pyth(
// CHECK: // comprehension 5:3: expand (generator 5:30)
// CHECK-NEXT: col_{{[0-9]+}}: int{{\[\[\*\]\]}}, col_{{[0-9]+}}: int{{\[\[\*\]\]}} = expand
// CHECK: // comprehension 5:3: expand (generator 5:44)
// CHECK: // comprehension 5:3: head map + filter
// CHECK-NEXT: = filter (
// CHECK-NOT: fallback
