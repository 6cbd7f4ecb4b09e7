// Bounds-check elimination (--emit=ir, lowering/src/BoundsChecks.cpp): a read
// whose indices are proven in range loses its check (`A[i, j]` instead of
// `A[i, j]!K`), an in-body guard proven to pass disappears, and a guard every
// element meets first, over values fixed for the map, becomes a host check
// before it. Reads that may be out of range keep their checks (and positions).
// Index arithmetic shown exact is rebuilt in long (`A[i, k]` for the
// counters themselves, `xs[(i + 1L)]` instead of `xs[long((i + 1))]`).
// RUN: %arrc --emit=lowered %s | FileCheck %s --check-prefix=LOW
// RUN: %arrc --emit=ir %s | FileCheck %s

// Counters below the array's own extents: no check left.
export double[[*]] rowsums(double[[*,*]] A) = [sum([A[i, j] | j <- [0..<A.size(1)]]) | i <- [0..<A.size(0)]];
// LOW-LABEL: export rowsums(
// LOW: A_{{[0-9]+}}[long(i_{{[0-9]+}}), long(j_{{[0-9]+}})]!{{[0-9]+}}
// CHECK-LABEL: export rowsums(
// CHECK-NOT: ]!
// CHECK: yield (acc_{{[0-9]+}} + A_{{[0-9]+}}[i_{{[0-9]+}}, k_{{[0-9]+}}])
// CHECK-NEXT: }

// An index read from data (xs[ys[i]]): checked; ys[i] is not.
export int[[*]] gather(int[[*]] xs, int[[*]] ys) = [xs[ys[i]] | i <- iota(length(ys))];
// CHECK-LABEL: export gather(
// CHECK: yield xs_{{[0-9]+}}[long(ys_{{[0-9]+}}[i_{{[0-9]+}}])]![[#]]
// CHECK-NEXT: }

// An index plus one over the whole array: the last one is out, so it is
// checked, once, before the map (the only read that can raise, at base + i:
// it raises at i = length - base, reporting the index length) ...
export int[[*]] shift(int[[*]] xs) = [xs[i + 1] | i <- iota(length(xs))];
// CHECK-LABEL: export shift(
// CHECK: check Bounds #[[#]] ((n_[[N:[0-9]+]] <= 0L) || ((1L + n_[[N]]) <= xs_{{[0-9]+}}.shape(0))) [select((!(1L < xs_{{[0-9]+}}.shape(0))), 1L, xs_{{[0-9]+}}.shape(0)), xs_{{[0-9]+}}.shape(0), 0L]
// CHECK: yield xs_{{[0-9]+}}[(i_{{[0-9]+}} + 1L)]{{$}}
// ... but not below length - 1 (int(size) - 1 may wrap around: still proven).
export int[[*]] diffs(int[[*]] xs) = [xs[i + 1] - xs[i] | i <- iota(length(xs) - 1)];
// CHECK-LABEL: export diffs(
// CHECK: yield (xs_{{[0-9]+}}[(i_{{[0-9]+}} + 1L)] - xs_{{[0-9]+}}[i_{{[0-9]+}}])

// k-means distances: the zip guard in the loop over the centres becomes a
// host check (raised only when there are points and centres); then the rows
// of C are read at a counter below P.size(1) == C.size(1): no check left.
export double[[*]] sqdist(double[[*,*]] P, double[[*,*]] C) =
  [sum([sum([(a - b) * (a - b) | a <- P[i, :] | b <- C[c, :]]) | c <- iota(C.size(0))]) | i <- iota(P.size(0))];
// LOW-LABEL: export sqdist(
// LOW: guard_{{[0-9]+}}[select((P_{{[0-9]+}}.shape(1) == C_{{[0-9]+}}.shape(1)), 0L, 1L){{.*}}]![[#]]
// CHECK-LABEL: export sqdist(
// CHECK: // in-body guard checked before the parallel statement (bounds-check elimination)
// CHECK-NEXT: check ZipSize #[[#]] ((n_[[N:[0-9]+]] <= 0L) || ((max(long(int(C_{{[0-9]+}}.shape(0))), 0L) <= 0L) || (P_{{[0-9]+}}.shape(1) == C_{{[0-9]+}}.shape(1)))) [P_{{[0-9]+}}.shape(1), C_{{[0-9]+}}.shape(1)]
// CHECK-NEXT: // comprehension
// CHECK-NEXT: = map (i_{{[0-9]+}} < n_[[N]]) {
// CHECK-NOT: ]!
// CHECK: let a_{{[0-9]+}}: double = P_{{[0-9]+}}[ix_{{[0-9]+}}, k_{{[0-9]+}}]
// CHECK-NEXT: let b_{{[0-9]+}}: double = C_{{[0-9]+}}[ix_{{[0-9]+}}, k_{{[0-9]+}}]
// CHECK-NOT: ]!
// CHECK: yield

// Matrix product: B is read at a counter below A.size(1), equal to
// B.size(0) by the zip check before the map; C (any size) stays checked.
export double[[*,*]] gemm(double[[*,*]] A, double[[*,*]] B, double[[*,*]] C) =
  [[sum([a * b | a <- A[i, :] | b <- B[:, j]]) + C[i, j] | j <- [0..<B.size(1)]] | i <- [0..<A.size(0)]];
// CHECK-LABEL: export gemm(
// CHECK: check ZipSize #[[#]] (A_{{[0-9]+}}.shape(1) == B_{{[0-9]+}}.shape(0))
// CHECK-NOT: guard_
// CHECK: let a_{{[0-9]+}}: double = A_{{[0-9]+}}[ix_{{[0-9]+}}, k_{{[0-9]+}}]
// CHECK-NEXT: let b_{{[0-9]+}}: double = B_{{[0-9]+}}[k_{{[0-9]+}}, ix_{{[0-9]+}}]
// CHECK: yield (acc_{{[0-9]+}} + C_{{[0-9]+}}[i_{{[0-9]+}}, i_{{[0-9]+}}]![[#]])

// A guard over the element (iota(3)[x], x from data) stays in the body.
export int[[*]] small(int[[*]] xs) = [iota(3)[x] | x <- xs];
// CHECK-LABEL: export small(
// CHECK: guard_{{[0-9]+}}[select(((ix_[[X:[0-9]+]] >= 0L) && (ix_[[X]] < 3L)), 0L, 1L){{.*}}]![[#]]

// A read under an if on its index: unchecked in that branch.
export int[[*]] guarded(int[[*]] xs, int[[*]] ys) = [if i < length(ys) then xs[i] + ys[i] else 0 | i <- iota(length(xs))];
// CHECK-LABEL: export guarded(
// CHECK: if (i_{{[0-9]+}} < int(ys_{{[0-9]+}}.shape(0))) then {
// CHECK-NEXT: yield (xs_{{[0-9]+}}[i_{{[0-9]+}}] + ys_{{[0-9]+}}[i_{{[0-9]+}}])

// A zip of arrays of different sizes still raises: its check stays.
export double[[*]] zipped(double[[*]] a, double[[*]] b) = [x * y | x <- a | y <- b];
// CHECK-LABEL: export zipped(
// CHECK: check ZipSize #[[#]] (n_{{[0-9]+}} == n_{{[0-9]+}})

// Reads that lowering leaves unchecked behind a guard get a check at the
// guard's position unless proven in range, since a failed guard does not
// stop the device: the elements of a computed array (xs + ys)[k] ...
export int[[*]] addk(int[[*]] xs, int[[*]] ys, int[[*]] ks) = [(xs + ys)[k] | k <- ks];
// LOW-LABEL: export addk(
// LOW: let ix_[[I:[0-9]+]]: long = (ix_{{[0-9]+}} + guard_{{[0-9]+}}[select({{.*}}, 0L, 1L){{.*}}]![[P:[0-9]+]])
// LOW: yield (xs_{{[0-9]+}}[ix_[[I]]] + ys_{{[0-9]+}}[ix_[[I]]])
// CHECK-LABEL: export addk(
// CHECK: let ix_[[I:[0-9]+]]: long = (ix_{{[0-9]+}} + guard_{{[0-9]+}}[select({{.*}}, 0L, 1L){{.*}}]![[P:[0-9]+]])
// CHECK-NEXT: yield (xs_{{[0-9]+}}[ix_[[I]]]![[P]] + ys_{{[0-9]+}}[ix_[[I]]]![[P]])
// ... and the other side of a zip whose size guard stays in the body (the
// loop count before it reads xs[z], which may raise first).
export int[[*]] zipin(int[[*]] xs, int[[*]] ys, int[[*]] zs) = [sum([sum([a * b | a <- xs | b <- ys]) | _j <- iota(xs[z])]) | z <- zs];
// CHECK-LABEL: export zipin(
// CHECK: let n_{{[0-9]+}}: long = (xs_{{[0-9]+}}.shape(0) + guard_{{[0-9]+}}[select((xs_{{[0-9]+}}.shape(0) == ys_{{[0-9]+}}.shape(0)), 0L, 1L){{.*}}]![[P:[0-9]+]])
// CHECK: let a_{{[0-9]+}}: int = xs_{{[0-9]+}}[k_{{[0-9]+}}]
// CHECK-NEXT: let b_{{[0-9]+}}: int = ys_{{[0-9]+}}[k_{{[0-9]+}}]![[P]]
