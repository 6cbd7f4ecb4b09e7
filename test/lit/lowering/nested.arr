// Irregular arrays inside parallel bodies (docs/lowering.md, "Nested
// parallelism"): the cost rule flattens an inner level into segmented host
// SOACs (before the body's SOAC, which reads its segment) or sequentialises
// it (a fold or index function in the body); the choice and its reason are
// the statements' notes. --nested forces one scheme.
// RUN: %arrc --emit=lowered %s | FileCheck %s
// RUN: %arrc --emit=lowered --nested=sequential %s | FileCheck %s --check-prefix=SEQ
// RUN: %arrc --emit=lowered --nested=flatten %s | FileCheck %s --check-prefix=FLAT
// RUN: %arrc --emit=ir %s | FileCheck %s --check-prefix=IR

// Inner size unknown, outer width unknown: flattened. The filter becomes an
// expand whose elements carry the keep flag, a filter, per-segment counts
// (hist) and offsets (exclusive scan); the body reads its segment, checked
// against the segment's length.
export int[[*]] second(int[[*,*]] m) =
  [(let p = filter(\v -> v > 0, m[i, :]) in if length(p) > 1 then p[1] else -1) | i <- iota(m.size(0))];
// CHECK-LABEL: export second(
// CHECK: // nested filter 16:13 in comprehension 16:3: flattened into segments (outer width unknown < 16384, inner size unknown > 32)
// CHECK-NEXT: {{.*}} = expand (
// CHECK: = filter (
// CHECK: lens_{{[0-9]+}}: long{{\[\[}}*]] = hist bins
// CHECK: offs_{{[0-9]+}}: long{{\[\[}}*]] = scan_exclusive
// CHECK: // comprehension 16:3: regular map nest
// CHECK: let off_{{[0-9]+}}: long = offs_{{[0-9]+}}[i_{{[0-9]+}}]
// CHECK: let len_{{[0-9]+}}: long = lens_{{[0-9]+}}[i_{{[0-9]+}}]
// CHECK: guard_{{[0-9]+}}[select({{.*}}(1L < len_{{[0-9]+}}){{.*}}, 0L, 1L){{.*}}]
// SEQ-LABEL: export second(
// SEQ: // nested filter 16:13: sequentialised (forced by --nested=sequential or ARRC_NESTED; element k found by a fold)
// SEQ-NOT: = expand (
// SEQ: yield
// IR-LABEL: export second(
// IR: = expand into filter (

// reduce_by_key: a stable sort by key, then by segment, a segmented
// reduction of each run, the runs' keys by a filter.
export int[[*]] distinct(int[[*,*]] m) =
  [length(reduce_by_key((+), 0, m[i, :], replicate(m.size(1), 1)).0) | i <- iota(m.size(0))];
// CHECK-LABEL: export distinct(
// CHECK: // nested reduce_by_key 37:11 in comprehension 37:3: flattened into segments
// CHECK: = sort flat_{{[0-9]+}} (
// CHECK: = sort sorted_{{[0-9]+}} (
// CHECK: = segreduce (
// CHECK: = filter (
// SEQ-LABEL: export distinct(
// SEQ: // nested reduce_by_key 37:11: sequentialised
// SEQ-NOT: = sort

// A small constant inner size: sequentialised (index functions in the body).
export int[[*]] small(int n) = [sort([x, 3, 1, 2])[0] | x <- iota(n)];
// CHECK-LABEL: export small(
// CHECK: // nested sort 49:33: sequentialised (inner size 4 <= 32; element k is the one of stable rank k)
// CHECK-NOT: = sort
// FLAT-LABEL: export small(
// FLAT: // nested sort 49:33 in comprehension 49:32: flattened into segments (forced by --nested=flatten or ARRC_NESTED
// FLAT: = sort

// An outer width that fills the device by itself: sequentialised.
export int[[*]] wide(int[[*]] xs) = [(let p = filter(\v -> v > x, xs) in p[0]) | x <- iota(20000)];
// CHECK-LABEL: export wide(
// CHECK: // nested filter 58:47: sequentialised (outer width 20000 >= device parallelism 16384; element k found by a fold)

// A filter of a sequential loop's value cannot be computed before the body:
// sequentialised, whatever the rule says.
export int[[*]] inloop(int[[*,*]] m) =
  [sum([filter(\v -> v > k, m[i, :])[0] | k <- iota(2)]) | i <- iota(m.size(0))];
// CHECK-LABEL: export inloop(
// CHECK: // nested filter 65:9: sequentialised (it depends on 'k', a value computed in a sequential loop or an inner function
// FLAT-LABEL: export inloop(
// FLAT: // nested filter 65:9: sequentialised (it depends on 'k'

// Only folded (sum, length): no storage, whatever the scheme.
export int[[*]] folded(int[[*,*]] m) = [sum(filter(\v -> v > 0, m[i, :])) | i <- iota(m.size(0))];
// CHECK-LABEL: export folded(
// CHECK-NOT: nested
// CHECK: = map (
// CHECK: = loop (
// FLAT-LABEL: export folded(
// FLAT-NOT: nested

// A loop whose array state changes size: one host loop over every element's
// state (segments), its body flattened over them.
export int[[*]] doubling(int[[*]] ns) = [length(loop (a = [1]) for _i < n do a ++ a) | n <- ns];
// CHECK-LABEL: export doubling(
// CHECK: // loop 82:49 in comprehension 82:41: its state arrays vary in size, so it runs once for all elements
// CHECK: = loop (
// CHECK: for round_{{[0-9]+}} < rounds_{{[0-9]+}} {
// CHECK: = expand (
// CHECK: // comprehension 82:41: regular map nest
// SEQ-LABEL: export doubling(
// SEQ: // loop 82:49 in comprehension 82:41: its state arrays vary in size
