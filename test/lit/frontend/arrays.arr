// Ranges (1..5 lexes as INT .. INT), array literals (nested), empty arrays,
// new, indexing, sections, .size/.rank, tuple projections (t.0.1), with.
// RUN: %arrc --emit=ast --no-stdlib %s | FileCheck %s
export int f(double[[*,*]] A, ((int, int), int) t) = g([1..5], [0..<n], [1, 2, 3], [[1.0, 2.0], [3.0, 4.0]], [],
  new double[[3, 4]], A[1, 2], A[i, :], A[:, j], A[0:9], A[9:0:-1, 2], A.size(1), A.rank, t.0.1, t.1,
  A with [i, j] = 1.0, A with [:, j] = c with [0, 0] = 2.0);
// CHECK:      Range ..  <4:56-4:62>
// CHECK-NEXT:   IntLit 1  <4:57-4:58>
// CHECK-NEXT:   IntLit 5  <4:60-4:61>
// CHECK-NEXT: Range ..<
// CHECK-NEXT:   IntLit 0
// CHECK-NEXT:   Var n
// CHECK-NEXT: ArrayLit 3
// CHECK:      ArrayLit 2
// CHECK-NEXT:   ArrayLit 2
// CHECK-NEXT:     FloatLit 1.0
// CHECK-NEXT:     FloatLit 2.0
// CHECK-NEXT:   ArrayLit 2
// CHECK:      ArrayLit 0
// CHECK-NEXT: New double rank 2
// CHECK-NEXT:   IntLit 3
// CHECK-NEXT:   IntLit 4
// CHECK-NEXT: Index
// CHECK-NEXT:   Var A
// CHECK-NEXT:   Arg index
// CHECK-NEXT:     IntLit 1
// CHECK-NEXT:   Arg index
// CHECK-NEXT:     IntLit 2
// CHECK-NEXT: Section
// CHECK-NEXT:   Var A
// CHECK-NEXT:   Arg index
// CHECK-NEXT:     Var i
// CHECK-NEXT:   Arg :
// CHECK-NEXT: Section
// CHECK-NEXT:   Var A
// CHECK-NEXT:   Arg :
// CHECK-NEXT:   Arg index
// CHECK-NEXT:     Var j
// CHECK-NEXT: Section
// CHECK-NEXT:   Var A
// CHECK-NEXT:   Arg first:last
// CHECK-NEXT:     IntLit 0
// CHECK-NEXT:     IntLit 9
// CHECK-NEXT: Section
// CHECK-NEXT:   Var A
// CHECK-NEXT:   Arg first:last:step
// CHECK-NEXT:     IntLit 9
// CHECK-NEXT:     IntLit 0
// CHECK-NEXT:     IntLit -1
// CHECK-NEXT:   Arg index
// CHECK-NEXT:     IntLit 2
// CHECK-NEXT: Size
// CHECK-NEXT:   Var A
// CHECK-NEXT:   IntLit 1
// CHECK-NEXT: Rank
// CHECK-NEXT:   Var A
// CHECK-NEXT: Project .1  <5:91-5:96>
// CHECK-NEXT:   Project .0  <5:91-5:94>
// CHECK-NEXT:     Var t
// CHECK-NEXT: Project .1
// CHECK-NEXT:   Var t
// CHECK-NEXT: With
// CHECK-NEXT:   Var A
// CHECK-NEXT:   Arg index
// CHECK-NEXT:     Var i
// CHECK-NEXT:   Arg index
// CHECK-NEXT:     Var j
// CHECK-NEXT:   FloatLit 1.0
// CHECK-NEXT: With
// CHECK-NEXT:   With
// CHECK-NEXT:     Var A
// CHECK-NEXT:     Arg :
// CHECK-NEXT:     Arg index
// CHECK-NEXT:       Var j
// CHECK-NEXT:     Var c
// CHECK-NEXT:   Arg index
// CHECK-NEXT:     IntLit 0
// CHECK-NEXT:   Arg index
// CHECK-NEXT:     IntLit 0
// CHECK-NEXT:   FloatLit 2.0
