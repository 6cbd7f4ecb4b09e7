// The cached harness build. See ProgramBuild.h.
#include "ProgramBuild.h"

#include "Harness.h"
#include "Mpi.h"
#include "arrc/Codegen.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
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

std::string cacheRoot() {
  if (const char *d = std::getenv("ARRC_CACHE_DIR"); d && *d) return (fs::path(d) / "run").string();
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "arrc" / "run").string();
  if (const char *h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "arrc" / "run").string();
  return (fs::temp_directory_path() / "arrc-run").string();
}

std::string fileStamp(const fs::path &path) {
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  auto time = fs::last_write_time(path, ec);
  return path.string() + "=" + std::to_string(size) + ":" + std::to_string(time.time_since_epoch().count());
}

// Size and time of the library and of every runtime header (sorted).
std::string runtimeStamp(const RuntimeLocation &rt) {
  std::string s = fileStamp(rt.library);
  std::vector<std::string> headers;
  std::error_code ec;
  for (auto &e : fs::directory_iterator(fs::path(rt.includeDir) / "arrc", ec))
    headers.push_back(fileStamp(e.path()));
  std::sort(headers.begin(), headers.end());
  for (auto &h : headers) s += '\0' + h;
  return s;
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

std::vector<std::string> BuiltProgram::command(const std::vector<std::string> &args) const {
  if (ranks > 0) return mpirunCommand(ranks, exe, args);
  std::vector<std::string> c{exe};
  c.insert(c.end(), args.begin(), args.end());
  return c;
}

BuiltProgram buildProgram(const ir::Module &m, const std::string &arrFile, const std::string &tool,
                          bool announce, int ranks) {
  BuiltProgram result;
  result.ranks = ranks;
  if (ranks > 0 && !mpiAvailable(result.error)) return result;
  RuntimeLocation rt = findRuntime();
  if (!rt.found) {
    result.error = "cannot find the arrc runtime (include/arrc/runtime.h and libarrc_runtime) next "
                   "to the arrc executable";
    return result;
  }
  std::string header, main;
  try {
    header = emitHeader(m);
    main = harnessSource(m, arrFile, ranks > 0);
  } catch (const std::exception &e) {
    result.error = e.what();
    return result;
  }
  const char *cxxEnv = std::getenv("CXX");
#ifdef ARRC_PROGRAM_CXX // a sanitizer build: the runtime needs its compiler and flags
  std::string cxx = ARRC_PROGRAM_CXX;
  std::string flags = "-std=c++17 -O1 -w " ARRC_PROGRAM_FLAGS;
  (void)cxxEnv;
#else
  std::string cxx = cxxEnv && *cxxEnv ? cxxEnv : "c++";
  std::string flags = "-std=c++17 -O1 -w";
#endif
  std::string libs;
  if (ranks > 0) {
    flags += " " + mpiCompileFlags();
    libs = mpiLinkFlags(rt.library) + " ";
  }
  std::string clusterStamp = ranks > 0 ? fileStamp(mpiClusterLibrary(rt.library)) : "";
  std::string key = header + '\0' + main + '\0' + cxx + '\0' + flags + '\0' + libs + '\0' + rt.includeDir +
                    '\0' + runtimeStamp(rt) + '\0' + clusterStamp;
  std::string hash = hex(fnv(key)) + hex(fnv(key, 0x84222325cbf29ce4ULL));
  fs::path root = cacheRoot();
  fs::path dir = root / hash;
  fs::path exe = dir / "program";
  std::error_code ec;
  result.exe = exe.string();
  if (fs::exists(exe, ec)) {
    result.ok = true;
    return result;
  }
  const char *quiet = std::getenv("ARRC_QUIET");
  if (announce && !(quiet && *quiet && std::string(quiet) != "0"))
    std::cerr << tool << ": compiling the program for " << arrFile << " (cached afterwards)\u2026"
              << std::endl;
  fs::create_directories(root, ec);
  fs::path tmp = root / (hash + ".tmp." + std::to_string(getpid()));
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  if (ec) {
    result.error = "cannot create " + tmp.string() + ": " + ec.message();
    return result;
  }
  std::ofstream(tmp / (m.name + ".hpp"), std::ios::binary) << header;
  std::ofstream(tmp / "main.cpp", std::ios::binary) << main;
  std::string cmd = shellQuote(cxx) + " " + flags + " -I" + shellQuote(tmp.string()) + " -I" +
                    shellQuote(rt.includeDir) + " " + shellQuote((tmp / "main.cpp").string()) + " " + libs +
                    shellQuote(rt.library) + " -lOpenCL -lpthread -o " +
                    shellQuote((tmp / "program").string()) + " > " +
                    shellQuote((tmp / "build.log").string()) + " 2>&1";
  int rc = std::system(cmd.c_str());
  if (rc != 0) {
    std::ifstream log(tmp / "build.log");
    std::ostringstream text;
    text << log.rdbuf();
    result.error = "building the generated program failed (" + tmp.string() + "):\n" + text.str();
    return result;
  }
  fs::rename(tmp, dir, ec);
  if (ec) { // another process won the race, or a leftover: use what is there
    if (!fs::exists(exe)) {
      result.error = "cannot move " + tmp.string() + " to " + dir.string();
      return result;
    }
    fs::remove_all(tmp, ec);
  }
  result.ok = true;
  return result;
}

} // namespace arrc::driver
