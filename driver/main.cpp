// arrc — the Arr compiler driver.
//   arrc FILE.arr [-o OUT] [--depfile FILE] [--emit=ast|typed|lowered|ir|opencl|header]
//        [--target=opencl] [-I DIR]... [-Werror] [--no-stdlib] [--nested=auto|flatten|sequential]
//   arrc --list-builtins
//   arrc run FILE.arr [-e ENTRY] [--ranks N] [--interpret|--interpret-optimized] [ARG...]
//   arrc test FILE|DIR... [--exclude TAG]... [-e ENTRY] [-j N] [--timeout S] [--ranks N]
//   arrc bench FILE.arr [-e ENTRY] [--size NAME=EXPR]... [--runs N] [--warmup N]
//        [--json] [--no-cache] [--timeout S] [--ranks N]
// Exit status: 0 success, 1 program error (or a failed test), 2 usage error.
#include "BenchCommand.h"
#include "Pipeline.h"
#include "TestCommand.h"

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <map>

using namespace arrc::driver;

namespace {

void addCommonOptions(CLI::App &app, CompileOptions &o, std::vector<std::string> &warnings) {
  app.add_option("-I", o.includeDirs, "Add DIR to the import search path")
      ->type_name("DIR")
      ->allow_extra_args(false);
  app.add_option("-W", warnings, "-Werror: treat warnings as errors")
      ->type_name("error")
      ->allow_extra_args(false)
      ->check(CLI::IsMember({"error"}));
  app.add_flag("--no-stdlib", [&o](int64_t) { o.loadStdlib = false; },
               "Do not load the standard library");
  app.add_option("--nested", o.nested,
                 "Irregular arrays inside parallel bodies: flattened or sequentialised by the cost rule (auto, "
                 "the default; also $ARRC_NESTED), or always one way")
      ->type_name("auto|flatten|sequential")
      ->check(CLI::IsMember({"auto", "flatten", "sequential"}));
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"arrc: the Arr compiler (Arr -> C++ host code + OpenCL kernels)", "arrc"};
  app.set_version_flag("--version", std::string("arrc ") + ARRC_VERSION);
  app.require_subcommand(0, 1);

  CompileOptions compile;
  std::vector<std::string> warnings;
  std::string emit = "header";
  app.add_option("file", compile.input, "The .arr file to compile")->type_name("FILE.arr");
  app.add_option("-o", compile.output, "Write the output to OUT")->type_name("OUT");
  app.add_option("--depfile", compile.depfile,
                 "Also write a Makefile rule naming every source file OUT was made from (for build systems)")
      ->type_name("FILE");
  std::map<std::string, Emit> emits{{"ast", Emit::Ast},         {"typed", Emit::Typed},
                                    {"lowered", Emit::Lowered}, {"ir", Emit::Ir},
                                    {"opencl", Emit::OpenCL},   {"header", Emit::Header}};
  app.add_option("--emit", emit, "What to output (default: header)")
      ->type_name("ast|typed|lowered|ir|opencl|header")
      ->check(CLI::IsMember({"ast", "typed", "lowered", "ir", "opencl", "header"}));
  app.add_option("--target", compile.target, "Code generation target")
      ->type_name("opencl")
      ->check(CLI::IsMember({"opencl"}));
  addCommonOptions(app, compile, warnings);
  bool listBuiltins = false;
  app.add_flag("--list-builtins", listBuiltins,
               "List the intrinsics and the stdlib's functions (callable without a definition)");

  RunOptions run;
  std::vector<std::string> runWarnings;
  CLI::App *runCmd = app.add_subcommand("run", "Compile FILE.arr and run one export");
  runCmd->add_option("file", run.compile.input, "The .arr file")->required()->type_name("FILE.arr");
  runCmd->add_option("-e,--entry", run.entry, "The export to call (default: the only one)")
      ->type_name("ENTRY");
  runCmd->add_option("--ranks", run.ranks,
                     "Run the export's distributed overload on N MPI ranks (mpirun; docs/distributed.md)")
      ->type_name("N")
      ->check(CLI::Range(1, 1 << 20));
  runCmd->add_option("args", run.args, "Arguments in Arr literal syntax (else read from stdin)")
      ->type_name("ARG");
  runCmd->add_flag("--interpret", [&run](int64_t) { run.interpret = "lowered"; },
                   "Evaluate with the IR interpreter (the reference semantics) instead of compiling, "
                   "on the IR as lowered (before the optimisation passes)");
  runCmd->add_flag("--interpret-optimized", [&run](int64_t) { run.interpret = "ir"; },
                   "Same, on the IR after the optimisation passes (--emit=ir)");
  addCommonOptions(*runCmd, run.compile, runWarnings);

  TestOptions test;
  std::vector<std::string> testWarnings;
  CLI::App *testCmd = app.add_subcommand(
      "test", "Run the test blocks (// == test) of .arr files; directories are searched recursively");
  testCmd->add_option("paths", test.paths, "Files and directories")->required()->type_name("FILE|DIR");
  testCmd->add_option("--exclude", test.exclude, "Skip the blocks tagged TAG (repeatable)")
      ->type_name("TAG")
      ->allow_extra_args(false);
  testCmd->add_option("-e,--entry", test.entry, "Only the cases of this export")->type_name("ENTRY");
  testCmd->add_option("-j,--jobs", test.jobs, "Files tested at once (default: the number of CPUs)")
      ->type_name("N");
  testCmd->add_option("--timeout", test.timeout, "Seconds allowed per file (default 600)")->type_name("S");
  testCmd->add_option("--ranks", test.ranks, "Run the distributed overloads on N MPI ranks (mpirun)")
      ->type_name("N")
      ->check(CLI::Range(1, 1 << 20));
  addCommonOptions(*testCmd, test.compile, testWarnings);

  BenchOptions bench;
  std::vector<std::string> benchWarnings;
  CLI::App *benchCmd = app.add_subcommand("bench", "Time one export on the default device");
  benchCmd->add_option("file", bench.compile.input, "The .arr file")->required()->type_name("FILE.arr");
  benchCmd->add_option("-e,--entry", bench.entry, "The export to time (default: the only one)")
      ->type_name("ENTRY");
  benchCmd->add_option("--size", bench.sizes,
                       "A size for gen: lines, or for inputs made from the signature (repeatable)")
      ->type_name("NAME=EXPR")
      ->allow_extra_args(false);
  benchCmd->add_option("--runs", bench.runs, "Timed runs per input (default 10)")->type_name("N");
  benchCmd->add_option("--warmup", bench.warmup, "Untimed runs before them (default 3)")->type_name("N");
  benchCmd->add_flag("--json", bench.json, "Write the results as one JSON object");
  benchCmd->add_flag("--no-cache", bench.noCache,
                     "Do not use the kernel disk cache (the cold call builds from source)");
  benchCmd->add_option("--timeout", bench.timeout, "Seconds allowed per input (default: none)")
      ->type_name("S");
  benchCmd->add_option("--ranks", bench.ranks, "Time the distributed overload on N MPI ranks (mpirun)")
      ->type_name("N")
      ->check(CLI::Range(1, 1 << 20));
  addCommonOptions(*benchCmd, bench.compile, benchWarnings);

  // CLI11 splits a value written as "[a,b]" into a list; an Arr array literal
  // must stay one argument, so give such values a trailing space (the Arr
  // literal parser of `arrc run` skips it).
  std::vector<std::string> argStore(argv, argv + argc);
  for (auto &a : argStore)
    if (a.size() >= 2 && a.front() == '[' && a.back() == ']')
      a += ' ';
  std::vector<char *> argvFixed;
  for (auto &a : argStore)
    argvFixed.push_back(a.data());
  try {
    app.parse(argc, argvFixed.data());
  } catch (const CLI::ParseError &e) {
    int status = app.exit(e);
    return status == 0 ? 0 : 2;
  }

  try {
    if (runCmd->parsed()) {
      run.compile.werror = !runWarnings.empty();
      run.compile.stdlibDir = findStdlibDir(argv[0]);
      return runCommand(run);
    }
    if (testCmd->parsed()) {
      test.compile.werror = !testWarnings.empty();
      test.compile.stdlibDir = findStdlibDir(argv[0]);
      return testCommand(test);
    }
    if (benchCmd->parsed()) {
      bench.compile.werror = !benchWarnings.empty();
      bench.compile.stdlibDir = findStdlibDir(argv[0]);
      return benchCommand(bench);
    }
    if (listBuiltins)
      return listBuiltinsCommand(findStdlibDir(argv[0]));
    if (compile.input.empty()) {
      std::cerr << "arrc: error: no input file\n" << "Run with --help for more information.\n";
      return 2;
    }
    compile.emit = emits.at(emit);
    compile.werror = !warnings.empty();
    compile.stdlibDir = findStdlibDir(argv[0]);
    return compileCommand(compile);
  } catch (const std::exception &e) {
    std::cerr << "arrc: internal error: " << e.what() << "\n";
    return 1;
  }
}
