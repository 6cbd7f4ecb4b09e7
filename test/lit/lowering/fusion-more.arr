// More fusions (--emit=ir): zip of maps (horizontal), map-filter,
// filter-reduce (count), and the runtime regularity check of a nested
// comprehension whose inner size varies.
// RUN: %arrc --emit=lowered %s | FileCheck %s --check-prefix=LOW
// RUN: %arrc --emit=ir %s | FileCheck %s
export (double[[*]], double[[*]]) twomaps(double[[*]] a) = ([x * 2.0 | x <- a], [x + 1.0 | x <- a]);
// LOW-LABEL: export twomaps(
// LOW-COUNT-2: = map (
// CHECK-LABEL: export twomaps(
// CHECK-NEXT: let n_{{[0-9]+}}: long = a_0.shape(0)
// CHECK-NEXT: // comprehension 6:61: regular map nest; comprehension 6:81: regular map nest
// CHECK-NEXT: t_{{[0-9]+}}: double{{.*}}, t_{{[0-9]+}}: double{{.*}} = map (
// CHECK-NOT: = map (
// CHECK: export mapfilter(
export double[[*]] mapfilter(double[[*]] a) = filter(\y -> y > 1.0, [x * 2.0 | x <- a]);
// LOW-LABEL: export mapfilter(
// LOW: = map (
// LOW: = filter (
// CHECK-NOT: = map (
// CHECK: = filter (
// CHECK-NEXT: let x_{{[0-9]+}}: double = a_{{[0-9]+}}[i_{{[0-9]+}}]
// CHECK-NEXT: let [[E:cse_[0-9]+]]: double = (x_{{[0-9]+}} * 2.0)
// CHECK-NEXT: yield ([[E]] > 1.0), [[E]]
export int cnt(int[[*]] xs) = count(\x -> x > 2, xs);
// CHECK-LABEL: export cnt(
// CHECK-NOT: filter
// CHECK: // sum; fused with comprehension
// CHECK-NEXT: red_{{[0-9]+}}: int = reduce (
// CHECK-NOT: filter
export int[[*,*]] irr(int[[*]] xs) = [[x | x <- xs, x > i] | i <- [0..<3]];
// CHECK-LABEL: export irr(
// CHECK: inner sizes (runtime regularity check)
// CHECK: check Irregular #{{[0-9]+}}
// CHECK: // comprehension 30:38: nested map, inner size checked at run time (fill)
// CHECK: write nest_
