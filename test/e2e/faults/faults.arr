// The module of the runtime-fault tests (test/e2e/faults/faults.cpp,
// docs/reliability.md): small exports that each use a different kind of
// kernel (a map of the module's program, runtime primitives with fused
// producers), so that every test covers both kinds of program in the cache.

export double[[*]] scale(double s, double[[*]] xs) = [s * x | x <- xs];
export double total(double[[*]] xs) = sum(xs);
export int[[*]] sorted(int[[*]] xs) = sort(xs);
export int[[*]] bins(int[[*]] xs) = hist((+), 0, 8, [x % 8 | x <- xs], replicate(length(xs), 1));
export int[[*]] evens(int[[*]] xs) = [x | x <- xs, x % 2 == 0];

// n elements of x: an allocation of 8 n bytes (device out of memory for a large n)
export double[[*]] filled(long n, double x) = [x | _ <- iota(n)];

// more than 2^31 elements: flags, their count, one element, a map over them
export bool[[*]] flags(long n) = [i % 3L == 0L | i <- iota(n)];
export int count_true(bool[[*]] xs) = count(\b -> b, xs);
export bool at(bool[[*]] xs, long i) = xs[i];
export bool[[*]] negate(bool[[*]] xs) = [!x | x <- xs];
