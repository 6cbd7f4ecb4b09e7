// QA held-out: views: transpose, negative-step rank-2 sections, sections passed to
// functions and to matmul, with on a transposed view, aggregate ops on views,
// sections inside comprehensions; shape mismatch of views.
def double tr2(double[[*,*]] M) = M[0, 0] * 10.0 + M[1, 0];
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]
// out: ([[10.0, 12.0, 14.0], [5.0, 7.0, 9.0]], [[1.0, 100.0, 7.0], [2.0, 5.0, 8.0], [3.0, 6.0,
//      9.0]], 56.0, [9.0, 8.0, 7.0, 3.0, 2.0, 1.0], [[93.0, 108.0], [108.0, 126.0]])
export (double[[*,*]], double[[*,*]], double, double[[*]], double[[*,*]]) views(double[[*,*]] A) {
  let T = transpose(A);
  let S = A[2:0:-2, 2:0:-1];
  return (S + T[0:1, 0:2], T with [0, 1] = 100.0, tr2(T[1:2, 1:2]), flatten(S), matmul(T[1:2, :], A[:, 1:2]));
}
// == test
// in: [[1.0, 2.0], [3.0, 4.0]]
// out: [4.0, 3.0, 3.0, 1.0]
export double[[*]] revrow(double[[*,*]] A) = reverse(A[1, :]) ++ reverse(A[:, 0]);
// == test
// in: [1, 2, 3, 4]
// out: [10, 9, 7, 4]
export int[[*]] sect_in_comp(int[[*]] xs) = [sum(xs[i:length(xs)-1]) | i <- iota(length(xs))];
// == test
// in: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]
// error: shape mismatch
export double[[*,*]] badview(double[[*,*]] A) = A[2:0:-2, 2:0:-1] + transpose(A)[0:1, 0:2:2];
