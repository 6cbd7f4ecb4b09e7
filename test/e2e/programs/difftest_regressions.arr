// Regressions found by the differential tester (test/diff, docs/reliability.md):
// each export is a reduced program on which the IR interpreter and the
// compiled program disagreed, with the seed that found it.

// seed 1005: an in-body guard on an index whose element does not depend on
// the index (take beyond the length of a replicate) was dropped as dead code,
// so the compiled program read 7 elements of a 2-element array silently.
// (take clamps its count since stop 38: the read it made, written out.)
// == test
// in: 7
// error: index
// in: 2
// out: [4.0, 4.0]
// in: 0
// out: []
export double[[*]] take_replicate(int n) = (let xs = replicate(2, 4.0) in [xs[i] | i <- [0..<n]]);
// == test
// in: 3 5
// error: index
// in: 1 5
// out: 1
export int ignored_index(int i, int n) = [1 | _ <- iota(n)][i + n - 3] + 0 * i;

// seed 200024: a stdlib function called inside the function argument of a
// call of itself (any inside any's predicate) was rejected as recursion
// == test
// in: [1.0f, 2.0f, 0.5f]
// out: (true, 1, false)
// in: [3.0f]
// out: (false, 0, true)
export (bool, int, bool) nested_same_calls(float[[*]] xs) =
  (any(\x -> any(\y -> y > x, xs), xs), count(\x -> count(\y -> y > x, xs) > 1, xs),
   all(\x -> all(\y -> y <= x, xs), xs));

// seed 10319: a segmented scan's flag read out of range at element 0 raised
// nowhere (the runtime tested i == 0 before evaluating the flag); now the
// flag is evaluated at every element, so its check raises
// == test
// in: []
// error: index
// in: [true, false, true]
// out: [0]
export int[[*]] seg_flag_at_zero(bool[[*]] a) = segm_iota(gather(a, [(x & 1023) % max(length(a), 1) | x <- [-65536]]));
// == test
// in: [] [5]
// error: index
// in: [true, false] [1, 2]
// out: [3]
export int[[*]] segred_flag_at_zero(bool[[*]] a, int[[*]] xs) = segmented_reduce((+), 0, [a[i % 2] | i <- iota(length(xs))], xs);
