// The Arr standard library: predicates, selections and rotations over rank-1
// arrays (LANGUAGE.md §7). Loaded by default; generic functions are
// instantiated per use (docs/types.md). Intrinsics (map, filter, reduce,
// scan, sum, ...) are built into the compiler and are not defined here.

// The number of elements satisfying p (fuses: no intermediate array).
<T> def int count((T) -> bool p, T[[*]] xs) = sum([1 | x <- xs, p(x)]);

// Whether some / every element satisfies p.
<T> def bool any((T) -> bool p, T[[*]] xs) = count(p, xs) > 0;
<T> def bool all((T) -> bool p, T[[*]] xs) = count(p, xs) == length(xs);

// (the elements satisfying p, the rest), both in their original order.
<T> def (T[[*]], T[[*]]) partition((T) -> bool p, T[[*]] xs) =
  (filter(p, xs), filter(\x -> !p(x), xs));

// The first n elements / all but the first n elements. A count outside
// [0, length(xs)] is clamped to it (as Haskell's and Python's take do, and as
// an empty range [a..<b] with b < a is empty): take(-1, xs) = [], take(5, [1, 2])
// = [1, 2], drop(-1, xs) = xs, drop(5, [1, 2]) = []. Both are sections (views,
// no copy).
<T> def T[[*]] take(int n, T[[*]] xs) = xs[0 : min(max(n, 0), length(xs)) - 1];
<T> def T[[*]] drop(int n, T[[*]] xs) = xs[min(max(n, 0), length(xs)) : length(xs) - 1];

// result[i] = xs[(i + r) mod n]; r may be negative. The shift is reduced
// to 0 <= m < n first, so that no sum overflows an int (r near 2^31).
<T> def T[[*]] rotate(int r, T[[*]] xs) {
  let n = length(xs);
  let q = if n == 0 then 0 else r % n;
  let m = if q < 0 then q + n else q;
  return [xs[if i < n - m then i + m else i - (n - m)] | i <- iota(n)];
}

// The index of the first smallest / largest element (-1 for an empty array).
// The pair (-1, _) is the neutral element of the reduction.
<T> def int argmin(T[[*]] xs) =
  reduce(\a b -> if a.0 < 0 then b
                 else if b.0 < 0 then a
                 else if b.1 < a.1 || (b.1 == a.1 && b.0 < a.0) then b
                 else a,
         (-1, T(0)), zip(iota(length(xs)), xs)).0;

<T> def int argmax(T[[*]] xs) =
  reduce(\a b -> if a.0 < 0 then b
                 else if b.0 < 0 then a
                 else if b.1 > a.1 || (b.1 == a.1 && b.0 < a.0) then b
                 else a,
         (-1, T(0)), zip(iota(length(xs)), xs)).0;
