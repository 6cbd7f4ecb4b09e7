// Alternative forms (bench/forms/README.md): N-body's force with pow.
// Each export with a bench block is timed by bench/run_forms.sh.
// == bench
// sizes: n=4096
// gen: [n] [n] [n] [n]
export float[[*]] accp(float[[*]] X, float[[*]] Y, float[[*]] Z, float[[*]] M) =
  [sum([m * (x2 - x) / pow(sqrt((x2-x)*(x2-x) + (y2-y)*(y2-y) + (z2-z)*(z2-z) + 0.01f), 3.0f)
                 | x2 <- X | y2 <- Y | z2 <- Z | m <- M]) | x <- X | y <- Y | z <- Z];
// == bench
// sizes: n=4096
// gen: [n] [n] [n] [n]
export float[[*]] accr(float[[*]] X, float[[*]] Y, float[[*]] Z, float[[*]] M) =
  [sum([m * (x2 - x) / (let r = sqrt((x2-x)*(x2-x) + (y2-y)*(y2-y) + (z2-z)*(z2-z) + 0.01f) in r * r * r)
                 | x2 <- X | y2 <- Y | z2 <- Z | m <- M]) | x <- X | y <- Y | z <- Z];
// == bench
// sizes: n=4096
// gen: [n] [n] [n] [n]
export float[[*]] accq(float[[*]] X, float[[*]] Y, float[[*]] Z, float[[*]] M) =
  [sum([m * (x2 - x) / pow((x2-x)*(x2-x) + (y2-y)*(y2-y) + (z2-z)*(z2-z) + 0.01f, 1.5f)
                 | x2 <- X | y2 <- Y | z2 <- Z | m <- M]) | x <- X | y <- Y | z <- Z];
