// Shared by the lowering unit tests: compile Arr source to lowered and
// optimized IR, run both through the interpreter, count statement kinds.
#pragma once

#include <doctest/doctest.h>

#include "arrc/Frontend.h"
#include "arrc/IRBuilder.h"
#include "arrc/Interpret.h"
#include "arrc/Lowering.h"
#include "arrc/TypeCheck.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace lowering_test {
using namespace arrc;
using ir::Value;

struct Compiled {
  ir::Module lowered, optimized;
  std::string errors;
  bool ok = false;
};

inline Compiled compile(const std::string &src, const LowerOptions &lo = LowerOptions{}) {
  static int counter = 0;
  std::string path = "/tmp/arrc_lowering_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++) + ".arr";
  {
    std::ofstream f(path);
    f << src;
  }
  Compiled c;
  SourceManager sm;
  std::ostringstream err;
  Diagnostics diag(sm, err);
  Program prog;
  FrontendOptions opts;
  opts.stdlibDir = ARRC_TEST_STDLIB_DIR;
  if (loadProgram(path, opts, sm, diag, prog) && typeCheck(prog, diag) &&
      lowerProgram(prog, sm, diag, c.lowered, lo) && lowerProgram(prog, sm, diag, c.optimized, lo)) {
    optimize(c.optimized);
    c.ok = true;
  }
  c.errors = err.str();
  std::remove(path.c_str());
  return c;
}

inline std::string dump(const ir::Module &m) {
  std::ostringstream o;
  printIR(m, o);
  return o.str();
}

// Counts statements of a kind anywhere in a function; a SOAC versioned by
// VersionChecks.cpp (an If over two copies of it) counts once.
inline int countKind(const ir::Block &b, ir::StmtKind k) {
  int n = 0;
  for (auto &s : b.stmts) {
    if (s->kind == k) n++;
    if (s->kind == ir::StmtKind::If && s->note.rfind("versioned", 0) == 0) {
      n += countKind(static_cast<const ir::If &>(*s).thenB, k);
      continue;
    }
    ir::forEachBlock(*s, [&](const ir::Block &in) { n += countKind(in, k); });
  }
  return n;
}
inline int topSoacs(const ir::Block &b) {
  int n = 0;
  for (auto &s : b.stmts) n += s->kind >= ir::StmtKind::Map;
  return n;
}

// Runs fn in both the lowered and the optimized module; both must agree.
inline std::vector<Value> run2(const Compiled &c, const std::string &fn, const std::vector<Value> &args) {
  auto a = ir::interpret(c.lowered, fn, args);
  auto b = ir::interpret(c.optimized, fn, args);
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) CHECK(ir::formatValue(a[i]) == ir::formatValue(b[i]));
  return a;
}

inline Value ivec(std::vector<int64_t> v) { int64_t n = v.size(); return Value::arrayInt(std::move(v), {n}); }
inline Value dvec(std::vector<double> v) { int64_t n = v.size(); return Value::arrayFloat(std::move(v), {n}); }

} // namespace lowering_test
