// QA held-out: tuples through reduce/scan (lambda with two tuple patterns), unzip of map,
// filter/partition/scatter/gather/reverse/take/++ on arrays of tuples, s * A in a block body.
//
//   arrc run qa_tup.arr -e tred "[1, 2, 3]" "[5, -1, 7]"  ==> (6, 7)
//   arrc run qa_tup.arr -e tscan "[1, 2, 3]"  ==> [(1, 0.5), (3, 1.5), (6, 3.0)]
//   arrc run qa_tup.arr -e tmap "[1, 2, 3]"  ==> ([1, 4, 9], [false, true, true])
//   arrc run qa_tup.arr -e scale 2.0 "[[1.0, 2.0], [3.0, 4.0]]"  ==> [[2.0, 4.0], [6.0, 8.0]]
//   arrc run qa_tup.arr -e tfilt "[(1, 2), (3, 4), (0, 9)]"  ==> [(3, 4), (0, 9)]
//   arrc run qa_tup.arr -e tpart "[(1, 2), (4, 4), (2, 9), (3, 3)]"  ==> ([(4, 4), (2, 9)], [(1, 2), (3, 3)])
//   arrc run qa_tup.arr -e tscat "[(1, 2), (3, 4)]"  ==> [(1, 2), (9, 9)]
//   arrc run qa_tup.arr -e tgath "[(1, 2), (3, 4)]"  ==> [(3, 4), (3, 4), (1, 2)]
//   arrc run qa_tup.arr -e trev "[(1, 2), (3, 4)]"  ==> [(3, 4), (1, 2), (1, 2)]
export (int, int) tred(int[[*]] xs, int[[*]] ys) = reduce(\(a, b) (c, d) -> (a + c, max(b, d)), (0, -100), zip(xs, ys));
export (int, double)[[*]] tscan(int[[*]] xs) = scan(\(a, b) (c, d) -> (a + c, b + d), (0, 0.0), [(x, double(x) * 0.5) | x <- xs]);
export (int[[*]], bool[[*]]) tmap(int[[*]] xs) = unzip(map(\x -> (x * x, x > 1), xs));
export double[[*,*]] scale(double s, double[[*,*]] A) {
  let B = s * A;
  return B;
}
export (int, int)[[*]] tfilt((int, int)[[*]] ps) = filter(\(a, b) -> a + b > 3, ps);
export ((int, int)[[*]], (int, int)[[*]]) tpart((int, int)[[*]] ps) = partition(\(a, _b) -> a % 2 == 0, ps);
export (int, int)[[*]] tscat((int, int)[[*]] d) = scatter(d, [1], [(9, 9)]);
export (int, int)[[*]] tgath((int, int)[[*]] d) = gather(d, [1, 1, 0]);
export (int, int)[[*]] trev((int, int)[[*]] d) = reverse(d) ++ take(1, d);
