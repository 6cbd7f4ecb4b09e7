// A bitwise | in a comprehension head or generator must be parenthesised;
// a branch must start with a binding.
// RUN: not %arrc --emit=ast --no-stdlib %s 2>&1 | FileCheck %s
export int[[*]] f(int[[*]] xs, int b) = [x | b | x <- xs];
export int[[*]] g(int[[*]] xs, int[[*]] ys) = [x | x <- xs | ys];
export int[[*]] h(int[[*]] xs) = [1 | let k = 2];
// CHECK: err_comprehension.arr:4:46: error: a comprehension must start with a binding 'x <- xs', not a filter (a bitwise '|' in a comprehension head or generator must be parenthesised: write (a | b))
// CHECK: err_comprehension.arr:5:62: error: a zipped branch must start with a binding
// CHECK: err_comprehension.arr:6:39: error: this comprehension branch has no binding 'x <- xs'
