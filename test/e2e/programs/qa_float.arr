// QA held-out: float (f32) literals, math, reductions, nested comprehension, conversions,
// comments inside expressions.
/* float (f32) paths: literals, math, reductions, aggregates, conversions */
// == test
// in: [0.25f, 4.0f, 2.25f]
// out: (13.0f, [0.5f, 2.0f, 1.5f], [[0.25f, 4.0f, 2.25f], [0.5f, 8.0f, 4.5f]], 40, 3.25f,
//      1.501)
export (float, float[[*]], float[[*,*]], int, float, double) fl(float[[*]] xs) =
  (sum(xs) /* inline comment */ * 2.0f, sqrt(xs), [[x * y | y <- xs] | x <- [1.0f, 2.0f]], // trailing
   int(maximum(xs) * 10.0f), round(2.5f) + floor(-0.5f) + abs(-1.25f), double(1.5f) + 1e-3);
