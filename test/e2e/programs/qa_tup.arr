// QA held-out: tuples through reduce/scan (lambda with two tuple patterns), unzip of map,
// filter/partition/scatter/gather/reverse/take/++ on arrays of tuples, s * A in a block body.

// == test
// in: [1, 2, 3] [5, -1, 7]
// out: (6, 7)
export (int, int) tred(int[[*]] xs, int[[*]] ys) = reduce(\(a, b) (c, d) -> (a + c, max(b, d)), (0, -100), zip(xs, ys));
// == test
// in: [1, 2, 3]
// out: [(1, 0.5), (3, 1.5), (6, 3.0)]
export (int, double)[[*]] tscan(int[[*]] xs) = scan(\(a, b) (c, d) -> (a + c, b + d), (0, 0.0), [(x, double(x) * 0.5) | x <- xs]);
// == test
// in: [1, 2, 3]
// out: ([1, 4, 9], [false, true, true])
export (int[[*]], bool[[*]]) tmap(int[[*]] xs) = unzip(map(\x -> (x * x, x > 1), xs));
// == test
// in: 2.0 [[1.0, 2.0], [3.0, 4.0]]
// out: [[2.0, 4.0], [6.0, 8.0]]
export double[[*,*]] scale(double s, double[[*,*]] A) {
  let B = s * A;
  return B;
}
// == test
// in: [(1, 2), (3, 4), (0, 9)]
// out: [(3, 4), (0, 9)]
export (int, int)[[*]] tfilt((int, int)[[*]] ps) = filter(\(a, b) -> a + b > 3, ps);
// == test
// in: [(1, 2), (4, 4), (2, 9), (3, 3)]
// out: ([(4, 4), (2, 9)], [(1, 2), (3, 3)])
export ((int, int)[[*]], (int, int)[[*]]) tpart((int, int)[[*]] ps) = partition(\(a, _b) -> a % 2 == 0, ps);
// == test
// in: [(1, 2), (3, 4)]
// out: [(1, 2), (9, 9)]
export (int, int)[[*]] tscat((int, int)[[*]] d) = scatter(d, [1], [(9, 9)]);
// == test
// in: [(1, 2), (3, 4)]
// out: [(3, 4), (3, 4), (1, 2)]
export (int, int)[[*]] tgath((int, int)[[*]] d) = gather(d, [1, 1, 0]);
// == test
// in: [(1, 2), (3, 4)]
// out: [(3, 4), (1, 2), (1, 2)]
export (int, int)[[*]] trev((int, int)[[*]] d) = reverse(d) ++ take(1, d);
