// QA held-out: function parameters and generic predicates inside comprehensions, if in
// heads, wildcard generators, block bodies with tuple lets and loops, bool logic, bitwise |.
def int[[*]] app((int) -> int f, int[[*]] xs) = [f(x) | x <- xs, f(x) > 0];
<T> def T[[*]] keep((T) -> bool p, T[[*]] xs) = [x | x <- xs, p(x)];
// == test
// in: [1, 4, 3, 6]
// out: ([3, 6, 5, 8], [2, 1, 4], [-1, 2, -3, 3], [2.0, 1.5, 3.0], [1, 1, 1, 1, 1, 1, 1, 1])
export (int[[*]], int[[*]], int[[*]], double[[*]], int[[*]]) misc(int[[*]] xs) =
  ([x + k | x <- xs, let k = 2],
   app(\x -> x - 2, xs),
   [if x % 2 == 0 then x / 2 else -x | x <- xs],
   keep(\d -> d > 1.0, [double(x) * 0.5 | x <- xs]),
   [1 | _ <- xs, _ <- [0..<2]]);
// == test
// in: 3
// out: 60
export int blocks(int n) {
  let (a, b) = (n, n * 2);
  let c = loop (s = a) for i < b do s + i;
  let d = sum([c | _i <- [0..<3]]);
  return d + b;
}
// == test
// in: [true, false, false]
// out: [true, false, true]
export bool[[*]] logic(bool[[*]] bs) = [(b && !c) || (c ^ b) | b <- bs | c <- reverse(bs)];
// == test
// in: 4 3
// out: 21
export int bitor(int a, int b) = sum([(x | b) | x <- [a..(a+1)]]) + (a | b);
