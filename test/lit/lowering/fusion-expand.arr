// Expand fused with its consumer (--emit=ir): a reduction of an irregular
// comprehension is one `expand into reduce`, a filtered irregular
// comprehension one `expand into filter`; a filter used only through its
// length counts (a reduce; an expand into reduce) instead of compacting.
// RUN: %arrc --emit=lowered %s | FileCheck %s --check-prefix=LOW
// RUN: %arrc --emit=ir %s | FileCheck %s
export int pyth(int n) = sum([1 | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z]);
// LOW-LABEL: export pyth(
// LOW-COUNT-2: = expand (
// LOW: = filter (
// LOW: = reduce (
// Two plans by device (FuseExpandLoop.cpp). CPUs: the (x, y) pairs are not
// stored; one expand into reduce over them folds each pair's z's in a loop,
// starting at the sum's neutral element.
// CHECK-LABEL: export pyth(
// CHECK: // plans by device: inner levels as loops (CPUs) or flattened (GPUs)
// CHECK-NEXT: red_{{[0-9]+}}: int = if inner_loops_sequential() then {
// CHECK-NEXT: // sum; {{.*}} (inner level folded in a loop)
// CHECK-NEXT: red_{{[0-9]+}}: int = expand into reduce (i_{{[0-9]+}} < n_{{[0-9]+}}) size {
// CHECK-NOT: col_
// CHECK: part_{{[0-9]+}}: int = loop (acc_{{[0-9]+}}: int = 0) for k_{{[0-9]+}} < max((long(r_{{[0-9]+}}) - long(y_{{[0-9]+}})), 0L) {
// CHECK: yield (acc_{{[0-9]+}} + e_{{[0-9]+}})
// CHECK: } else {
// GPUs: the (x, y) expand is materialised, then ONE expand into reduce: the
// filter's keep flag guards the element, the sum's operator folds it (the
// bound `z < n` narrows z's range instead: guarded-ranges.arr).
// CHECK: col_{{[0-9]+}}: int{{\[\[}}*]], col_{{[0-9]+}}: int{{\[\[}}*]] = expand (
// CHECK: red_{{[0-9]+}}: int = expand into reduce (i_{{[0-9]+}} < col_{{[0-9]+}}.shape(0)) size {
// CHECK: select((n_{{[0-9]+}} <
// CHECK: let z_{{[0-9]+}}: int =
// CHECK: = select(c_{{[0-9]+}},
// CHECK: } op (x_{{[0-9]+}}: int, y_{{[0-9]+}}: int) {
// CHECK-NEXT: yield (x_{{[0-9]+}} + y_{{[0-9]+}})
// CHECK-NEXT: } ne (0)
// CHECK-NEXT: yield red_
// CHECK-NEXT: }
// CHECK-NOT: filter
// CHECK-LABEL: export triples(
export (int,int,int)[[*]] triples(int n) = [(x, y, z) | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z];
// CHECK: = expand (
// CHECK: t_{{[0-9]+}}: int{{\[\[}}*]], t_{{[0-9]+}}: int{{\[\[}}*]], t_{{[0-9]+}}: int{{\[\[}}*]] = expand into filter (
// CHECK: yield c_{{[0-9]+}}, f_{{[0-9]+}}, f_{{[0-9]+}}, f_{{[0-9]+}}
// CHECK-NEXT: }
// CHECK-NEXT: yield t_
// A tuple reduction: the operator has (a0, a1, b0, b1); CSE computes the
// comparison once for both components.
export (int, int) best(int n) =
  reduce(\a b -> if a.1 >= b.1 then a else b, (0, -1), [(x * 100 + y, (x * y) % 17) | x <- [0..<n], y <- [0..<x]]);
// CHECK-LABEL: export best(
// CHECK-NOT: = expand (
// CHECK: red_{{[0-9]+}}: int, red_{{[0-9]+}}: int = expand into reduce (
// CHECK: yield ((x_{{[0-9]+}} * 100) + y_{{[0-9]+}}), ((x_{{[0-9]+}} * y_{{[0-9]+}}) % 17)
// CHECK-NEXT: } op (x_[[A0:[0-9]+]]: int, x_[[A1:[0-9]+]]: int, y_[[B0:[0-9]+]]: int, y_[[B1:[0-9]+]]: int) {
// CHECK-NEXT: let [[C:cse_[0-9]+]]: bool = (x_[[A1]] >= y_[[B1]])
// CHECK-NEXT: yield select([[C]], x_[[A0]], y_[[B0]]), select([[C]], x_[[A1]], y_[[B1]])
// CHECK-NEXT: } ne (0, -1)
// length of a filtered irregular comprehension: an expand into reduce that
// counts (long) its kept elements.
export int cnt(int n) = length([(x, y) | x <- [1..<n], y <- [x..<n], (x * y) % 3 == 1]);
// LOW-LABEL: export cnt(
// LOW: = expand (
// LOW: = filter (
// CHECK-LABEL: export cnt(
// CHECK-NOT: filter
// CHECK: // count of
// CHECK-NEXT: count_{{[0-9]+}}: long = expand into reduce (
// CHECK: yield select({{.*}}, 1L, 0L)
// CHECK-NEXT: } op (x_{{[0-9]+}}: long, y_{{[0-9]+}}: long) {
// CHECK: } ne (0L)
// (a host check that the count fits length's int)
// CHECK: yield int(count_
// length(filter(p, map)): one reduce counting, no compaction, no array.
export int fc(int[[*]] xs) = length(filter(\x -> x % 20 == 0, [x + 15 | x <- xs]));
// LOW-LABEL: export fc(
// LOW: = map (
// LOW: = filter (
// CHECK-LABEL: export fc(
// CHECK-NOT: filter
// CHECK-NOT: = map (
// CHECK: count_{{[0-9]+}}: long = reduce (i_{{[0-9]+}} < n_{{[0-9]+}}) {
// CHECK-NEXT: let x_{{[0-9]+}}: int = xs_{{[0-9]+}}[i_{{[0-9]+}}]
// CHECK-NEXT: yield select((((x_{{[0-9]+}} + 15) % 20) == 0), 1L, 0L)
// CHECK: yield int(count_
// A map over a filter's outputs joins the filter, its body under an If on the
// keep flag: a dropped element never evaluates it (no spurious bounds error).
export int[[*]] safe(int[[*]] xs, int[[*]] is) = map(\i -> xs[i], filter(\i -> i >= 0 && i < xs.size(0), is));
// LOW-LABEL: export safe(
// LOW: = filter (
// LOW: = map (
// CHECK-LABEL: export safe(
// CHECK-NOT: = map (
// CHECK: t_{{[0-9]+}}: int{{\[\[}}*]] = filter (
// CHECK: c_[[K:[0-9]+]]: bool = if
// CHECK: v_[[V:[0-9]+]]: int = if c_[[K]] then {
// CHECK-NEXT: yield xs_{{[0-9]+}}[long(cse_{{[0-9]+}})]!{{[0-9]+}}
// CHECK: yield c_[[K]], v_[[V]]
// CHECK-NOT: = map (
// The same after an expand into filter.
export int[[*]] mf(int n) = map(\v -> v * 2, [x * y | x <- [0..<n], y <- [0..<x], y % 2 == 1]);
// CHECK-LABEL: export mf(
// CHECK-NOT: = map (
// CHECK: = expand into filter (
// CHECK: v_{{[0-9]+}}: int = if f_{{[0-9]+}} then {
// CHECK-NEXT: yield (f_{{[0-9]+}} * 2)
// CHECK-NOT: = map (
// A filter of a filter: one filter whose keep flag is (keep1 && keep2), the
// second test evaluated only for kept elements.
export int[[*]] ff(int[[*]] xs) = filter(\y -> y > 1, filter(\x -> x % 2 == 0, xs));
// LOW-LABEL: export ff(
// LOW-COUNT-2: = filter (
// CHECK-LABEL: export ff(
// CHECK: = filter (
// CHECK: f_[[K:[0-9]+]]: bool, f_[[V:[0-9]+]]: int = if (({{.*}} % 2) == 0) then {
// CHECK-NEXT: yield ({{.*}} > 1), cse_
// CHECK-NEXT: } else {
// CHECK-NEXT: yield false, 0
// CHECK-NEXT: }
// CHECK-NEXT: yield f_[[K]], f_[[V]]
// CHECK-NOT: = filter (

// A filter between the generators: the pairs come from an expand into
// filter; on CPUs the fused element folds a pair's z's only where the filter
// keeps it (the dropped pairs evaluate neither the size nor the elements).
export int pythf(int n) = sum([1 | x <- [1..<n], y <- [x..<n], (x + y) % 3 != 0, z <- [y..<(x+y)], z < n, x*x + y*y == z*z]);
// CHECK-LABEL: export pythf(
// CHECK: = if inner_loops_sequential() then {
// CHECK-NEXT: // sum; {{.*}} (inner level folded in a loop)
// CHECK: part_{{[0-9]+}}: int = if c_{{[0-9]+}} then {
// CHECK: part_{{[0-9]+}}: int = loop (acc_{{[0-9]+}}: int = 0) for k_{{[0-9]+}} <
// CHECK: } else {
// CHECK-NEXT: yield 0
// CHECK: } else {
// CHECK: col_{{[0-9]+}}: int{{\[\[}}*]], col_{{[0-9]+}}: int{{\[\[}}*]] = expand into filter (
// CHECK: = expand into reduce (i_{{[0-9]+}} < col_{{[0-9]+}}.shape(0)) size {
