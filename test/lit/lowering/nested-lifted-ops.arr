// Operators and qualifiers running a loop whose state varies in size
// (docs/lowering.md, "Lifted operators and qualifiers"): the scheme chosen is
// the note of the host statement. The same under every --nested mode.
// RUN: %arrc --emit=lowered %s | FileCheck %s
// RUN: %arrc --emit=lowered --nested=sequential %s | FileCheck %s
// RUN: %arrc --emit=lowered --nested=flatten %s | FileCheck %s

// At host level: no kernel can hold the operator, so a host loop folds the
// elements in order (the operator's loop a host loop in its body).
export int red(int[[*]] xs) = reduce(\a b -> a + length(loop (w = [b]) for _j < b % 3 do w ++ w), 0, xs);
// CHECK-LABEL: export red(
// CHECK: // reduce 10:31: its operator runs a loop whose state varies in size (no kernel can hold it), so the elements are folded in order, one per iteration (a host loop)
// CHECK-NEXT: = loop (
// CHECK-NOT: reduce (
// CHECK: = loop (
// CHECK-NOT: reduce (

// In a body: the fold is a loop lifted out of the body, the operator's loop
// lifted out of that loop's body.
export int[[*]] hist_rows(int[[*,*]] m) =
  [sum(hist(\a b -> a + length(loop (w = [b]) for _j < b % 3 do w ++ w), 0, 3, [x % 4 | x <- m[i, :]], m[i, :]))
   | i <- iota(m.size(0))];
// CHECK-LABEL: export hist_rows(
// CHECK: // hist 21:8 in comprehension 21:3: its operator runs a loop whose state varies in size (no kernel can hold it), so the elements are folded in order, one per iteration (a loop lifted out of the body)
// CHECK: // loop 21:32 in the body of hist 21:8 (every element at once): its state arrays vary in size

// A later generator's source reading the earlier variable: a loop over the
// first generator's elements, each appending its part.
export int[[*]] gen_src(int[[*,*]] m) =
  [sum([y | x <- m[i, :], y <- loop (a = [x]) for _j < x % 3 do a ++ [i]]) | i <- iota(m.size(0))];
// CHECK-LABEL: export gen_src(
// CHECK: // comprehension 30:8 in comprehension 30:3: a later generator's source or a filter before one runs a loop whose state varies in size and reads an earlier variable, so the elements are made by a loop over the first generator's elements, each appending its part (a loop lifted out of the body)
// CHECK: // loop 30:32 in the body of comprehension 30:8 (every element at once): its state arrays vary in size
// CHECK-NOT: unsupported
