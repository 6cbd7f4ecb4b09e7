// The stages of `arrc`, in pipeline order: parse, type-check, lower,
// optimise, generate; each --emit stops after its stage and prints it.
#include "Pipeline.h"

#include "arrc/Diagnostics.h"
#include "arrc/Frontend.h"
#include "arrc/Source.h"
#include "arrc/TypeCheck.h"
#include "arrc/Lowering.h"
#include "arrc/Codegen.h"
#include "InterpretRun.h"
#include "Run.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <unistd.h>

namespace fs = std::filesystem;

namespace arrc::driver {

// --nested, else $ARRC_NESTED, else the cost rule.
static LowerOptions lowerOptions(const CompileOptions &o) {
  LowerOptions lo = LowerOptions::fromEnvironment();
  if (!o.nested.empty()) LowerOptions::parseNested(o.nested, lo.nested);
  return lo;
}

const char *emitName(Emit e) {
  switch (e) {
  case Emit::Ast: return "ast";
  case Emit::Typed: return "typed";
  case Emit::Lowered: return "lowered";
  case Emit::Ir: return "ir";
  case Emit::OpenCL: return "opencl";
  case Emit::Header: return "header";
  }
  return "?";
}

std::string executableDir(const char *argv0) {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec && argv0)
    exe = fs::absolute(argv0, ec);
  if (ec)
    return "";
  return exe.parent_path().string();
}

std::string findStdlibDir(const char *argv0) {
  if (const char *env = std::getenv("ARRC_STDLIB_DIR"))
    return env;
  std::error_code ec;
  std::string exeDir = executableDir(argv0);
  if (!exeDir.empty()) {
    fs::path installed = fs::path(exeDir) / ".." / "share" / "arrc" / "stdlib";
    if (fs::is_directory(installed, ec))
      return installed.lexically_normal().string();
  }
#ifdef ARRC_SOURCE_STDLIB_DIR
  return ARRC_SOURCE_STDLIB_DIR;
#else
  return "";
#endif
}

namespace {

// Writes to -o OUT or stdout.
class Output {
public:
  explicit Output(const std::string &path) {
    if (!path.empty() && path != "-") {
      file_ = std::make_unique<std::ofstream>(path, std::ios::binary);
      if (!*file_)
        failed_ = true;
    }
  }
  bool failed() const { return failed_; }
  std::ostream &stream() { return file_ ? *file_ : std::cout; }

private:
  std::unique_ptr<std::ofstream> file_;
  bool failed_ = false;
};

// Stage 1: source -> AST (every command starts here).
bool runFrontend(const CompileOptions &o, SourceManager &sm, Diagnostics &diag, Program &prog) {
  FrontendOptions fo;
  fo.includeDirs = o.includeDirs;
  fo.stdlibDir = o.stdlibDir;
  fo.loadStdlib = o.loadStdlib;
  return loadProgram(o.input, fo, sm, diag, prog);
}

// A Makefile rule "OUT: every source file read (imports, the stdlib)", which
// build systems read to rerun arrc when an imported file changes (CMake's
// DEPFILE in arrc_add_module). Spaces in paths are escaped as make wants.
bool writeDepfile(const CompileOptions &o, const SourceManager &sm) {
  auto escaped = [](const std::string &path) {
    std::string r;
    for (char ch : path) {
      if (ch == ' ' || ch == '#') r += '\\';
      if (ch == '$') r += '$';
      r += ch;
    }
    return r;
  };
  std::ofstream f(o.depfile, std::ios::binary);
  if (!f) return false;
  f << escaped(o.output.empty() || o.output == "-" ? "-" : o.output) << ":";
  std::error_code ec;
  for (int i = 0; i < sm.count(); ++i) {
    fs::path p = fs::absolute(sm.path(i), ec);
    f << " \\\n  " << escaped((ec ? fs::path(sm.path(i)) : p.lexically_normal()).string());
  }
  f << "\n";
  return bool(f);
}

} // namespace

int compileCommand(const CompileOptions &o) {
  SourceManager sm;
  Diagnostics diag(sm, std::cerr);
  diag.setWarningsAsErrors(o.werror);
  Program prog;
  if (!runFrontend(o, sm, diag, prog))
    return 1;

  if (o.emit == Emit::Ast) {
    Output out(o.output);
    if (out.failed()) {
      std::cerr << "arrc: error: cannot write '" << o.output << "'\n";
      return 1;
    }
    printAst(prog, sm, out.stream());
    return diag.hasErrors() ? 1 : 0;
  }

  // Stage 2: type checking (typecheck/); every later stage needs it.
  TypeCheckOptions tco;
  tco.warningsAsErrors = o.werror;
  if (!typeCheck(prog, diag, tco))
    return 1;
  if (o.emit == Emit::Typed) {
    Output out(o.output);
    if (out.failed()) {
      std::cerr << "arrc: error: cannot write '" << o.output << "'\n";
      return 1;
    }
    printTyped(prog, sm, out.stream());
    return diag.hasErrors() ? 1 : 0;
  }
  // Stage 3: lowering (lowering/): lowerProgram(...), its passes.
  if (o.emit == Emit::Lowered || o.emit == Emit::Ir) {
    ir::Module irm;
    if (!lowerProgram(prog, sm, diag, irm, lowerOptions(o)))
      return 1;
    if (o.emit == Emit::Ir)
      optimize(irm);
    Output out(o.output);
    if (out.failed()) {
      std::cerr << "arrc: error: cannot write '" << o.output << "'\n";
      return 1;
    }
    printIR(irm, out.stream());
    return diag.hasErrors() ? 1 : 0;
  }
  // Stage 4: code generation (codegen/): OpenCL C kernels, the C++ header.
  ir::Module irm;
  if (!lowerProgram(prog, sm, diag, irm, lowerOptions(o)))
    return 1;
  optimize(irm);
  std::string text;
  try {
    text = o.emit == Emit::OpenCL ? emitOpenCL(irm) : emitHeader(irm);
  } catch (const std::exception &e) {
    std::cerr << "arrc: error: " << e.what() << "\n";
    return 1;
  }
  Output out(o.output);
  if (out.failed()) {
    std::cerr << "arrc: error: cannot write '" << o.output << "'\n";
    return 1;
  }
  out.stream() << text;
  if (!o.depfile.empty() && !writeDepfile(o, sm)) {
    std::cerr << "arrc: error: cannot write '" << o.depfile << "'\n";
    return 1;
  }
  return diag.hasErrors() ? 1 : 0;
}

int listBuiltinsCommand(const std::string &stdlibDir) {
  for (auto &name : intrinsicNames())
    std::cout << "intrinsic " << name << " " << intrinsicSignature(name) << "\n";
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto &e : fs::directory_iterator(stdlibDir, ec))
    if (e.path().extension() == ".arr")
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::cerr << "arrc: error: no stdlib found in '" << stdlibDir << "'\n";
    return 1;
  }
  SourceManager sm;
  Diagnostics diag(sm, std::cerr);
  for (auto &f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Module m;
    if (!parseSource(sm, diag, sm.add(f.string(), text), m))
      return 1;
    for (auto &fn : m.functions) {
      if (!fn)
        continue;
      std::string sig;
      if (!fn->typeParams.empty()) {
        sig = "<";
        for (size_t i = 0; i < fn->typeParams.size(); ++i)
          sig += (i ? ", " : "") + fn->typeParams[i];
        sig += "> ";
      }
      sig += "(";
      for (size_t i = 0; i < fn->params.size(); ++i)
        sig += (i ? ", " : "") + toString(fn->params[i].type);
      sig += ") -> " + toString(fn->result);
      std::cout << "stdlib " << fn->name << " " << f.filename().string() << " " << sig << "\n";
    }
  }
  return 0;
}

bool compileForRun(const CompileOptions &o, std::ostream &diagnostics, Compiled &out, bool optimise) {
  SourceManager sm;
  Diagnostics diag(sm, diagnostics);
  diag.setWarningsAsErrors(o.werror);
  Program prog;
  bool parsed = runFrontend(o, sm, diag, prog);
  if (!prog.modules.empty())
    for (auto &f : prog.modules[0].functions)
      if (f && f->exported)
        out.exportLines.push_back({f->name, f->span.begin.line});
  if (!parsed)
    return false;
  TypeCheckOptions tco;
  tco.warningsAsErrors = o.werror;
  if (!typeCheck(prog, diag, tco))
    return false;
  if (!lowerProgram(prog, sm, diag, out.module, lowerOptions(o)))
    return false;
  if (optimise)
    optimize(out.module);
  return !diag.hasErrors();
}

int runCommand(const RunOptions &o) {
  Compiled c;
  if (!compileForRun(o.compile, std::cerr, c, o.interpret != "lowered"))
    return 1;
  RunRequest req{o.compile.input, o.entry, o.args, o.ranks};
  if (!o.interpret.empty())
    return interpretModule(c.module, req);
  return runModule(c.module, req);
}

} // namespace arrc::driver
