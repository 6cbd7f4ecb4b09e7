// A generator binding a row of a rank-2 array in an irregular comprehension:
// the materialised context stores the row index (a long column) and later
// bodies read the row from the source through it.
// RUN: %arrc --emit=lowered %s | FileCheck %s
export int[[*]] f(int[[*,*]] A) = [x * 10 + y | row <- A, x <- row, y <- [0..<x]];
// CHECK-LABEL: export f(
// CHECK: col_{{[0-9]+}}: long{{\[\[}}*]] = map (i_[[I:[0-9]+]] < n_{{[0-9]+}}) {
// CHECK-NEXT: yield i_[[I]]
// CHECK: // comprehension 5:35: expand (generator 5:59)
// CHECK: let row_[[R:[0-9]+]]: long = col_{{[0-9]+}}[i_{{[0-9]+}}]
// CHECK-NEXT: yield A_0.shape(1)
// CHECK: let x_{{[0-9]+}}: int = A_0[row_{{[0-9]+}}, j_{{[0-9]+}}]
// CHECK: // comprehension 5:35: expand (generator 5:69)
