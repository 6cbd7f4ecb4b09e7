// The whole compiler on one input, for the fuzzers (docs/reliability.md):
// the input is the main file of a program with the stdlib, then type
// checking, lowering, the optimisation passes and both code generators run.
// Every stage must return (diagnostics or output) without crashing, hanging
// or leaking.
//
// Speed: the stdlib is parsed once (loadProgram on an empty main file) and
// each input gets a deep copy of its AST (the type checker annotates the
// AST it checks); the input itself is parsed from memory as file 0 of a
// fresh SourceManager holding the same files, so every span still points at
// the right text. An input with an `import` stops after parsing (the fuzzers
// do not read other files).
//
// An exception escaping a stage is an internal compiler error: the driver
// would print "arrc: internal error" (or "arrc: error: arrc codegen: ...").
#pragma once

#include "arrc/Codegen.h"
#include "arrc/Frontend.h"
#include "arrc/Lowering.h"
#include "arrc/TypeCheck.h"

#include "../../typecheck/src/Internal.h" // tc::cloneExpr: a deep copy of an expression

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace arrc::fuzz {

enum class Reached { Parse, TypeCheck, Lower, Codegen, Done };

struct PipelineResult {
  Reached reached = Reached::Parse; // the last stage that started
  std::string internalError;        // an exception that escaped a stage
};

// The stdlib as loaded once: its SourceManager files and modules (module 0
// is the empty main file the loader needed).
struct StdlibCache {
  SourceManager sources;
  Program program;
};

inline const StdlibCache &stdlibCache(const std::string &dir) {
  static const StdlibCache *cache = [&] {
    auto *c = new StdlibCache;
    std::string main = (std::filesystem::temp_directory_path() / ("arrc-fuzz-empty-" + std::to_string(getpid()) + ".arr")).string();
    std::ofstream(main) << "";
    std::ostringstream sink;
    Diagnostics diag(c->sources, sink);
    FrontendOptions fo;
    fo.stdlibDir = dir;
    if (!loadProgram(main, fo, c->sources, diag, c->program)) {
      std::fprintf(stderr, "fuzz: the stdlib in %s does not load:\n%s\n", dir.c_str(), sink.str().c_str());
      std::abort();
    }
    std::remove(main.c_str());
    return c;
  }();
  return *cache;
}

// A deep copy of a module: functions (and their bodies) are fresh objects.
inline Module cloneModule(const Module &m) {
  Module r = m;
  for (auto &f : r.functions) {
    auto copy = std::make_shared<FunDecl>(*f);
    copy->body = tc::cloneExpr(f->body);
    f = copy;
  }
  return r;
}

inline PipelineResult runPipeline(const std::string &text, const std::string &stdlibDir) {
  PipelineResult r;
  const StdlibCache &lib = stdlibCache(stdlibDir);
  SourceManager sm;
  sm.add("fuzz.arr", text);
  for (int f = 1; f < lib.sources.count(); ++f) sm.add(lib.sources.path(f), lib.sources.text(f));
  std::ostringstream sink;
  Diagnostics diag(sm, sink);
  try {
    Program prog;
    prog.modules.emplace_back();
    if (!parseSource(sm, diag, 0, prog.modules[0]) || !prog.modules[0].imports.empty()) return r;
    for (auto &f : prog.modules[0].functions) f->module = 0;
    for (size_t m = 1; m < lib.program.modules.size(); ++m) prog.modules.push_back(cloneModule(lib.program.modules[m]));
    r.reached = Reached::TypeCheck;
    if (!typeCheck(prog, diag)) return r;
    r.reached = Reached::Lower;
    ir::Module m;
    if (!lowerProgram(prog, sm, diag, m)) return r;
    optimize(m);
    r.reached = Reached::Codegen;
    std::string cl = emitOpenCL(m);
    std::string header = emitHeader(m);
    if (cl.empty() || header.empty()) r.internalError = "codegen produced no text";
    r.reached = Reached::Done;
  } catch (const std::exception &e) {
    r.internalError = e.what();
  } catch (...) {
    r.internalError = "unknown exception";
  }
  return r;
}

inline const char *stageName(Reached s) {
  switch (s) {
  case Reached::Parse: return "parse";
  case Reached::TypeCheck: return "typecheck";
  case Reached::Lower: return "lowering";
  case Reached::Codegen: return "codegen";
  case Reached::Done: return "done";
  }
  return "?";
}

} // namespace arrc::fuzz
