// Several syntax errors in one file are all reported.
// RUN: not %arrc --emit=ast --no-stdlib %s 2>&1 | FileCheck %s
export int f(int x) = x +;
def int g(int y) = y * ;
def int h(int y) = (y;
export int ok(int z) = z;
def int k(int) = 1;
// CHECK: err_multiple.arr:3:26: error: expected an expression but found ';'
// CHECK: err_multiple.arr:4:24: error: expected an expression but found ';'
// CHECK: err_multiple.arr:5:22: error: expected ')' or ',' but found ';'
// CHECK: err_multiple.arr:7:14: error: {{.*}}')'
