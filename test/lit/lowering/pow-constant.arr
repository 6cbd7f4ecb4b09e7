// RUN: %arrc %s --emit=ir | FileCheck %s
// pow with a constant exponent of 2, 3, 1.5 or -0.5 becomes multiplications
// and a square root (lowering/src/Simplify.cpp); other exponents stay pow.

export double[[*]] squares(double[[*]] xs) = [pow(x, 2.0) | x <- xs];
// CHECK-LABEL: export squares(
// CHECK: yield (x_[[X:[0-9]+]] * x_[[X]])

export double[[*]] cubes(double[[*]] xs) = [pow(x, 3.0) | x <- xs];
// CHECK-LABEL: export cubes(
// CHECK: yield ((x_[[X:[0-9]+]] * x_[[X]]) * x_[[X]])

export float[[*]] three_halves(float[[*]] xs) = [pow(x, 1.5f) | x <- xs];
// CHECK-LABEL: export three_halves(
// CHECK: yield select((x_[[X:[0-9]+]] == -inff), inff, (x_[[X]] * sqrt(x_[[X]])))

export double[[*]] rsqrt(double[[*]] xs) = [pow(x, -0.5) | x <- xs];
// CHECK-LABEL: export rsqrt(
// CHECK: yield select((x_[[X:[0-9]+]] == -inf), 0.0, (1.0 / (sqrt(x_[[X]]) + 0.0)))

export double[[*]] other(double[[*]] xs) = [pow(x, 2.5) | x <- xs];
// CHECK-LABEL: export other(
// CHECK: yield pow(x_{{[0-9]+}}, 2.5)
