// Regressions found by the differential tester (test/diff, docs/reliability.md):
// each export is a reduced program on which the IR interpreter and the
// compiled program disagreed, with the seed that found it.

// seed 1005: an in-body guard on an index whose element does not depend on
// the index (take beyond the length of a replicate) was dropped as dead code,
// so the compiled program read 7 elements of a 2-element array silently.
// == test
// in: 7
// error: index
// in: 2
// out: [4.0, 4.0]
// in: 0
// out: []
export double[[*]] take_replicate(int n) = take(n, replicate(2, 4.0));
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
