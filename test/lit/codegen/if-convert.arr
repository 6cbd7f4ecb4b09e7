// If-conversion on CPUs (docs/codegen.md): an if whose branches have no
// effects and read only where boundsChecks proved the read in range whatever
// the condition (Exp::speculable, docs/lowering.md) is emitted as both
// branches plus selects under ARRC_CPU, and as the if otherwise.
// RUN: %arrc --emit=opencl %s | FileCheck %s

// a[i] is in range only under the condition: the if stays an if.
// CHECK-LABEL: __kernel void arrc_k0_map0_guarded_t(
// CHECK-NOT: #ifdef ARRC_CPU
// CHECK: if (((arrc_{{[0-9]+}}_i >= 0) & (arrc_{{[0-9]+}}_i < ((int)(arrc_{{[0-9]+}}_a_n0))))) {
// CHECK-NEXT: arrc_{{[0-9]+}}_r = arrc_{{[0-9]+}}_a[
// CHECK-NOT: #ifdef ARRC_CPU
// CHECK: }
export int[[*]] guarded(int[[*]] a, int[[*]] idx) = [if i >= 0 && i < length(a) then a[i] else -1 | i <- idx];

// A filter's chain of conditions in an expand's walk: x (col[i], i the
// source) is read under `z * 2 < n`, but is in range for any i. (A plain
// bound `z < n` would narrow z's range instead: lowering/guarded-ranges.arr.)
// The GPU plan's walk (the CPU plan folds z in a loop: FuseExpandLoop.cpp).
// CHECK-LABEL: arrc_fused5_triples_expand_reduce: expand_reduce
// CHECK: T arrc_get(
// CHECK: #ifdef ARRC_CPU
// CHECK-NEXT: int [[X:arrc_[0-9]+_cse]] = {{arrc_[0-9]+_col}}[
// CHECK-NEXT: bool [[C:arrc_[0-9]+_c]] = {{.*}}[[X]]
// CHECK: bool {{arrc_[0-9]+_f}} = (({{.*}}{{arrc_[0-9]+_z}}{{.*}} < {{arrc_[0-9]+_n}})) ? [[C]] : false;
// CHECK: #else
// CHECK: if (({{.*}}{{arrc_[0-9]+_z}}{{.*}} < {{arrc_[0-9]+_n}})) {
// CHECK-NEXT: int [[X]] = {{arrc_[0-9]+_col}}[
// CHECK: #endif
export int triples(int n) =
  sum([1 | x <- [1..<n], y <- [x..<n], z <- [y..<(x + y)], z * 2 < n, x * x + y * y == z * z]);
