// A syntax error: file:line:col, the message, the source line, a caret; exit 1.
// RUN: %arrc --emit=ast --no-stdlib %s 2> %t.err; test $? -eq 1
// RUN: FileCheck %s --strict-whitespace < %t.err
export int f(int x) = let y = (x + 1 in y;
// CHECK: err_syntax.arr:4:38: error: expected ')' or ',' but found 'in'
// CHECK-NEXT: {{^}}export int f(int x) = let y = (x + 1 in y;{{$}}
// CHECK-NEXT: {{^}}                                     ^{{$}}
