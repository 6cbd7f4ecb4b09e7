// arrc run --interpret: the IR interpreter instead of the compiled program.
export (int, double)[[*]] pairs((int, double)[[*,*]] a, (bool, long) t) =
  [(x + int(t.1), y * 2.0) | (x, y) <- flatten(a), t.0 || x > 1];
export float get(float[[*]] a, int i) = a[i];
export int[[*,*]] tr(int[[*,*]] a) = transpose(a);
export long wrap(long x) = x * x + 9223372036854775807L;
export double[[*]] tk(int n) = matvec(new double[[2, 2]], replicate(n, 4.0));
// difftest seed 7118: the head's probe of length(drop(...)) had left Lets
// in the body reading arrays the probe never kept.
export (int, int)[[*]] dropped(int a) = gather(drop(1, [(19, 7) | _x <- [4.5], _z <- [1, 2, 3]]), [i % length(drop(1, [(19, 7) | _x <- [4.5], _z <- [1, 2, 3]])) | i <- replicate(1, a)]);
export long huge(long n) = (let a = [i | i <- iota(n)] in a[n / 2L]);
