// Alternative forms (bench/forms/README.md): N-body written other ways: three sums, a tuple reduce, a matrix of bodies.
// Each export with a bench block is timed by bench/run_forms.sh.
// N-body with separate arrays and three sums.
// == bench
// sizes: n=4096
// gen: [n] [n] [n] [n]
export (float[[*]], float[[*]], float[[*]]) acc1(float[[*]] X, float[[*]] Y, float[[*]] Z, float[[*]] M) {
  let ax = [sum([m * (x2 - x) / pow(sqrt((x2-x)*(x2-x) + (y2-y)*(y2-y) + (z2-z)*(z2-z) + 0.01f), 3.0f)
                 | x2 <- X | y2 <- Y | z2 <- Z | m <- M]) | x <- X | y <- Y | z <- Z];
  let ay = [sum([m * (y2 - y) / pow(sqrt((x2-x)*(x2-x) + (y2-y)*(y2-y) + (z2-z)*(z2-z) + 0.01f), 3.0f)
                 | x2 <- X | y2 <- Y | z2 <- Z | m <- M]) | x <- X | y <- Y | z <- Z];
  let az = [sum([m * (z2 - z) / pow(sqrt((x2-x)*(x2-x) + (y2-y)*(y2-y) + (z2-z)*(z2-z) + 0.01f), 3.0f)
                 | x2 <- X | y2 <- Y | z2 <- Z | m <- M]) | x <- X | y <- Y | z <- Z];
  return (ax, ay, az);
}
// == bench
// sizes: n=4096
// gen: [n] [n] [n] [n]
export (float, float, float)[[*]] acc2(float[[*]] X, float[[*]] Y, float[[*]] Z, float[[*]] M) =
  [reduce(\(a, b, c) (d, e, f) -> (a + d, b + e, c + f), (0.0f, 0.0f, 0.0f),
     [let dx = x2 - x in let dy = y2 - y in let dz = z2 - z in
      let r = sqrt(dx*dx + dy*dy + dz*dz + 0.01f) in let s = m / (r * r * r) in (s * dx, s * dy, s * dz)
      | x2 <- X | y2 <- Y | z2 <- Z | m <- M]) | x <- X | y <- Y | z <- Z];
// == bench
// sizes: n=4096
// gen: [n, 4]
export float[[*,*]] acc3(float[[*,*]] B) =
  [[sum([B[j, 3] * (B[j, a] - B[i, a]) / pow(sqrt(sum([(B[j, c] - B[i, c]) * (B[j, c] - B[i, c]) | c <- iota(3)]) + 0.01f), 3.0f)
         | j <- iota(B.size(0))]) | a <- iota(3)] | i <- iota(B.size(0))];
