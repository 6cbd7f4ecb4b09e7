// Filters that bound a range generator's variable narrow the range and
// disappear (docs/lowering.md, "Guarded ranges"); a filter that can fail
// stops the search, and < / > on inclusive ranges are left as filters.
// RUN: %arrc --emit=lowered %s | FileCheck %s
// RUN: %arrc --emit=ir %s | FileCheck %s --check-prefix=IR
// RUN: env ARRC_NARROW_RANGES=0 %arrc --emit=lowered %s | FileCheck %s --check-prefix=OFF

export int triples(int n) =
  sum([1 | x <- [1..<n], y <- [x..<n], z <- [y..<(x + y)], z < n, x * x + y * y == z * z]);
// CHECK-LABEL: export triples(
// CHECK: // comprehension {{[0-9]+}}:7: expand (generator {{[0-9]+}}:40)
// CHECK: = if (n_{{[0-9]+}} < (col_{{[0-9]+}}[i_{{[0-9]+}}] + col_{{[0-9]+}}[i_{{[0-9]+}}])) then {
// CHECK: // comprehension {{[0-9]+}}:7: head map + filter
// CHECK-NEXT: = filter (
// CHECK-NEXT: = if (((col_{{.*}} == (col_
// CHECK-LABEL: export below(

export int[[*]] below(int a, int b, int e) = [z | z <- [a..<b], z <= e];
// ARRC_NARROW_RANGES=0 keeps the filter:
// OFF-LABEL: export below(
// OFF-NOT: select(
// OFF: = filter (
// CHECK: let hi_{{[0-9]+}}: int = select((e_[[E:[0-9]+]] < b_[[B:[0-9]+]]), (e_[[E]] + 1), b_[[B]])
// CHECK-NOT: filter
// CHECK: regular map nest
// CHECK-NOT: filter
// CHECK: yield

export int[[*]] above(int a, int b, int e) = [z | z <- [a..<b], e < z];
// CHECK-LABEL: export above(
// CHECK: let lo_{{[0-9]+}}: int = select((e_[[E:[0-9]+]] < a_[[A:[0-9]+]]), a_[[A]], select((e_[[E]] < b_{{[0-9]+}}), (e_[[E]] + 1), b_{{[0-9]+}}))
// CHECK-NOT: filter
// CHECK: yield

export int[[*]] within(int[[*]] xs, int m) = [xs[z] | z <- [0..<m], z < length(xs)];
// CHECK-LABEL: export within(
// CHECK: = if (int(extent_{{[0-9]+}}) < m_{{[0-9]+}}) then {
// CHECK: yield int(extent_{{[0-9]+}})
// CHECK-NEXT: } else {
// CHECK-NEXT: yield m_
// CHECK-NOT: filter
// CHECK: yield
// The read needs no check: z is below the select, which is below the
// extent in both of its cases (its condition a fact in each).
// IR-LABEL: export within(
// IR: yield xs_{{[0-9]+}}[i_{{[0-9]+}}]{{$}}

export int[[*]] failing_first(int[[*]] xs, int m, int n) = [z | z <- [0..<m], xs[z] > 0, z < n];
// CHECK-LABEL: export failing_first(
// CHECK-NOT: select
// CHECK: = filter (

export int[[*]] inclusive_lt(int a, int b, int e) = [z | z <- [a..b], z < e];
// CHECK-LABEL: export inclusive_lt(
// CHECK-NOT: select
// CHECK: = filter (

// A bound inside a conjunction: `a && b` is the filters `a, b`.
export int[[*]] conj(int[[*]] xs, int m) = [z | z <- [0..<m], z < length(xs) && xs[z] > 0];
// CHECK-LABEL: export conj(
// CHECK: = if (int(extent_{{[0-9]+}}) < m_{{[0-9]+}}) then {
// CHECK: = filter (
// CHECK-NOT: &&
// CHECK: = if (xs_{{[0-9]+}}[long(z_{{[0-9]+}})]!{{[0-9]+}} > 0) then {
