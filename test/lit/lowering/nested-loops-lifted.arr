// Loops whose state varies in size where the first lifting scheme refused
// them (docs/lowering.md, "Nested parallelism", construct table): the scheme
// chosen is the notes of the host statements. The same under every --nested
// mode (lifting is the only scheme for such loops).
// RUN: %arrc --emit=lowered %s | FileCheck %s
// RUN: %arrc --emit=lowered --nested=sequential %s | FileCheck %s
// RUN: %arrc --emit=lowered --nested=flatten %s | FileCheck %s

// A loop in the head of an inner comprehension that a sum folds, reading the
// fold's variable k: the inner comprehension's elements are made by a lifted
// loop (one element per iteration), in whose body the head's loop is lifted
// again (a host loop inside the host loop).
export int[[*]] fold_loop(int[[*,*]] m) =
  [sum([length(loop (a = [k]) for _j < k % 4 do a ++ a) | k <- m[i, :]]) | i <- iota(m.size(0))];
// CHECK-LABEL: export fold_loop(
// CHECK: // array 14:8 in comprehension 14:3: its elements run a loop whose state varies in size and that reads their variables where a fold would run it, so they are made by a loop lifted out of the body, one element per iteration
// CHECK: = loop (
// CHECK: // loop 14:16 in the body of array 14:8 (every element at once): its state arrays vary in size, so it runs once for all elements
// CHECK: = loop (
// CHECK-NOT: unsupported

// State of rank 2 whose extents change: carried flattened with its extents.
export int[[*]] grow_rows(int[[*]] ns) =
  [(let g = loop (g = [[n, 1]]) for j < n % 5 do g ++ [[j, n * j]] in g.size(0) * 10 + g[g.size(0) - 1, 1]) | n <- ns];
// CHECK-LABEL: export grow_rows(
// CHECK: // loop 24:13 in comprehension 24:3: its state arrays vary in size, so it runs once for all elements (flattened state, memory sized by each iteration's counts; state of rank 2 carried flattened (row-major) with its extents)
// CHECK: = loop (

// A scalar-state loop around a loop that must be lifted and reads its state:
// lifted too.
export int[[*]] via_loop(int[[*]] xs) =
  [loop (s = 0) for j < x % 4 do s + length(loop (a = [s]) for _q < (s + j) % 3 do a ++ a) | x <- xs];
// CHECK-LABEL: export via_loop(
// CHECK: // loop 32:4 in comprehension 32:3: a loop in its body must be lifted and reads its state, so it runs once for all elements too
// CHECK: // loop 32:45 in the body of loop 32:4 (every element at once): its state arrays vary in size

// A filter whose predicate runs such a loop on the element: the flags are
// made first by a lifted loop (one element per iteration), the filter reads
// them.
export int[[*]] filt_pred(int[[*,*]] m) =
  [length(filter(\k -> length(loop (a = [k]) for _j < k % 3 do a ++ a) > 2, m[i, :])) | i <- iota(m.size(0))];
// CHECK-LABEL: export filt_pred(
// CHECK: // array 41:11 in comprehension 41:3: its elements run a loop whose state varies in size and that reads their variables where a fold would run it, so they are made by a loop lifted out of the body, one element per iteration
// CHECK: // loop 41:31 in the body of array 41:11 (every element at once): its state arrays vary in size

// A zip branch with several generators, one binding a row: a generator over
// the row indices (the row let-bound per element); no loop to lift.
export int[[*]] zip_rows(int[[*,*]] m, int[[*]] ys) =
  [sum([x + y | r <- [m[i, :]], x <- r | y <- ys]) | i <- iota(m.size(0))];
// CHECK-LABEL: export zip_rows(
// CHECK: // comprehension 49:3: regular map nest
