// One export per SOAC kind and a few scalar semantics (integer division by
// zero, wrapping, round); run by test/e2e (run_examples.py), expected values
// computed by hand.
//
//   arrc run soacs.arr -e prefix "[1, 2, 3, 4]"  ==> [1, 3, 6, 10]
//   arrc run soacs.arr -e evens "[1, 2, 3, 4, 6]"  ==> [2, 4, 6]
//   arrc run soacs.arr -e evens "[1, 3]"  ==> []
//   arrc run soacs.arr -e sorted "[5, 3, 9, 1, 3]"  ==> [1, 3, 3, 5, 9]
//   arrc run soacs.arr -e histo "[0, 1, 1, 3, 3, 3, 7]"  ==> [1, 2, 0, 3]
//   arrc run soacs.arr -e segsum "[true, false, true, false, false]" "[1, 2, 3, 4, 5]"  ==> [1, 3, 3, 7, 12]
//   arrc run soacs.arr -e segred "[true, false, true, false, false]" "[1, 2, 3, 4, 5]"  ==> [3, 12]
//   arrc run soacs.arr -e amin "[3.0, 1.0, 2.0, 1.0]"  ==> 1
//   arrc run soacs.arr -e mx "[3.0, 1.0, 7.5]"  ==> 7.5
//   arrc run soacs.arr -e mx "[]"  ==> error: empty
//   arrc run soacs.arr -e parts "[1, 5, 2, 4, 3]"  ==> ([5, 4, 3], [1, 2])
//   arrc run soacs.arr -e scat "[0, 0, 0, 0]" "[1, 3, 9, -1]" "[5, 6, 7, 8]"  ==> [0, 5, 0, 6]
//   arrc run soacs.arr -e tr "[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]"  ==> [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
//   arrc run soacs.arr -e mm "[[1.0, 2.0], [3.0, 4.0]]" "[[5.0, 6.0], [7.0, 8.0]]"  ==> [[19.0, 22.0], [43.0, 50.0]]
//   arrc run soacs.arr -e rev "[1, 2, 3]"  ==> [3, 2, 1]
//   arrc run soacs.arr -e rot 1 "[1, 2, 3, 4]"  ==> [2, 3, 4, 1]
//   arrc run soacs.arr -e cat "[1, 2]" "[3]"  ==> [1, 2, 3]
//   arrc run soacs.arr -e ex "[2, 0, 3]"  ==> [20, 21, 30, 31, 32]
//   arrc run soacs.arr -e rbk "[3, 1, 3, 2, 1]" "[1, 2, 3, 4, 5]"  ==> ([1, 2, 3], [7, 4, 4])
//   arrc run soacs.arr -e divs 7 0  ==> 0
//   arrc run soacs.arr -e divs -- -7 2  ==> -4
//   arrc run soacs.arr -e wrap 1  ==> -2147483648
//   arrc run soacs.arr -e rnd 2.5  ==> 3.0
//   arrc run soacs.arr -e rnd -- -2.5  ==> -3.0
//   arrc run soacs.arr -e cnt "[1, 2, 3]"  ==> 2
//   arrc run soacs.arr -e anyneg "[1, -2]"  ==> true
//   arrc run soacs.arr -e flat "[[1, 2], [3, 4]]"  ==> [1, 2, 3, 4]
//   arrc run soacs.arr -e col "[[1.0, 2.0], [3.0, 4.0]]" 1  ==> [2.0, 4.0]
//   arrc run soacs.arr -e col "[[1.0, 2.0], [3.0, 4.0]]" 2  ==> error: out of bounds
//   arrc run soacs.arr -e upd "[[1.0, 2.0], [3.0, 4.0]]"  ==> [[1.0, 9.0], [3.0, 4.0]]
export int[[*]] prefix(int[[*]] xs) = scan((+), 0, xs);
export int[[*]] evens(int[[*]] xs) = filter(\x -> x % 2 == 0, xs);
export int[[*]] sorted(int[[*]] xs) = sort(xs);
export int[[*]] histo(int[[*]] is) = hist((+), 0, 4, is, replicate(length(is), 1));
export int[[*]] segsum(bool[[*]] fs, int[[*]] xs) = segmented_scan((+), 0, fs, xs);
export int[[*]] segred(bool[[*]] fs, int[[*]] xs) = segmented_reduce((+), 0, fs, xs);
export int amin(double[[*]] xs) = argmin(xs);
export double mx(double[[*]] xs) = maximum(xs);
export (int[[*]], int[[*]]) parts(int[[*]] xs) = partition(\x -> x > 2, xs);
export int[[*]] scat(int[[*]] d, int[[*]] is, int[[*]] vs) = scatter(d, is, vs);
export double[[*,*]] tr(double[[*,*]] a) = transpose(a);
export double[[*,*]] mm(double[[*,*]] a, double[[*,*]] b) = matmul(a, b);
export int[[*]] rev(int[[*]] xs) = reverse(xs);
export int[[*]] rot(int r, int[[*]] xs) = rotate(r, xs);
export int[[*]] cat(int[[*]] xs, int[[*]] ys) = xs ++ ys;
export int[[*]] ex(int[[*]] xs) = expand(\x -> x, \x i -> x * 10 + i, xs);
export (int[[*]], int[[*]]) rbk(int[[*]] ks, int[[*]] vs) = reduce_by_key((+), 0, ks, vs);
export int divs(int a, int b) = a / b + a % b;
export int wrap(int a) = a * 65536 * 65536 + 2147483647 + a;
export double rnd(double x) = round(x);
export int cnt(int[[*]] xs) = count(\x -> x > 1, xs);
export bool anyneg(int[[*]] xs) = any(\x -> x < 0, xs);
export int[[*]] flat(int[[*,*]] a) = flatten(a);
export double[[*]] col(double[[*,*]] a, int j) = a[:, j];
export double[[*,*]] upd(double[[*,*]] a) = a with [0, 1] = 9.0;
