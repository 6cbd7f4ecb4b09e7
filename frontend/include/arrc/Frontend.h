// The frontend's public API: Arr source text -> AST (arrc/AST.h).
//
//   SourceManager sm;  Diagnostics diag(sm, std::cerr);  Program prog;
//   FrontendOptions opts;  opts.stdlibDir = ...;
//   if (!loadProgram("main.arr", opts, sm, diag, prog)) return 1;
//   printAst(prog, sm, std::cout);
//
// No input crashes, hangs or aborts these functions: every problem is a
// positioned diagnostic and a `false` result.
#pragma once

#include "arrc/AST.h"
#include "arrc/Diagnostics.h"
#include "arrc/Source.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace arrc {

struct FrontendOptions {
  std::vector<std::string> includeDirs; // searched (in order) after the importing file's dir
  std::string stdlibDir;                // every *.arr file here is loaded (isStdlib = true)
  bool loadStdlib = true;
};

// Limits that keep every later (recursive) stage safe on hostile input.
constexpr int kMaxBracketNesting = 256;   // ( [ { nesting in one file
constexpr int kMaxPrefixRun = 256;        // consecutive prefix operators - ! ~
constexpr int kMaxExprDepth = 1000;       // depth of one expression tree

// Parses one registered file into `out` (imports are recorded, not loaded).
// Sets out.file, out.path, out.name; FunDecl::module stays -1. Returns false
// (with diagnostics) on any error.
bool parseSource(SourceManager &sources, Diagnostics &diag, int file, Module &out);

// Loads the main file, its imports (transitively: relative to the importing
// file, then each include dir, ".arr" added if missing; each file once; cycles
// are errors) and the stdlib. modules[0] is the main file. Module::name is the
// file stem made a C++ identifier. Returns false if any error was reported.
bool loadProgram(const std::string &mainPath, const FrontendOptions &options,
                 SourceManager &sources, Diagnostics &diag, Program &out);

// `--emit=ast`: one node a line, indented by two spaces per level, each with
// its span `<line:col-line:col>` (end exclusive). Stdlib modules are skipped
// unless includeStdlib.
void printAst(const Program &program, const SourceManager &sources, std::ostream &out,
              bool includeStdlib = false);
// The same for one module (no "Module" header line when bare).
void printModuleAst(const Module &module, const SourceManager &sources, std::ostream &out);

// A file stem made a valid C++ identifier ("my-lib" -> "my_lib", "new" -> "new_").
std::string moduleNameFromPath(const std::string &path);

} // namespace arrc
