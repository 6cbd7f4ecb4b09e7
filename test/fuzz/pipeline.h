// The whole compiler on one input, for the fuzzers (docs/reliability.md):
// the input is the main file of a program (written to a private directory,
// loaded with the stdlib as `arrc` does), then type checking, lowering, the
// optimisation passes and both code generators run. Every stage must return
// (diagnostics or output) without crashing, hanging or leaking.
//
// An exception escaping a stage is an internal compiler error: the driver
// would print "arrc: internal error" (or "arrc: error: arrc codegen: ...").
// `strict` makes the fuzzers treat it as a crash.
#pragma once

#include "arrc/Codegen.h"
#include "arrc/Frontend.h"
#include "arrc/Lowering.h"
#include "arrc/TypeCheck.h"

#include <cstdio>
#include <cstdlib>
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

// A private directory for the input file (the loader reads files).
inline const std::string &scratchFile() {
  static const std::string path = [] {
    std::string dir = (std::filesystem::temp_directory_path() / ("arrc-fuzz-" + std::to_string(getpid()))).string();
    std::filesystem::create_directories(dir);
    return dir + "/fuzz.arr";
  }();
  return path;
}

inline PipelineResult runPipeline(const std::string &text, const std::string &stdlibDir) {
  PipelineResult r;
  {
    std::ofstream out(scratchFile(), std::ios::binary | std::ios::trunc);
    out << text;
  }
  SourceManager sm;
  std::ostringstream sink;
  Diagnostics diag(sm, sink);
  try {
    Program prog;
    FrontendOptions fo;
    fo.stdlibDir = stdlibDir;
    if (!loadProgram(scratchFile(), fo, sm, diag, prog)) return r;
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
