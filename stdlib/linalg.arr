// Linear algebra on multiarrays (LANGUAGE.md §7). Rows and columns are
// sections (A[i, :], B[:, j]): views, no copies.

<T> def T dot(T[[*]] x, T[[*]] y) = sum([a * b | a <- x | b <- y]);

<T> def T[[*]] matvec(T[[*,*]] A, T[[*]] x) = [dot(A[i, :], x) | i <- iota(A.size(0))];

<T> def T[[*,*]] matmul(T[[*,*]] A, T[[*,*]] B) =
  [[dot(A[i, :], B[:, j]) | j <- iota(B.size(1))] | i <- iota(A.size(0))];

<T> def T[[*,*]] outer(T[[*]] x, T[[*]] y) = [[a * b | b <- y] | a <- x];
