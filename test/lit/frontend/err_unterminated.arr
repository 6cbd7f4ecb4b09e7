// Unterminated string and comment.
// RUN: not %arrc --emit=ast --no-stdlib %s 2>&1 | FileCheck %s
import "no end;
export int f() = 1;
/* this comment never ends
export int g() = 2;
// CHECK: err_unterminated.arr:3:8: error: unterminated string (missing closing '"' on this line)
// CHECK: err_unterminated.arr:5:1: error: unterminated comment: '/*' without a matching '*/'
