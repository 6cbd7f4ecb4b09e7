// Constructs inside parallel bodies (device code, no storage): `with`,
// `new`, an `if` with array branches and `scan` stay virtual (Delayed/Seq)
// and are consumed by a sequential fold; out-of-range indices into ranges and
// shape mismatches raise through an in-body guard (a bounds-checked read of
// a one-element Literal). Expand feeding a Map is fused; a sum of an
// irregular comprehension becomes one expand into reduce.
// RUN: %arrc --emit=lowered %s | FileCheck %s
// RUN: %arrc --emit=ir %s | FileCheck %s --check-prefix=IR
export int[[*]] w(int n) = [sum(iota(5) with [x % 5] = 100) | x <- [0..<n]];
// CHECK-LABEL: export w(
// CHECK: guard_{{[0-9]+}}: long{{\[\[}}*]] = literal shape(1) {0}
// CHECK: = map (
// CHECK: guard_{{[0-9]+}}[select({{.*}}, 0L, 1L){{.*}}]!{{[0-9]+}}
// CHECK: = loop (
export int[[*]] rg(int n, int k) = [let r = [0..<x] in r[x - k] | x <- [1..n]];
// CHECK-LABEL: export rg(
// CHECK: = map (
// CHECK: let ix_{{[0-9]+}}: long = (ix_{{[0-9]+}} + guard_{{[0-9]+}}[select({{.*}}, 0L, 1L){{.*}}]!{{[0-9]+}})
export int[[*]] sc(int n) = [sum(scan((+), 0, iota(x))) | x <- [0..<n]];
// CHECK-LABEL: export sc(
// CHECK: = map (
// CHECK: acc_{{[0-9]+}}: int, acc_{{[0-9]+}}: int = loop (
// CHECK: let pre_{{[0-9]+}}: int =
export int[[*]] ifa(int n) = [sum(if x % 2 == 0 then iota(x) else [1..3]) | x <- [0..<n]];
// CHECK-LABEL: export ifa(
// CHECK: = map (
// CHECK: = if
export int[[*]] em(int n) = map(\v -> v + 1, [x * y | x <- [0..<n], y <- [0..<x]]);
// IR-LABEL: export em(
// IR: = expand (
// IR-SAME: {{$}}
// IR-NOT: = map (
// IR: yield ((x_{{[0-9]+}} * y_{{[0-9]+}}) + 1)
export int tri(int n) = sum([x * y | x <- [0..<n], y <- [0..<x]]);
// IR-LABEL: export tri(
// IR: = expand into reduce (
// IR-NOT: = reduce (
export int[[*]] lp(int n) = [sum(loop (a = iota(3)) for i < x do a with [i % 3] = i) | x <- [0..<n]];
// CHECK-LABEL: export lp(
// CHECK: = map (
// CHECK: a_{{[0-9]+}}: int, a_{{[0-9]+}}: int, a_{{[0-9]+}}: int = loop (a_{{[0-9]+}}: int = 0, a_{{[0-9]+}}: int = 1, a_{{[0-9]+}}: int = 2) for
