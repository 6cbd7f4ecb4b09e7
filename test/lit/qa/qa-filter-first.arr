export int[[*]] f(int[[*]] xs) = [x | x > 0, x <- xs];
// RUN: not %arrc --emit=typed %s 2>&1 | FileCheck %s
// CHECK: qa-filter-first.arr:1:39: error: a comprehension must start with a binding 'x <- xs', not a filter (a bitwise '|' in a comprehension head or generator must be parenthesised: write (a | b))
// CHECK-NOT: error:
