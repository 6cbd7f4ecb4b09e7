// One export per SOAC kind and a few scalar semantics (integer division by
// zero, wrapping, round); run by `arrc test` (test/e2e), expected values
// computed by hand.

// == test
// in: [1, 2, 3, 4]
// out: [1, 3, 6, 10]
export int[[*]] prefix(int[[*]] xs) = scan((+), 0, xs);
// == test
// in: [1, 2, 3, 4, 6]
// out: [2, 4, 6]
// in: [1, 3]
// out: []
export int[[*]] evens(int[[*]] xs) = filter(\x -> x % 2 == 0, xs);
// == test
// in: [5, 3, 9, 1, 3]
// out: [1, 3, 3, 5, 9]
export int[[*]] sorted(int[[*]] xs) = sort(xs);
// == test
// in: [0, 1, 1, 3, 3, 3, 7]
// out: [1, 2, 0, 3]
export int[[*]] histo(int[[*]] is) = hist((+), 0, 4, is, replicate(length(is), 1));
// == test
// in: [true, false, true, false, false] [1, 2, 3, 4, 5]
// out: [1, 3, 3, 7, 12]
export int[[*]] segsum(bool[[*]] fs, int[[*]] xs) = segmented_scan((+), 0, fs, xs);
// == test
// in: [true, false, true, false, false] [1, 2, 3, 4, 5]
// out: [3, 12]
export int[[*]] segred(bool[[*]] fs, int[[*]] xs) = segmented_reduce((+), 0, fs, xs);
// == test
// in: [3.0, 1.0, 2.0, 1.0]
// out: 1
export int amin(double[[*]] xs) = argmin(xs);
// == test
// in: [3.0, 1.0, 7.5]
// out: 7.5
// in: []
// error: empty
export double mx(double[[*]] xs) = maximum(xs);
// == test
// in: [1, 5, 2, 4, 3]
// out: ([5, 4, 3], [1, 2])
export (int[[*]], int[[*]]) parts(int[[*]] xs) = partition(\x -> x > 2, xs);
// == test
// in: [0, 0, 0, 0] [1, 3, 9, -1] [5, 6, 7, 8]
// out: [0, 5, 0, 6]
export int[[*]] scat(int[[*]] d, int[[*]] is, int[[*]] vs) = scatter(d, is, vs);
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
// out: [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
export double[[*,*]] tr(double[[*,*]] a) = transpose(a);
// == test
// in: [[1.0, 2.0], [3.0, 4.0]] [[5.0, 6.0], [7.0, 8.0]]
// out: [[19.0, 22.0], [43.0, 50.0]]
export double[[*,*]] mm(double[[*,*]] a, double[[*,*]] b) = matmul(a, b);
// == test
// in: [1, 2, 3]
// out: [3, 2, 1]
export int[[*]] rev(int[[*]] xs) = reverse(xs);
// == test
// in: 1 [1, 2, 3, 4]
// out: [2, 3, 4, 1]
export int[[*]] rot(int r, int[[*]] xs) = rotate(r, xs);
// == test
// in: [1, 2] [3]
// out: [1, 2, 3]
export int[[*]] cat(int[[*]] xs, int[[*]] ys) = xs ++ ys;
// == test
// in: [2, 0, 3]
// out: [20, 21, 30, 31, 32]
export int[[*]] ex(int[[*]] xs) = expand(\x -> x, \x i -> x * 10 + i, xs);
// == test
// in: [3, 1, 3, 2, 1] [1, 2, 3, 4, 5]
// out: ([1, 2, 3], [7, 4, 4])
export (int[[*]], int[[*]]) rbk(int[[*]] ks, int[[*]] vs) = reduce_by_key((+), 0, ks, vs);
// == test
// in: 7 0
// out: 0
// in: -7 2
// out: -4
export int divs(int a, int b) = a / b + a % b;
// == test
// in: 1
// out: -2147483648
export int wrap(int a) = a * 65536 * 65536 + 2147483647 + a;
// == test
// in: 2.5
// out: 3.0
// in: -2.5
// out: -3.0
export double rnd(double x) = round(x);
// == test
// in: [1, 2, 3]
// out: 2
export int cnt(int[[*]] xs) = count(\x -> x > 1, xs);
// == test
// in: [1, -2]
// out: true
export bool anyneg(int[[*]] xs) = any(\x -> x < 0, xs);
// == test
// in: [[1, 2], [3, 4]]
// out: [1, 2, 3, 4]
export int[[*]] flat(int[[*,*]] a) = flatten(a);
// == test
// in: [[1.0, 2.0], [3.0, 4.0]] 1
// out: [2.0, 4.0]
// in: [[1.0, 2.0], [3.0, 4.0]] 2
// error: out of bounds
export double[[*]] col(double[[*,*]] a, int j) = a[:, j];
// == test
// in: [[1.0, 2.0], [3.0, 4.0]]
// out: [[1.0, 9.0], [3.0, 4.0]]
export double[[*,*]] upd(double[[*,*]] a) = a with [0, 1] = 9.0;
