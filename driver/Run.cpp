// `arrc run`: harness generation, cached build, execution. See Run.h.
#include "Run.h"

#include "arrc/Codegen.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace arrc::driver {
namespace {

std::string exeDir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

uint64_t fnv(const std::string &s, uint64_t h = 1469598103934665603ULL) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::string hex(uint64_t v) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}

std::string shellQuote(const std::string &s) {
  std::string r = "'";
  for (char c : s) {
    if (c == '\'') r += "'\\''";
    else r += c;
  }
  return r + "'";
}

std::string cstr(const std::string &s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    if (c == '\n') {
      r += "\\n";
      continue;
    }
    r += c;
  }
  return r + "\"";
}

bool isArrayOfTuples(const TypeP &t) {
  return t->kind == Type::Array && t->elem && t->elem->kind == Type::Tuple;
}

// C++ expression converting the io::Node `node` to a value of type t.
std::string convert(const TypeP &t, const std::string &node) {
  if (t->kind == Type::Tuple) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < t->elems.size(); ++i)
      parts.push_back(convert(t->elems[i], "arrc::io::tuple_elem(" + node + ", " +
                                               std::to_string(t->elems.size()) + ", " +
                                               std::to_string(i) + ")"));
    std::string r = cppTypeOf(t) + "(";
    for (size_t i = 0; i < parts.size(); ++i) r += (i ? ", " : "") + parts[i];
    return r + ")";
  }
  if (isArrayOfTuples(t)) return "arrc::io::to_soa<" + cppTypeOf(t) + ">(ctx, " + node + ")";
  if (t->kind == Type::Array) {
    std::string elem = cppTypeOf(t->elem);
    return "arrc::io::to_array<" + elem + ", " + std::to_string(t->rank) + ">(ctx, " + node + ")";
  }
  return "arrc::io::to_scalar<" + cppTypeOf(t) + ">(" + node + ")";
}

// C++ statements printing `expr` of type t to std::cout.
std::string printer(const TypeP &t, const std::string &expr) {
  if (t->kind == Type::Tuple) {
    std::string r = "std::cout << '(';\n";
    for (size_t i = 0; i < t->elems.size(); ++i) {
      if (i) r += "    std::cout << \", \";\n";
      r += "    " + printer(t->elems[i], "std::get<" + std::to_string(i) + ">(" + expr + ")");
    }
    return r + "    std::cout << ')';\n";
  }
  if (isArrayOfTuples(t)) return "arrc::io::print_soa(std::cout, " + expr + ");\n";
  return "arrc::io::print(std::cout, " + expr + ");\n";
}

std::string harness(const ir::Module &m, const ir::Function &f, const std::string &input) {
  std::ostringstream o;
  o << "// arrc run harness for " << input << " -e " << f.name << " (generated)\n";
  o << "#include \"" << m.name << ".hpp\"\n#include <arrc/io.h>\n\n";
  o << "#include <cctype>\n#include <iostream>\n#include <iterator>\n#include <string>\n#include <vector>\n\n";
  o << "static const char *const arr_file = " << cstr(input) << ";\n\n";
  o << R"CPP(// "file:line:col: message" -> "file:line:col: error: message"
static std::string located(const std::string &msg) {
  size_t p = 0;
  int colons = 0;
  while (p < msg.size() && colons < 3) {
    size_t c = msg.find(':', p);
    if (c == std::string::npos) break;
    if (colons > 0) {
      if (c == p) break;
      for (size_t k = p; k < c; ++k)
        if (!std::isdigit(static_cast<unsigned char>(msg[k]))) return std::string(arr_file) + ": error: " + msg;
    }
    p = c + 1;
    ++colons;
  }
  if (colons == 3 && p < msg.size() && msg[p] == ' ')
    return msg.substr(0, p) + " error:" + msg.substr(p);
  return std::string(arr_file) + ": error: " + msg;
}

int main(int argc, char **argv) {
  std::vector<arrc::io::Node> args;
  try {
    if (argc > 1) {
      for (int i = 1; i < argc; ++i) args.push_back(arrc::io::parse(argv[i]));
    } else {
      std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
      args = arrc::io::parse_all(text);
    }
  } catch (const arrc::Error &e) {
    std::cerr << "arrc run: error: argument " << (args.size() + 1) << ": " << e.what() << "\n";
    return 2;
  }
)CPP";
  size_t n = f.paramTypes.size();
  o << "  if (args.size() != " << n << ") {\n";
  o << "    std::cerr << \"arrc run: error: " << f.name << " takes " << n << " argument"
    << (n == 1 ? "" : "s") << " (";
  for (size_t i = 0; i < n; ++i)
    o << (i ? ", " : "") << toString(f.paramTypes[i]) << " "
      << (i < f.paramNames.size() ? f.paramNames[i] : "");
  o << "), got \" << args.size() << \"\\n\";\n    return 2;\n  }\n";
  o << "  try {\n    arrc::Context ctx;\n";
  for (size_t i = 0; i < n; ++i) {
    o << "    " << cppTypeOf(f.paramTypes[i]) << " a" << i << ";\n";
    o << "    try {\n      a" << i << " = " << convert(f.paramTypes[i], "args[" + std::to_string(i) + "]")
      << ";\n    } catch (const arrc::io::ParseError &e) {\n"
      << "      std::cerr << \"arrc run: error: argument " << (i + 1) << " ("
      << (i < f.paramNames.size() ? f.paramNames[i] : "") << "): \" << e.what() << \"\\n\";\n"
      << "      return 2;\n    }\n";
  }
  o << "    auto result = " << cppIdentifier(m.name) << "::" << cppIdentifier(f.name) << "(ctx";
  for (size_t i = 0; i < n; ++i) o << ", a" << i;
  o << ");\n    " << printer(f.resultType, "result");
  o << "    std::cout << '\\n';\n";
  o << "  } catch (const arrc::Error &e) {\n"
       "    std::cout.flush();\n"
       "    std::cerr << located(e.what()) << \"\\n\";\n"
       "    return 1;\n"
       "  } catch (const std::exception &e) {\n"
       "    std::cerr << arr_file << \": error: \" << e.what() << \"\\n\";\n"
       "    return 1;\n  }\n  return 0;\n}\n";
  return o.str();
}

std::string cacheRoot() {
  if (const char *d = std::getenv("ARRC_CACHE_DIR"); d && *d) return (fs::path(d) / "run").string();
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "arrc" / "run").string();
  if (const char *h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "arrc" / "run").string();
  return (fs::temp_directory_path() / "arrc-run").string();
}

std::string fileStamp(const std::string &path) {
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  auto time = fs::last_write_time(path, ec);
  return std::to_string(size) + ":" + std::to_string(time.time_since_epoch().count());
}

int execute(const std::string &exe, const std::vector<std::string> &args) {
  std::cout.flush();
  std::vector<char *> argv;
  argv.push_back(const_cast<char *>(exe.c_str()));
  for (auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("arrc run: fork");
    return 1;
  }
  if (pid == 0) {
    execv(exe.c_str(), argv.data());
    std::perror("arrc run: exec");
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  std::cerr << "arrc run: error: the program was killed by signal " << WTERMSIG(status) << "\n";
  return 1;
}

} // namespace

RuntimeLocation findRuntime() {
  RuntimeLocation r;
  std::error_code ec;
  std::string dir = exeDir();
  if (const char *env = std::getenv("ARRC_RUNTIME_PREFIX"); env && *env) dir = (fs::path(env) / "bin").string();
  if (!dir.empty()) {
    fs::path prefix = fs::path(dir).parent_path();
    fs::path inc = prefix / ARRC_INSTALL_INCLUDEDIR;
    if (fs::exists(inc / "arrc" / "runtime.h", ec)) {
      for (const char *libdir : {ARRC_INSTALL_LIBDIR, "lib", "lib64"}) {
        for (const char *lib : {"libarrc_runtime.a", "libarrc_runtime.so"}) {
          fs::path p = prefix / libdir / lib;
          if (fs::exists(p, ec)) {
            r.includeDir = inc.string();
            r.library = p.string();
            r.found = true;
            return r;
          }
        }
      }
    }
  }
#if defined(ARRC_BUILD_RUNTIME_INCLUDE) && defined(ARRC_BUILD_RUNTIME_LIB)
  if (fs::exists(ARRC_BUILD_RUNTIME_LIB, ec)) {
    r.includeDir = ARRC_BUILD_RUNTIME_INCLUDE;
    r.library = ARRC_BUILD_RUNTIME_LIB;
    r.found = true;
  }
#endif
  return r;
}

int runModule(const ir::Module &m, const RunRequest &req) {
  const ir::Function *f = nullptr;
  if (req.entry.empty()) {
    if (m.functions.size() != 1) {
      std::cerr << "arrc run: error: " << req.input << " has " << m.functions.size()
                << " exports; choose one with -e:";
      for (auto &g : m.functions) std::cerr << " " << g.name;
      std::cerr << "\n";
      return 2;
    }
    f = &m.functions[0];
  } else {
    for (auto &g : m.functions)
      if (g.name == req.entry) f = &g;
    if (!f) {
      std::cerr << "arrc run: error: no export named '" << req.entry << "' in " << req.input
                << " (exports:";
      for (auto &g : m.functions) std::cerr << " " << g.name;
      std::cerr << ")\n";
      return 2;
    }
  }

  RuntimeLocation rt = findRuntime();
  if (!rt.found) {
    std::cerr << "arrc run: error: cannot find the arrc runtime (include/arrc/runtime.h and "
                 "libarrc_runtime) next to the arrc executable\n";
    return 1;
  }

  std::string header, main;
  try {
    header = emitHeader(m);
    main = harness(m, *f, req.input);
  } catch (const std::exception &e) {
    std::cerr << "arrc run: error: " << e.what() << "\n";
    return 1;
  }
  const char *cxxEnv = std::getenv("CXX");
  std::string cxx = cxxEnv && *cxxEnv ? cxxEnv : "c++";
  std::string flags = "-std=c++17 -O1 -w";
  std::string key = header + '\0' + main + '\0' + cxx + '\0' + flags + '\0' + rt.includeDir + '\0' +
                    rt.library + '\0' + fileStamp(rt.library) + '\0' +
                    fileStamp(rt.includeDir + "/arrc/array.h") + '\0' +
                    fileStamp(rt.includeDir + "/arrc/context.h") + '\0' +
                    fileStamp(rt.includeDir + "/arrc/io.h");
  std::string hash = hex(fnv(key)) + hex(fnv(key, 0x84222325cbf29ce4ULL));
  fs::path root = cacheRoot();
  fs::path dir = root / hash;
  fs::path exe = dir / "program";
  std::error_code ec;
  if (!fs::exists(exe, ec)) {
    fs::create_directories(root, ec);
    fs::path tmp = root / (hash + ".tmp." + std::to_string(getpid()));
    fs::remove_all(tmp, ec);
    fs::create_directories(tmp, ec);
    if (ec) {
      std::cerr << "arrc run: error: cannot create " << tmp.string() << ": " << ec.message() << "\n";
      return 1;
    }
    std::ofstream(tmp / (m.name + ".hpp"), std::ios::binary) << header;
    std::ofstream(tmp / "main.cpp", std::ios::binary) << main;
    std::string cmd = shellQuote(cxx) + " " + flags + " -I" + shellQuote(tmp.string()) + " -I" +
                      shellQuote(rt.includeDir) + " " + shellQuote((tmp / "main.cpp").string()) + " " +
                      shellQuote(rt.library) + " -lOpenCL -lpthread -o " +
                      shellQuote((tmp / "program").string()) + " > " +
                      shellQuote((tmp / "build.log").string()) + " 2>&1";
    int rc = std::system(cmd.c_str());
    if (rc != 0) {
      std::ifstream log(tmp / "build.log");
      std::cerr << "arrc run: error: building the generated program failed (" << tmp.string()
                << "):\n"
                << log.rdbuf() << "\n";
      return 1;
    }
    fs::rename(tmp, dir, ec);
    if (ec) { // another process won the race, or a leftover: use what is there
      if (!fs::exists(exe)) {
        std::cerr << "arrc run: error: cannot move " << tmp.string() << " to " << dir.string() << "\n";
        return 1;
      }
      fs::remove_all(tmp, ec);
    }
  }
  return execute(exe.string(), req.args);
}

} // namespace arrc::driver
