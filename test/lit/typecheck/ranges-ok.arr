// RUN: %arrc --emit=typed %s | FileCheck %s
export long[[*]] f(long a, long b) = [a..b] ++ [a..<b] ++ iota(b);
// CHECK-DAG: Range .. : long{{\[\[}}*{{\]\]}}
// CHECK-DAG: Call : long{{\[\[}}*{{\]\]}}
