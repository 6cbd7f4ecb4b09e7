// sieve.arr — the primes below n by a flat, data-parallel sieve of
// Eratosthenes: every prime candidate p <= sqrt(n) expands into its
// multiples p*p, p*p + p, ... < n (an irregular comprehension), which are
// scattered as `false` into an all-`true` array.

// == test
// in:  30
// out: [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
// in:  2
// out: []
// in:  3
// out: [2]
//
// == bench
// gen: 10^7
export int[[*]] primes(int n) {
  let m = int(sqrt(double(n)));
  let composites = [p * p + k * p | p <- [2..m], p * p < n, k <- [0..<(n - 1 - p * p) / p + 1]];
  let is_prime = scatter(replicate(n, true), composites, replicate(length(composites), false));
  return [i | i <- [2..<n], is_prime[i]];
}
