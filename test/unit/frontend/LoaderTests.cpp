#include <doctest/doctest.h>

#include "Helpers.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace arrc;
namespace fs = std::filesystem;

namespace {
struct TempDir {
  fs::path dir;
  TempDir() {
    dir = fs::temp_directory_path() / ("arrc_fe_test_" + std::to_string(::getpid()) + "_" +
                                       std::to_string(counter++));
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string write(const std::string &name, const std::string &text) {
    fs::path p = dir / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  static inline int counter = 0;
};

struct Loaded {
  SourceManager sm;
  std::ostringstream errors;
  Program prog;
  bool ok;
  Loaded(const std::string &main, const FrontendOptions &o) {
    Diagnostics diag(sm, errors);
    ok = loadProgram(main, o, sm, diag, prog);
  }
};
} // namespace



TEST_CASE("imports: relative, -I, .arr optional, each file once") {
  TempDir t;
  t.write("lib/inc/util.arr", "def int one() = 1;");
  t.write("lib/b.arr", "import \"inc/util\";\ndef int b() = one();");
  std::string main = t.write("main.arr", "import \"lib/b.arr\";\nimport \"util\";\nexport int f() = b();");
  FrontendOptions o;
  o.includeDirs = {(t.dir / "lib" / "inc").string()};
  o.loadStdlib = false;
  Loaded l(main, o);
  INFO(l.errors.str());
  REQUIRE(l.ok);
  REQUIRE(l.prog.modules.size() == 3);
  CHECK(l.prog.modules[0].name == "main");
  CHECK(l.prog.modules[0].imports[0].module == 1);
  CHECK(l.prog.modules[0].imports[1].module == 2);
  CHECK(l.prog.modules[1].imports[0].module == 2);
  CHECK(l.prog.modules[2].functions[0]->module == 2);
}

TEST_CASE("missing import and cycles are errors") {
  TempDir t;
  std::string main = t.write("main.arr", "import \"nope\";\nexport int f() = 1;");
  FrontendOptions o;
  o.loadStdlib = false;
  Loaded l(main, o);
  CHECK_FALSE(l.ok);
  CHECK(contains(l.errors.str(), "main.arr:1:1: error: cannot find imported file 'nope'"));

  t.write("a.arr", "import \"b\";\ndef int a() = 1;");
  t.write("b.arr", "import \"a\";\ndef int b() = 1;");
  std::string m2 = t.write("m2.arr", "import \"a\";\nexport int f() = 1;");
  Loaded c(m2, o);
  CHECK_FALSE(c.ok);
  CHECK(contains(c.errors.str(), "import cycle:"));
  CHECK(contains(c.errors.str(), "a.arr -> "));
}

TEST_CASE("the stdlib directory is loaded after the program") {
  TempDir t;
  t.write("std/z.arr", "def int z() = 26;");
  t.write("std/a.arr", "def int a() = 1;");
  t.write("std/notes.txt", "not Arr");
  std::string main = t.write("main.arr", "export int f() = a();");
  FrontendOptions o;
  o.stdlibDir = (t.dir / "std").string();
  Loaded l(main, o);
  REQUIRE(l.ok);
  REQUIRE(l.prog.modules.size() == 3);
  CHECK_FALSE(l.prog.modules[0].isStdlib);
  CHECK(l.prog.modules[1].isStdlib);
  CHECK(l.prog.modules[1].name == "a");
  CHECK(l.prog.modules[2].name == "z");
  std::ostringstream ast;
  printAst(l.prog, l.sm, ast);
  CHECK_FALSE(contains(ast.str(), "stdlib"));
  std::ostringstream all;
  printAst(l.prog, l.sm, all, true);
  CHECK(contains(all.str(), "Module a"));

  FrontendOptions none;
  none.stdlibDir = (t.dir / "absent").string();
  Loaded l2(main, none);
  CHECK(l2.ok);
}

TEST_CASE("a missing main file or a directory is an error") {
  TempDir t;
  FrontendOptions o;
  o.loadStdlib = false;
  Loaded l((t.dir / "none.arr").string(), o);
  CHECK_FALSE(l.ok);
  CHECK(contains(l.errors.str(), "no such file"));
  Loaded d(t.dir.string(), o);
  CHECK_FALSE(d.ok);
  CHECK(contains(d.errors.str(), "directory"));
}

TEST_CASE("every example parses") {
  int count = 0;
  for (auto &e : fs::directory_iterator(ARRC_EXAMPLES_DIR)) {
    if (e.path().extension() != ".arr")
      continue;
    ++count;
    FrontendOptions o;
    o.loadStdlib = false;
    Loaded l(e.path().string(), o);
    INFO(e.path().string() << "\n" << l.errors.str());
    CHECK(l.ok);
    CHECK_FALSE(l.prog.modules[0].functions.empty());
  }
  CHECK(count >= 10);
}
