// pow with the constant exponents simplify rewrites into multiplications and
// square roots (1, 2, 3, -1, 0.5, 1.5, -0.5, -1.5; lowering/src/Simplify.cpp),
// at the values C99 Annex F defines specially (-0, +0, +-inf, NaN, 1, -1,
// negatives), against those definitions; and the CPU prelude's pow for other
// exponents. A result is coded so that the output can say it: NaN 1000, +inf
// 2000, -inf -2000, +0 3000, -0 -3000, else the value.

def double code(double r) =
  if isnan(r) then 1000.0 else if r > 1.0e308 then 2000.0 else if r < -1.0e308 then -2000.0
  else if r == 0.0 then (if 1.0 / r > 0.0 then 3000.0 else -3000.0) else r;

// -0, +0, inf, -inf, NaN, 1, -1, 4, -4, 2.25, 0.25 (z = 0 at run time)
def double[[*]] specials(double z) {
  let inf = 1.0 / z;
  return [-z, z, inf, -inf, inf - inf, 1.0 + z, -1.0 + z, 4.0 + z, -4.0 + z, 2.25 + z, 0.25 + z];
}

// == test
// in: 0.0
// out: [[-3000.0, 3000.0, 2000.0, -2000.0, 1000.0, 1.0, -1.0, 4.0, -4.0, 2.25, 0.25], [3000.0, 3000.0, 2000.0, 2000.0, 1000.0, 1.0, 1.0, 16.0, 16.0, 5.0625, 0.0625], [-3000.0, 3000.0, 2000.0, -2000.0, 1000.0, 1.0, -1.0, 64.0, -64.0, 11.390625, 0.015625], [-2000.0, 2000.0, 3000.0, -3000.0, 1000.0, 1.0, -1.0, 0.25, -0.25, 0.4444444444444444, 4.0]]
export double[[*,*]] integral(double z) {
  let xs = specials(z);
  return [[code(pow(x, 1.0)) | x <- xs], [code(pow(x, 2.0)) | x <- xs], [code(pow(x, 3.0)) | x <- xs],
          [code(pow(x, -1.0)) | x <- xs]];
}

// == test
// in: 0.0
// out: [[3000.0, 3000.0, 2000.0, 2000.0, 1000.0, 1.0, 1000.0, 2.0, 1000.0, 1.5, 0.5], [3000.0, 3000.0, 2000.0, 2000.0, 1000.0, 1.0, 1000.0, 8.0, 1000.0, 3.375, 0.125], [2000.0, 2000.0, 3000.0, 3000.0, 1000.0, 1.0, 1000.0, 0.5, 1000.0, 0.6666666666666666, 2.0], [2000.0, 2000.0, 3000.0, 3000.0, 1000.0, 1.0, 1000.0, 0.125, 1000.0, 0.2962962962962963, 8.0]]
export double[[*,*]] halves(double z) {
  let xs = specials(z);
  return [[code(pow(x, 0.5)) | x <- xs], [code(pow(x, 1.5)) | x <- xs], [code(pow(x, -0.5)) | x <- xs],
          [code(pow(x, -1.5)) | x <- xs]];
}

// float: the same rewrites
// == test
// in: 0.0f
// out: [[3000.0, 3000.0, 2000.0, 2000.0, 1000.0, 1.0, 1000.0, 8.0, 1000.0, 3.375, 0.125], [2000.0, 2000.0, 3000.0, 3000.0, 1000.0, 1.0, 1000.0, 0.125, 1000.0, 0.29629629850387573, 8.0], [-3000.0, 3000.0, 2000.0, -2000.0, 1000.0, 1.0, -1.0, 64.0, -64.0, 11.390625, 0.015625]]
export double[[*,*]] floats(float z) {
  let xs = [float(x) | x <- specials(double(z))];
  return [[code(double(pow(x, 1.5f))) | x <- xs], [code(double(pow(x, -1.5f))) | x <- xs],
          [code(double(pow(x, 3.0f))) | x <- xs]];
}

// Other exponents: pow itself (on CPUs the prelude's, docs/runtime.md), at
// the same values and at -inf, +inf, NaN, -0, 2.5, -3 and 4 as exponents
// == test
// in: 0.0
// out: [[3000.0, 3000.0, 2000.0, 2000.0, 1000.0, 1.0, 1000.0, 32.0, 1000.0, 7.59375, 0.03125], [-2000.0, 2000.0, 3000.0, -3000.0, 1000.0, 1.0, -1.0, 0.015625, -0.015625, 0.0877914951989026, 64.0], [3000.0, 3000.0, 2000.0, 2000.0, 1000.0, 1.0, 1.0, 256.0, 256.0, 25.62890625, 0.00390625], [2000.0, 2000.0, 3000.0, 3000.0, 1000.0, 1.0, 1.0, 3000.0, 3000.0, 3000.0, 2000.0], [3000.0, 3000.0, 2000.0, 2000.0, 1000.0, 1.0, 1.0, 2000.0, 2000.0, 2000.0, 3000.0], [1000.0, 1000.0, 1000.0, 1000.0, 1000.0, 1.0, 1000.0, 1000.0, 1000.0, 1000.0, 1000.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]
export double[[*,*]] general(double z) {
  let xs = specials(z);
  let inf = 1.0 / z;
  return [[code(pow(x, y)) | x <- xs] | y <- [2.5 + z, -3.0 + z, 4.0 + z, -inf, inf, inf - inf, -z]];
}
