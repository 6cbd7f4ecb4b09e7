// Map: the GPU schedule of a map whose element ends in a sum over an
// irregular range (SoacMap.cpp emits the kernel; this file the long rows).
//
// CSR SpMV's `[sum([vals[k] * x[cols[k]] | k <- [off[i]..<off[i+1]]]) | i <- ..]`
// is a map whose element is a loop over a range read from memory. One
// work-item per element puts the longest range on one work-item's critical
// path: with power-law row lengths (the longest 8863 of a mean of 15) that
// row alone took most of the kernel's 2.2 ms on the H100. Here each
// work-group of kLongRowGroup work-items first does its short rows, one per
// work-item as before, and lists the rows whose count passes a threshold
// (the kernel argument lr_min, arrc::Context::long_row_min: 0 turns the
// schedule off); then all its work-items share each listed row, every
// kLongRowGroup-th k from their own, and add their partial sums in local
// memory in a fixed order. Sums of a reduce only (Loop::reassoc), so
// the changed order of the additions is the language's to choose.
//
// Compiled for GPUs; on CPU devices only when forced (ARRC_LONG_ROWS=n,
// built with -DARRC_CPU_LONG_ROWS), so the tests run it on PoCL.
#include "Generator.h"

#include "arrc/IRBuilder.h"

namespace arrc::cg {

// The map's last statement when it is a sum of a reduce (sumTerms, one
// state variable) whose count depends on a value read from memory (the
// rows differ; a count the same for every element, dgemv's or N-body's,
// keeps one work-item per element), or null.
const ir::Loop *Generator::longRowLoop(const Map &x) const {
  if (x.dims.size() != 1 || x.outs.empty() || x.body.stmts.empty() || blockWrites(x.body)) return nullptr;
  const Stmt &last = *x.body.stmts.back();
  if (last.kind != StmtKind::Loop) return nullptr;
  const auto &loop = static_cast<const ir::Loop &>(last);
  if (loop.params.size() != 1 || sumTerms(loop, true).empty()) return nullptr;
  // the values read from memory among the statements before it
  std::set<int> readVars;
  std::function<bool(const ExpP &)> irregular = [&](const ExpP &e) {
    if (!e) return false;
    if (e->kind == Exp::Read || (e->kind == Exp::Var && readVars.count(e->var))) return true;
    for (auto &a : e->args)
      if (irregular(a)) return true;
    return false;
  };
  for (size_t i = 0; i + 1 < x.body.stmts.size(); ++i) {
    const Stmt &s = *x.body.stmts[i];
    if (s.kind != StmtKind::Let) {
      for (int o : s.outs) readVars.insert(o); // an if or a loop: counted as read
      continue;
    }
    if (irregular(static_cast<const Let &>(s).value)) readVars.insert(s.outs[0]);
  }
  return irregular(loop.count) ? &loop : nullptr;
}

// The long-row part of the kernel: under lr_min > 0 it does the whole
// work-group's elements and returns; the kernel's usual code follows it.
// The index space is rounded up to whole work-groups (lr_min > 0 only).
void Generator::longRowPart(Code &k, const Map &x, const ir::Loop &loop, const std::function<void()> &store) {
  const std::string G = std::to_string(kLongRowGroup);
  const std::string i = devName(x.index[0]), it = clScalar(typeOf(x.index[0]).elem);
  const ScalarKind sk = typeOf(loop.params[0]).elem;
  const std::string st = clScalar(sk), acc = devName(loop.outs[0]);
  Block prefix;
  for (size_t s = 0; s + 1 < x.body.stmts.size(); ++s) prefix.stmts.push_back(x.body.stmts[s]);
  k.line("#if !defined(ARRC_CPU) || defined(ARRC_CPU_LONG_ROWS)");
  k.line("// rows whose count passes lr_min: shared by the work-group's " + G +
         " work-items (SoacMapLongRows.cpp)");
  k.line("__local int lr_n;");
  k.line("__local " + it + " lr_rows[" + G + "];");
  k.line("__local " + st + " lr_part[" + G + "];");
  k.open("if (lr_min > 0)");
  k.line("const int lr_lid = (int)get_local_id(0);");
  k.line("if (lr_lid == 0) lr_n = 0;");
  k.line("barrier(CLK_LOCAL_MEM_FENCE);");
  k.open("if (" + i + " < d0)");
  devBlock(k, prefix);
  k.line("if (" + exp(loop.count, true) + " > lr_min) lr_rows[atomic_inc(&lr_n)] = " + i + ";");
  k.open("else");
  devStmt(k, loop);
  store();
  k.close();
  k.close();
  k.line("barrier(CLK_LOCAL_MEM_FENCE);");
  k.line("const int lr_count = lr_n;");
  k.open("for (int lr_q = 0; lr_q < lr_count; ++lr_q)");
  k.line("const " + it + " " + i + " = lr_rows[lr_q];");
  devBlock(k, prefix);
  strideLoop_ = &loop;
  strideStart_ = "lr_lid";
  strideStep_ = G;
  devStmt(k, loop);
  strideLoop_ = nullptr;
  // the partial sums in a fixed order: 32 columns, then one row
  k.line("lr_part[lr_lid] = " + acc + ";");
  k.line("barrier(CLK_LOCAL_MEM_FENCE);");
  k.open("if (lr_lid < 32)");
  k.line(st + " s = lr_part[lr_lid];");
  k.line("for (int j = lr_lid + 32; j < " + G + "; j += 32) s = s + lr_part[j];");
  k.line("lr_part[lr_lid] = s;");
  k.close();
  k.line("barrier(CLK_LOCAL_MEM_FENCE);");
  k.open("if (lr_lid == 0)");
  k.line(st + " s = lr_part[0];");
  k.line("for (int j = 1; j < 32; ++j) s = s + lr_part[j];");
  k.line(acc + " = " + exp(loop.init.at(0), true) + " + s;");
  store();
  k.close();
  k.line("barrier(CLK_LOCAL_MEM_FENCE);");
  k.close();
  k.line("return;");
  k.close();
  k.line("#endif");
}

} // namespace arrc::cg
