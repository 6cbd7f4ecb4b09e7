// Out-of-range literals, bad members and projections.
// RUN: not %arrc --emit=ast --no-stdlib %s 2>&1 | FileCheck %s
export int f(int[[*]] a, (int, int) t) = g(2147483648, 99999999999999999999L, 1e999, 1e39f, a.length, a.size, a.foo(1), t.1e5);
// CHECK: :3:44: error: integer literal '2147483648' is out of range for int (use the L suffix for a long)
// CHECK: :3:56: error: integer literal '99999999999999999999L' is out of range for long
// CHECK: :3:79: error: floating-point literal '1e999' is out of range
// CHECK: :3:86: error: float literal '1e39f' is out of range for float
// CHECK: :3:95: error: unknown member 'length': an array has .size(k) and .rank
// CHECK: :3:105: error: '.size' needs an axis: write A.size(k)
// CHECK: :3:113: error: unknown member 'foo'
// CHECK: :3:123: error: invalid tuple projection '.1e5'
