// Loops whose array state changes size between iterations (issue 13, docs/
// lowering.md "Nested parallelism"), inside comprehension bodies -- where the
// loop runs once for all elements, its state flattened into segments whose
// memory each iteration's counts size -- and at host level. ctest also runs
// this file with ARRC_NESTED=sequential and =flatten (e2e.nested_*). Expected
// values from test/e2e/reference/nested_reference.py (plain Python).

// a ++ a: the state doubles each iteration
// == test
// in:  [0, 1, 3, 5, 10]
// out: [1, 2, 8, 32, 1024]
export int[[*]] doubling(int[[*]] ns) = [length(loop (a = [1]) for _i < n do a ++ a) | n <- ns];

// the state grows by a map of itself that uses the loop index
// == test
// in:  [0, 1, 3, 6]
// out: [0, 2, 36, 864]
export int[[*]] growing(int[[*]] ns) = [sum(loop (a = [n]) for i < n do a ++ map(\v -> v + i, a)) | n <- ns];

// the loop's body reads the comprehension's element (x): each element's
// value reaches the loop run once for all elements through a host column
// == test
// in:  [0, 1, 2, 3, 5, 6, 7, 9, 13, -4]
// out: [1, 203, 1205, 3907, 3003, 8405, 17507, 9003, 18203, -399]
export int[[*]] reads_element(int[[*]] xs) =
  [(let a = loop (a = [x]) for j < x % 4 do a ++ [j * x] ++ map(\v -> v * x, take(1, a)) in sum(a) * 100 + length(a)) | x <- xs];

// the largest element of each row, by a worklist that keeps what is above
// its head; a row whose worklist empties has no element 0: an in-body guard
// fails, reported at the index with its kind (no values are at hand there)
// == test
// in:  [[3, -1, 4, 1], [0, 0, -2, 7]]
// out: [4, 7]
// == test
// in:  [[3, -1, 4, 1], [5, -3, -1, -4]]
// error: nested_loops.arr:38:5: index 0 out of bounds for axis 0 of size 0
export int[[*]] above_head(int[[*,*]] m) =
  [(loop (w = m[i, :]) while length(w) > 1 do filter(\v -> v > w[0], w))[0] | i <- iota(m.size(0))];

// a worklist that filters itself until it is empty (or its head is small)
// == test
// in:  [[8, 3, 17, 1], [1, 2, 0, 0], [64, 32, 16, 9]]
// out: [-1, 401, -1]
// in:  [[-17, 5, 19, 11, 18, 8, -3, -4, 19, 11, 3, -20, -10, 0, 16, 16, -18, 9, -16, 8, -5, -8, -7, -17, 6,
//       -13, 17, -3, 19, 6, -20, 5, 15, 2, 8, -1, -6, 7, -10, -20], [-19, 19, 5, 11, 10, 15, 17, -12, 1,
//       -14, -14, 16, 7, 14, 10, 18, -2, 10, 19, 10, -13, 1, -4, 10, -7, 6, 20, 19, 2, -2, -13, 15, -19,
//       -20, 16, -15, 20, -7, 1, 2], [19, 15, 10, 9, 10, -17, -2, 12, 2, 11, 7, 10, 3, 18, -4, 11, 16, -19,
//       0, -17, -15, -1, 18, -3, 20, 1, 3, 19, 16, 11, 7, -13, -1, 6, 17, 0, -8, 11, -19, 20], [1, 9, 6, 9,
//       -16, 12, 8, 15, -9, -12, 7, 9, 11, 5, -20, -18, -19, 9, 0, -17, -2, -8, 17, -15, -9, 13, -4, 3, -14,
//       17, 12, -20, -15, -3, 20, -19, 17, 5, 11, -16], [-10, -16, 1, 7, -2, -10, 0, -17, 6, -17, -15, -10,
//       19, 10, 1, 3, 13, 19, 9, -14, -6, -19, 3, -18, -2, -15, 3, 16, -8, -8, 11, 3, 16, -14, 15, 3, -11,
//       -17, -14, 13], [-8, 9, 7, -12, 11, -15, -1, -5, 8, -11, 15, -2, 20, -11, -15, -5, 3, 4, 19, -2, 12,
//       -14, -2, -15, -5, -13, -13, -15, 0, -8, 2, -1, 15, 18, -19, 0, 0, -18, -4, 5]]
// out: [3983, 3981, -1, 4001, 3990, 3992]
export int[[*]] worklist(int[[*,*]] m) =
  [(let w = loop (w = m[r, :]) while length(w) > 0 && w[0] > 1 do filter(\v -> v > 1, map(\v -> v / 2, w)) in
    length(w) * 100 + (if length(w) > 0 then w[0] else -1)) | r <- iota(m.size(0))];

// array and scalar state together
// == test
// in:  [0, 1, 5, 9, 16, 40]
// out: [0, 0, 2, 2, 2, 2]
export int[[*]] steps(int[[*]] xs) =
  [(let (_a, k) = loop ((a, k) = (iota(x), 0)) while length(a) > 1 do (filter(\v -> v % 2 == 0, map(\v -> v + 1, drop(1, a))), k + 1)
    in k) | x <- xs];

// a trajectory appended one element per iteration (Collatz)
// == test
// in:  [1, 2, 3, 6, 7, 27]
// out: [1001, 2002, 8016, 9016, 17052, 121232]
export int[[*]] collatz_lens(int[[*]] xs) =
  [(let t = loop (t = [x]) while t[length(t) - 1] > 1 do
      t ++ [(let v = t[length(t) - 1] in if v % 2 == 0 then v / 2 else 3 * v + 1)]
    in length(t) * 1000 + maximum(t)) | x <- xs];

// a sort inside the loop body, as many rounds as the row asks
// == test
// in:  [[3, -1, 4, 1, 5], [9, 2, 6, 5, 3], [0, -5, 8, 0, 2], [-7, -7, -7, -1, -2], [2, 2, 2, 2, 2]]
// out: [49, 77, 50, 10, 30]
// in:  [[-17, 5, 19, 11, 18, 8, -3, -4, 19, 11, 3, -20, -10, 0, 16, 16, -18, 9, -16, 8, -5, -8, -7, -17, 6,
//       -13, 17, -3, 19, 6, -20, 5, 15, 2, 8, -1, -6, 7, -10, -20], [-19, 19, 5, 11, 10, 15, 17, -12, 1,
//       -14, -14, 16, 7, 14, 10, 18, -2, 10, 19, 10, -13, 1, -4, 10, -7, 6, 20, 19, 2, -2, -13, 15, -19,
//       -20, 16, -15, 20, -7, 1, 2], [19, 15, 10, 9, 10, -17, -2, 12, 2, 11, 7, 10, 3, 18, -4, 11, 16, -19,
//       0, -17, -15, -1, 18, -3, 20, 1, 3, 19, 16, 11, 7, -13, -1, 6, 17, 0, -8, 11, -19, 20], [1, 9, 6, 9,
//       -16, 12, 8, 15, -9, -12, 7, 9, 11, 5, -20, -18, -19, 9, 0, -17, -2, -8, 17, -15, -9, 13, -4, 3, -14,
//       17, 12, -20, -15, -3, 20, -19, 17, 5, 11, -16], [-10, -16, 1, 7, -2, -10, 0, -17, 6, -17, -15, -10,
//       19, 10, 1, 3, 13, 19, 9, -14, -6, -19, 3, -18, -2, -15, 3, 16, -8, -8, 11, 3, 16, -14, 15, 3, -11,
//       -17, -14, 13], [-8, 9, 7, -12, 11, -15, -1, -5, 8, -11, 15, -2, 20, -11, -15, -5, 3, 4, 19, -2, 12,
//       -14, -2, -15, -5, -13, -13, -15, 0, -8, 2, -1, 15, 18, -19, 0, 0, -18, -4, 5]]
// out: [6445, 8485, 8877, 5645, 4253, 3879]
export int[[*]] sort_rounds(int[[*,*]] m) =
  [(let r = m[i, :] in
    let a = loop (a = r) for j < length(r) % 3 + 1 do drop(1, sort(a)) ++ [j] in
    sum([a[q] * (q + 1) | q <- iota(length(a))])) | i <- iota(m.size(0))];

// at host level: the state's buffers are allocated per iteration
// == test
// in:  0
// out: [1]
// in:  4
// out: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
export int[[*]] host_double(int n) = loop (a = [1]) for _i < n do a ++ a;
// == test
// in:  [1, 2, 30, 100, 7]
// out: 5
// in:  []
// out: 0
export int host_worklist(int[[*]] xs) =
  (loop ((w, r) = (xs, 0)) while length(w) > 0 do (map(\v -> v / 3, filter(\v -> v > 2, w)), r + 1)).1;
