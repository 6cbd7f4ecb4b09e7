// sort_by with the identity as its key (Simplify.cpp, sortByItself): the
// values, permuted like their keys, are the sorted keys, so the Sort sorts
// the array itself as keys alone (no copy of the keys, no values).
// RUN: %arrc --emit=ir %s | FileCheck %s
// CHECK-LABEL: export self(
// CHECK-NEXT: [[S:[a-z_0-9]+]]: int{{.*}} = sort xs_{{[0-9]+}}{{$}}
// CHECK-NEXT: yield [[S]]
export int[[*]] self(int[[*]] xs) = sort_by(\x -> x, xs);
// Another key: the values go along.
// CHECK-LABEL: export neg(
// CHECK: = sort t_{{[0-9]+}} (xs_{{[0-9]+}})
export int[[*]] neg(int[[*]] xs) = sort_by(\x -> -x, xs);
// An array of pairs by its first component: that component is the keys
// (no copy), the second goes along.
// CHECK-LABEL: export bypair(
// CHECK-NEXT: [[K:[a-z_0-9]+]]: int{{.*}}, [[V:[a-z_0-9]+]]: double{{.*}} = sort ps_[[A:[0-9]+]] (ps_{{[0-9]+}})
// CHECK-NEXT: yield [[K]], [[V]]
export (int, double)[[*]] bypair((int, double)[[*]] ps) = sort_by(\(i, _d) -> i, ps);
