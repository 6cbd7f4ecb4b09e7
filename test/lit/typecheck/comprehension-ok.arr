// RUN: %arrc --emit=typed %s | FileCheck %s
export (int, int, int)[[*]] f(int n) =
  [(x, y, z) | x <- [1..<n], y <- [x..<n], let z = x + y, z < n];
// CHECK-DAG: Comprehension : (int, int, int){{\[\[}}*{{\]\]}}
// CHECK-DAG: Bind x : int
// CHECK-DAG: LetQ z : int
// CHECK-DAG: Filter
