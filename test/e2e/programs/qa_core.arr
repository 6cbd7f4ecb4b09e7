// QA held-out: scalars, literals, wrapping, tuples, aliases, generics, function-typed
// parameters, lambdas, operator sections, host loops and loops inside comprehensions.
// Expected values computed by hand / Python, independently of arrc.
type point = (int, int);
type vec = double[[*]];

def int sq(int x) = x * x;
<T> def T[[*]] rev2(T[[*]] xs) = xs[xs.size(0)-1 : 0 : -1];
<T> def (T, T) swap((T, T) p) = (p.1, p.0);
def int apply2((int) -> int f, int x) = f(f(x));
def int fold3((int, int) -> int op, int a, int b, int c) = op(op(a, b), c);
def point addp(point a, point b) = (a.0 + b.0, a.1 + b.1);

// scalars and literals
// == test
// in: 5
// out: (11, 211L, 7.5f, 2.505, 6.0, false)
export (int, long, float, double, double, bool) lits(int n) =
  (n * 3 + 7 % 4 - (n << 2) + (n >> 1) + (n & 6) + (n ^ 5) + (~n) + (n | 8),
   42L * long(n) + 1L,
   1.5f * float(n),
   1e-3 * double(n) + 2.5,
   double(int(7.9)) + floor(-1.5) + ceil(1.2) + round(-0.5),
   !(n > 3) && (n == 5 || n != 5) );
// wrap: int overflow two's complement, long arithmetic
// == test
// in: 1
// out: (-2147483648, 2147483648L, -3, -1)
export (int, long, int, int) wraps(int a) =
  (a + 2147483647, long(a) + 2147483647L, -7 / 2, -7 % 2);

// tuples, aliases, generics, function-typed params, lambdas, sections
// == test
// in: 5
// out: ((7, 4), (6, 5), 45, 133, [3.0, 2.0, 1.0])
export (point, (int, int), int, int, double[[*]]) funs(int x) {
  let p = addp((x, 1), (2, 3));
  let s = swap((x, x + 1));
  let a = apply2(\y -> y * 3, x);
  let b = fold3((min), 9, x, 4) + fold3((+), 1, 2, 3) + fold3(\u v -> u * 10 + v, 1, 2, 3);
  let r = rev2([1.0, 2.0, 3.0]);
  return (p, s, a, b, r);
}
// == test
// in: [1, 2, 3]
// out: [1, 5, 11]
export int[[*]] lams(int[[*]] xs) {
  let ps = zip(xs, map(sq, xs));
  let ys = map(\(a, b) -> a + b, ps);
  return map(\x -> x - 1, ys);
}
// == test
// in: [2, -3, 4]
// out: (-24, 4, -3, false, true)
export (int, int, int, bool, bool) secs(int[[*]] xs) =
  (reduce((*), 1, xs), reduce((max), -100, xs), reduce((min), 100, xs),
   reduce((&&), true, map(\x -> x > 0, xs)), reduce((||), false, map(\x -> x > 3, xs)));

// loops at host level with tuple state
// == test
// in: 10
// out: (55, 89)
export (int, int) fib(int n) = loop ((a, b) = (0, 1)) for _i < n do (b, a + b);
// == test
// in: 6
// out: (1, 8)
export (int, int) collatz(int n) = loop ((x, k) = (n, 0)) while x != 1 do
  (if x % 2 == 0 then x / 2 else 3 * x + 1, k + 1);
// == test
// in: [1.0, 0.5] 3
// out: [12.0, 8.0]
export double[[*]] iter(double[[*]] xs, int n) = loop (v = xs) for i < n do map(\x -> x * 2.0 + double(i), v);
// loop inside a comprehension body
// == test
// in: [0, 1, 4]
// out: [1, 2, 616]
export int[[*]] inner_loop(int[[*]] xs) =
  [ (loop ((s, p) = (0, 1)) for i < x do (s + i, p * 2)).0 * 100
    + (loop ((s, p) = (0, 1)) for i < x do (s + i, p * 2)).1 | x <- xs ];
// == test
// in: [5, 30, 100]
// out: [5, 10, 3]
export int[[*]] inner_while(int[[*]] xs) = [ loop (y = x) while y > 10 do y / 3 | x <- xs ];
// == test
// in:
// out: (-2147483648, -9223372036854775808L, 1000.0f, 1500.0, 0.025, 6, 10)
export (int, long, float, double, double, int, int) lits2() = (-2147483648, -9223372036854775808L, 1e3f, 1.5e3, 2.5e-2, - 3 * -2, 7 - -3);
