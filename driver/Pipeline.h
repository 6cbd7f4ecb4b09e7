// The compilation pipeline behind the `arrc` command line. main.cpp parses the
// options into these structs and calls one function; each returns the exit
// status (0 success, 1 program error; usage errors are main.cpp's, status 2).
#pragma once

#include "arrc/IR.h"

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace arrc::driver {

enum class Emit { Ast, Typed, Lowered, Ir, OpenCL, Header };

struct CompileOptions {
  std::string input;                    // FILE.arr
  std::string output;                   // -o OUT ("" = stdout)
  std::string depfile;                  // --depfile FILE: OUT's sources for make/ninja ("" = none)
  Emit emit = Emit::Header;             // --emit (default: the C++ header)
  std::string target = "opencl";        // --target
  std::vector<std::string> includeDirs; // -I DIR
  bool werror = false;                  // -Werror
  bool loadStdlib = true;               // --no-stdlib turns it off
  std::string nested;                   // --nested=auto|flatten|sequential ("" = $ARRC_NESTED, else auto)
  std::string stdlibDir;                // found by findStdlibDir()
};

struct RunOptions {
  CompileOptions compile;               // input, -I, stdlib
  std::string entry;                    // -e ENTRY ("" = the only export)
  std::vector<std::string> args;        // Arr literals (or stdin when empty)
  int ranks = 0;                        // --ranks N (0: one device, no MPI)
  // --interpret ("lowered") / --interpret-optimized ("ir"): evaluate with the
  // IR interpreter instead, on the IR before or after the passes ("" = compile and run)
  std::string interpret;
};

// A module compiled for running (`arrc run/test/bench`): its IR and where
// each export is declared.
struct Compiled {
  ir::Module module;
  std::vector<std::pair<std::string, int>> exportLines; // (name, line of the declaration)
};
// Parses, type-checks, lowers and optimises options.input; diagnostics go to
// `diagnostics`. False if any error was reported.
// optimise = false stops after lowering (the IR before the passes).
bool compileForRun(const CompileOptions &options, std::ostream &diagnostics, Compiled &out,
                   bool optimise = true);

// `arrc FILE.arr ...`
int compileCommand(const CompileOptions &options);

// `arrc --list-builtins`: every function a program can call without
// defining it, one a line: "intrinsic NAME TYPE" (the compiler's table in
// typecheck/) or "stdlib NAME FILE TYPE" (the `def`s of the stdlib directory).
int listBuiltinsCommand(const std::string &stdlibDir);
// `arrc run FILE.arr ...`
int runCommand(const RunOptions &options);

// The stdlib directory: $ARRC_STDLIB_DIR, else <dir of exe>/../share/arrc/stdlib
// if it exists, else the source tree's stdlib/ (ARRC_SOURCE_STDLIB_DIR).
std::string findStdlibDir(const char *argv0);
// The directory holding the running executable ("" if unknown).
std::string executableDir(const char *argv0);

const char *emitName(Emit e);

} // namespace arrc::driver
