// Loads a program: the main file, its imports (transitively) and the stdlib.
#include "arrc/Frontend.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;

namespace arrc {
namespace {

constexpr std::uintmax_t kMaxFileSize = 64u << 20; // 64 MiB

class Loader {
public:
  Loader(const FrontendOptions &opts, SourceManager &sm, Diagnostics &diag, Program &prog)
      : opts_(opts), sm_(sm), diag_(diag), prog_(prog) {}

  // Loads `path` (already resolved) and, recursively, its imports. Returns
  // the module index or -1. `from` is the import that asked for it (for errors).
  int load(const std::string &path, bool isStdlib, const Span &from) {
    std::string key = canonicalKey(path);
    auto it = index_.find(key);
    if (it != index_.end()) {
      int m = it->second;
      // A module still on the stack: an import cycle.
      auto onStack = std::find(stack_.begin(), stack_.end(), m);
      if (onStack != stack_.end()) {
        std::string chain;
        for (auto s = onStack; s != stack_.end(); ++s)
          chain += prog_.modules[*s].path + " -> ";
        chain += prog_.modules[m].path;
        diag_.error(from, "import cycle: " + chain);
        ok_ = false;
      }
      return m;
    }

    std::string text;
    if (!readFile(path, text, from))
      return -1;
    int file = sm_.add(path, std::move(text));
    int m = static_cast<int>(prog_.modules.size());
    prog_.modules.emplace_back();
    index_[key] = m;
    {
      Module parsed;
      if (!parseSource(sm_, diag_, file, parsed))
        ok_ = false;
      parsed.isStdlib = isStdlib;
      for (auto &f : parsed.functions)
        f->module = m;
      prog_.modules[m] = std::move(parsed);
    }
    stack_.push_back(m);
    // Imports; `prog_.modules` may grow, so index afresh each time.
    for (size_t i = 0; i < prog_.modules[m].imports.size(); ++i) {
      Import imp = prog_.modules[m].imports[i];
      std::string resolved = resolve(imp.path, path);
      int target = -1;
      if (resolved.empty()) {
        diag_.error(imp.span, "cannot find imported file '" + imp.path + "'" + searchedIn(path));
        ok_ = false;
      } else {
        target = load(resolved, isStdlib, imp.span);
      }
      prog_.modules[m].imports[i].module = target;
    }
    stack_.pop_back();
    return m;
  }

  void loadStdlib() {
    if (!opts_.loadStdlib || opts_.stdlibDir.empty())
      return;
    std::error_code ec;
    if (!fs::is_directory(opts_.stdlibDir, ec))
      return; // an absent stdlib is fine (a bare build)
    std::vector<std::string> files;
    for (fs::directory_iterator it(opts_.stdlibDir, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".arr" && it->is_regular_file(ec))
        files.push_back(it->path().string());
    std::sort(files.begin(), files.end());
    for (auto &f : files)
      load(f, true, Span{});
  }

  bool ok() const { return ok_; }

private:
  const FrontendOptions &opts_;
  SourceManager &sm_;
  Diagnostics &diag_;
  Program &prog_;
  std::map<std::string, int> index_;
  std::vector<int> stack_;
  bool ok_ = true;

  static std::string canonicalKey(const std::string &path) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(path, ec);
    if (ec)
      return fs::path(path).lexically_normal().string();
    return p.string();
  }

  static bool isFile(const fs::path &p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
  }

  static std::string withExt(const std::string &p) {
    return fs::path(p).extension() == ".arr" ? p : p + ".arr";
  }

  std::string resolve(const std::string &imported, const std::string &importer) const {
    if (imported.empty())
      return "";
    std::string name = withExt(imported);
    fs::path rel(name);
    if (rel.is_absolute())
      return isFile(rel) ? rel.string() : "";
    fs::path base = fs::path(importer).parent_path();
    fs::path cand = (base / rel).lexically_normal();
    if (isFile(cand))
      return cand.string();
    for (auto &dir : opts_.includeDirs) {
      fs::path c = (fs::path(dir) / rel).lexically_normal();
      if (isFile(c))
        return c.string();
    }
    return "";
  }

  std::string searchedIn(const std::string &importer) const {
    std::string dirs = fs::path(importer).parent_path().string();
    if (dirs.empty())
      dirs = ".";
    dirs = "'" + dirs + "'";
    for (auto &d : opts_.includeDirs)
      dirs += ", '" + d + "'";
    return " (searched " + dirs + ")";
  }

  bool readFile(const std::string &path, std::string &text, const Span &from) {
    std::error_code ec;
    fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
      diag_.error(from, "cannot open file '" + path + "': no such file");
      ok_ = false;
      return false;
    }
    if (fs::is_directory(st)) {
      diag_.error(from, "cannot read '" + path + "': it is a directory");
      ok_ = false;
      return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      diag_.error(from, "cannot open file '" + path + "'");
      ok_ = false;
      return false;
    }
    std::uintmax_t size = fs::is_regular_file(st) ? fs::file_size(path, ec) : 0;
    if (!ec && size > kMaxFileSize) {
      diag_.error(from, "file '" + path + "' is too large (" + std::to_string(size) +
                            " bytes, limit " + std::to_string(kMaxFileSize) + ")");
      ok_ = false;
      return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    if (text.size() > kMaxFileSize) {
      diag_.error(from, "file '" + path + "' is too large");
      ok_ = false;
      return false;
    }
    return true;
  }
};

} // namespace

bool loadProgram(const std::string &mainPath, const FrontendOptions &options,
                 SourceManager &sources, Diagnostics &diag, Program &out) {
  int before = diag.errorCount();
  Loader loader(options, sources, diag, out);
  int main = loader.load(mainPath, false, Span{});
  if (main < 0)
    return false;
  loader.loadStdlib();
  return loader.ok() && diag.errorCount() == before;
}

} // namespace arrc
