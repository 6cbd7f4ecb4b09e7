// Runtime faults (docs/reliability.md): each scenario is a ctest entry
// (`e2e.faults.<name>`) running `arrc_e2e_faults <name>` on the default device.
//   oom              an allocation larger than the device allows: arrc::Error
//                    naming it, the inputs unchanged, the Context usable
//   corrupt-cache    truncated, flipped, empty and foreign kernel-cache files:
//                    rebuilt and rewritten, never fatal
//   readonly-cache   a cache directory that cannot be written (run as an
//                    unprivileged user when started as root): binaries load,
//                    new programs build without being stored, one notice
//   concurrent-cache four processes compile the same module into one empty
//                    cache at once: all correct, the cache consistent
//   threads          the exports called from 8 threads on one Context and on
//                    8 Contexts (also run under ThreadSanitizer: ARRC_SANITIZE=thread)
//   large            arrays of more than 2^31 elements (skipped, saying so,
//                    where the device cannot hold them)
#include "faults.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <grp.h>
#include <numeric>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

int failures = 0;
void expect(bool ok, const std::string &what) {
  std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
  std::fflush(stdout);
  if (!ok) ++failures;
}

// A fresh directory under the build's temp dir, removed at exit by the caller.
fs::path scratch(const std::string &name) {
  fs::path d = fs::temp_directory_path() / ("arrc-faults-" + name + "-" + std::to_string(getpid()));
  std::error_code ec;
  fs::remove_all(d, ec);
  fs::create_directories(d);
  return d;
}

arrc::Context context(const fs::path &cache) {
  arrc::ContextOptions o;
  o.cache_dir = cache.string();
  return arrc::Context(o);
}

std::vector<double> ramp(int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = 0.5 * i - 3;
  return v;
}

std::vector<int> ints(int n, uint32_t seed) {
  std::vector<int> v(n);
  for (auto &x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = int(seed >> 12) % 1000;
  }
  return v;
}

// Every export of the module once, checked against C++ (true when all agree).
bool callAll(arrc::Context &ctx, int n, uint32_t seed) {
  std::vector<double> xs = ramp(n);
  std::vector<int> is = ints(n, seed);
  auto dx = arrc::Array<double, 1>::from(ctx, xs);
  auto di = arrc::Array<int32_t, 1>::from(ctx, is);
  bool ok = true;
  std::vector<double> sc = faults::scale(ctx, 2.0, dx).to_vector();
  for (int i = 0; i < n; ++i) ok = ok && sc[i] == 2.0 * xs[i];
  ok = ok && faults::total(ctx, dx) == std::accumulate(xs.begin(), xs.end(), 0.0);
  std::vector<int> sorted = is;
  std::sort(sorted.begin(), sorted.end());
  ok = ok && faults::sorted(ctx, di).to_vector() == sorted;
  std::vector<int> bins(8, 0), evens;
  for (int x : is) {
    bins[x % 8]++;
    if (x % 2 == 0) evens.push_back(x);
  }
  ok = ok && faults::bins(ctx, di).to_vector() == bins;
  ok = ok && faults::evens(ctx, di).to_vector() == evens;
  return ok;
}

// --------------------------------------------------------------------- oom
void oom() {
  arrc::Context ctx;
  std::vector<double> xs = ramp(1000);
  auto dx = arrc::Array<double, 1>::from(ctx, xs);
  size_t live = ctx.pool_stats().live_bytes;
  // 2^40 doubles: 8 TiB, more than any device allows in one allocation
  std::string msg;
  try {
    faults::filled(ctx, int64_t(1) << 40, 1.0);
  } catch (const arrc::Error &e) {
    msg = e.what();
  }
  std::printf("  error: %s\n", msg.c_str());
  expect(msg.find("out of device memory") != std::string::npos, "an arrc::Error names the cause");
  expect(msg.find("faults.arr:") != std::string::npos, "and the source position of the statement that ran");
  expect(dx.to_vector() == xs, "the input is unchanged");
  expect(ctx.pool_stats().live_bytes == live, "no device memory is left allocated by the failed call");
  expect(callAll(ctx, 1000, 7), "the context works for the next calls");
  std::vector<double> small = faults::filled(ctx, 5, 2.5).to_vector();
  expect(small == std::vector<double>(5, 2.5), "the same export with a size that fits");
}

// ------------------------------------------------------------ corrupt cache
std::vector<fs::path> binaries(const fs::path &dir) {
  std::vector<fs::path> v;
  for (auto &e : fs::directory_iterator(dir))
    if (e.path().extension() == ".clbin") v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}

void corruptCache() {
  fs::path dir = scratch("corrupt");
  {
    arrc::Context ctx = context(dir);
    expect(callAll(ctx, 3000, 1), "first run (builds, writes the cache)");
  }
  std::vector<fs::path> bins = binaries(dir);
  expect(bins.size() >= 3, "the cache holds " + std::to_string(bins.size()) + " binaries");
  // Four kinds of damage, each on some of the files.
  const char *kinds[] = {"truncated", "flipped", "empty", "foreign"};
  for (size_t i = 0; i < bins.size(); ++i) {
    std::string bytes;
    {
      std::ifstream in(bins[i], std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    switch (i % 4) {
    case 0: bytes.resize(bytes.size() / 2); break;
    case 1: bytes[bytes.size() / 2] ^= 0x5a; break;
    case 2: bytes.clear(); break;
    case 3: bytes = "not an arrc kernel binary at all"; break;
    }
    std::ofstream(bins[i], std::ios::binary | std::ios::trunc) << bytes;
  }
  std::printf("  damaged %zu files (%s, %s, %s, %s)\n", bins.size(), kinds[0], kinds[1], kinds[2], kinds[3]);
  {
    arrc::Context ctx = context(dir);
    bool ok = false;
    std::string err;
    try {
      ok = callAll(ctx, 3000, 2);
    } catch (const std::exception &e) {
      err = e.what();
    }
    arrc::CacheStats s = ctx.cache_stats();
    expect(ok && err.empty(), "the damaged cache is not fatal" + (err.empty() ? "" : ": " + err));
    expect(s.disk_rejected == bins.size() && s.builds == bins.size() && s.disk_hits == 0,
           "every damaged file rejected and rebuilt (rejected " + std::to_string(s.disk_rejected) + ", built " +
               std::to_string(s.builds) + ")");
  }
  {
    arrc::Context ctx = context(dir);
    expect(callAll(ctx, 3000, 3), "third run");
    arrc::CacheStats s = ctx.cache_stats();
    expect(s.builds == 0 && s.disk_hits == bins.size(), "the rebuilt binaries were rewritten (disk hits " +
                                                            std::to_string(s.disk_hits) + ")");
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}

// ----------------------------------------------------------- read-only cache
// Drops root to `nobody` (permission bits do not stop root) with a PoCL
// cache of its own; true if the process now runs unprivileged.
bool unprivileged(const fs::path &home) {
  if (geteuid() != 0) return true;
  fs::create_directories(home);
  fs::permissions(home, fs::perms::all);
  setenv("HOME", home.c_str(), 1);
  setenv("POCL_CACHE_DIR", (home / "pocl").c_str(), 1);
  setenv("XDG_CACHE_HOME", home.c_str(), 1);
  return setgroups(0, nullptr) == 0 && setgid(65534) == 0 && setuid(65534) == 0;
}

// The unprivileged half (a fresh process: OpenCL state does not survive fork).
void readonlyCheck(const fs::path &dir) {
  bool writable = access(dir.c_str(), W_OK) == 0;
  expect(!writable, "the cache directory is not writable by this process (uid " + std::to_string(getuid()) + ")");
  std::string err;
  bool ok = false;
  arrc::CacheStats s{};
  try {
    arrc::Context ctx = context(dir);
    ok = callAll(ctx, 2000, 4); // some programs are cached, the others are new
    s = ctx.cache_stats();
  } catch (const std::exception &e) {
    err = e.what();
  }
  expect(ok && err.empty(), "a read-only cache is not fatal" + (err.empty() ? "" : ": " + err));
  expect(s.disk_hits >= 1, "cached binaries are loaded (" + std::to_string(s.disk_hits) + " disk hits)");
  expect(s.builds >= 1 && s.disk_writes == 0, "new programs are built, not stored (" + std::to_string(s.builds) +
                                                  " built, " + std::to_string(s.disk_writes) + " written)");
}

// Runs `self what args...` in a child process (as `nobody` when we are
// root and drop is set); true when it exits with 0.
bool child(const char *self, const std::vector<std::string> &args, bool drop) {
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    if (drop && !unprivileged(fs::temp_directory_path() / ("arrc-faults-home-" + std::to_string(getppid())))) {
      std::printf("FAIL: cannot drop privileges to test a read-only directory\n");
      _exit(1);
    }
    std::vector<char *> argv = {const_cast<char *>(self)};
    for (auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    execv(self, argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void populate(const fs::path &dir) {
  // the module program and a primitive's program
  arrc::Context ctx = context(dir);
  std::vector<double> xs = ramp(100);
  auto dx = arrc::Array<double, 1>::from(ctx, xs);
  expect(faults::scale(ctx, 2.0, dx).to_vector().size() == 100 && faults::total(ctx, dx) != 1.0,
         "populating the cache");
}

void readonlyCache(const char *self) {
  fs::path dir = scratch("readonly");
  fs::permissions(dir.parent_path(), fs::perms::others_exec, fs::perm_options::add);
  expect(child(self, {"populate", dir.string()}, false), "populating the cache (a first process)");
  size_t before = binaries(dir).size();
  auto r = fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read;
  auto x = fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec;
  for (auto &b : binaries(dir)) fs::permissions(b, r);
  fs::permissions(dir, r | x);
  expect(child(self, {"readonly-check", dir.string()}, true), "a second process with the cache read-only");
  expect(binaries(dir).size() == before, "the cache directory is unchanged");
  fs::permissions(dir, fs::perms::owner_all);
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::remove_all(fs::temp_directory_path() / ("arrc-faults-home-" + std::to_string(getpid())), ec);
}

// ---------------------------------------------------------- concurrent cache
void concurrentCache() {
  fs::path dir = scratch("concurrent");
  const int procs = 4;
  int go[2];
  if (pipe(go) != 0) {
    expect(false, "pipe");
    return;
  }
  std::fflush(stdout);
  std::vector<pid_t> kids;
  for (int k = 0; k < procs; ++k) {
    pid_t pid = fork();
    if (pid == 0) {
      close(go[1]);
      char c;
      if (read(go[0], &c, 1) != 0) _exit(3); // wait for the start (the pipe closes)
      bool ok = false;
      try {
        arrc::Context ctx = context(dir);
        ok = callAll(ctx, 5000, 10 + k);
      } catch (const std::exception &e) {
        std::fprintf(stderr, "process %d: %s\n", k, e.what());
      }
      _exit(ok ? 0 : 1);
    }
    kids.push_back(pid);
  }
  close(go[0]);
  close(go[1]); // all start at once
  int good = 0;
  for (pid_t p : kids) {
    int status = 0;
    waitpid(p, &status, 0);
    good += WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  expect(good == procs, std::to_string(good) + " of " + std::to_string(procs) +
                            " processes compiled the same module into one empty cache, with correct results");
  size_t temps = 0;
  for (auto &e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp") != std::string::npos) ++temps;
  expect(temps == 0, "no temporary files are left in the cache");
  arrc::Context ctx = context(dir);
  expect(callAll(ctx, 5000, 20), "a later process");
  arrc::CacheStats s = ctx.cache_stats();
  expect(s.builds == 0 && s.disk_rejected == 0 && s.disk_hits == binaries(dir).size(),
         "it loads every binary (" + std::to_string(s.disk_hits) + " disk hits, " + std::to_string(s.builds) +
             " builds, " + std::to_string(s.disk_rejected) + " rejected)");
  std::error_code ec;
  fs::remove_all(dir, ec);
}

// ------------------------------------------------------------------ threads
void threads() {
  const int nthreads = 8, rounds = 6;
  {
    arrc::Context ctx;
    callAll(ctx, 100, 0); // build the programs once (the calls below race on the rest)
    std::atomic<int> good{0};
    std::vector<std::thread> ts;
    for (int t = 0; t < nthreads; ++t)
      ts.emplace_back([&, t] {
        bool ok = true;
        for (int r = 0; r < rounds; ++r) ok = callAll(ctx, 1000 + 37 * t + r, uint32_t(t * 100 + r)) && ok;
        // errors stay with the call that raised them
        for (int r = 0; r < 2; ++r) {
          try {
            faults::filled(ctx, int64_t(1) << 40, 1.0);
            ok = false;
          } catch (const arrc::Error &) {
          }
        }
        good += ok;
      });
    for (auto &th : ts) th.join();
    expect(good == nthreads, std::to_string(good) + " of " + std::to_string(nthreads) +
                                 " threads got correct results on one shared Context");
  }
  {
    std::atomic<int> good{0};
    std::vector<std::thread> ts;
    for (int t = 0; t < nthreads; ++t)
      ts.emplace_back([&, t] {
        arrc::Context ctx;
        bool ok = true;
        for (int r = 0; r < rounds; ++r) ok = callAll(ctx, 1000 + 41 * t + r, uint32_t(t * 77 + r)) && ok;
        good += ok;
      });
    for (auto &th : ts) th.join();
    expect(good == nthreads, std::to_string(good) + " of " + std::to_string(nthreads) +
                                 " threads got correct results on a Context each");
  }
}

// -------------------------------------------------------------------- large
void large() {
  arrc::Context ctx;
  const int64_t n = (int64_t(1) << 31) + 1000;
  // two bool arrays of n bytes on the device at once
  if (ctx.max_alloc_bytes() < size_t(n) || ctx.global_mem_bytes() < size_t(3 * n)) {
    std::printf("SKIP: %s allows %zu bytes per allocation and %zu in all: too little for 2^31 elements\n",
                ctx.describe().c_str(), ctx.max_alloc_bytes(), ctx.global_mem_bytes());
    return;
  }
  std::printf("  %lld elements on %s\n", static_cast<long long>(n), ctx.describe().c_str());
  arrc::Array<bool, 1> f = faults::flags(ctx, n);
  expect(f.size() == n, "a bool array of 2^31 + 1000 elements");
  int64_t want = (n + 2) / 3;
  expect(faults::count_true(ctx, f) == want, "counting every element (" + std::to_string(want) + ")");
  bool idx = true;
  for (int64_t i : {int64_t(0), int64_t(1), int64_t(3), (int64_t(1) << 31) - 1, int64_t(1) << 31,
                    (int64_t(1) << 31) + 1, (int64_t(1) << 31) + 2, n - 3, n - 2, n - 1})
    idx = idx && faults::at(ctx, f, i) == (i % 3 == 0);
  expect(idx, "elements at indices around 2^31 and at the end");
  arrc::Array<bool, 1> g = faults::negate(ctx, f);
  bool neg = true;
  for (int64_t i : {int64_t(2), (int64_t(1) << 31) - 2, (int64_t(1) << 31) + 1, n - 1})
    neg = neg && faults::at(ctx, g, i) == (i % 3 != 0);
  expect(neg, "a map over them, read back around 2^31");
  std::string msg;
  try {
    faults::at(ctx, f, n);
  } catch (const arrc::Error &e) {
    msg = e.what();
  }
  expect(msg.find("out of bounds") != std::string::npos && msg.find(std::to_string(n)) != std::string::npos,
         "index n is out of bounds: " + msg);
}

} // namespace

int main(int argc, char **argv) {
  std::string what = argc > 1 ? argv[1] : "";
  std::string arg = argc > 2 ? argv[2] : "";
  const char *self = "/proc/self/exe";
  const std::pair<const char *, std::function<void()>> tests[] = {
      {"oom", oom},
      {"corrupt-cache", corruptCache},
      {"readonly-cache", [&] { readonlyCache(self); }},
      {"populate", [&] { populate(arg); }},          // readonly-cache's helpers
      {"readonly-check", [&] { readonlyCheck(arg); }},
      {"concurrent-cache", concurrentCache}, {"threads", threads}, {"large", large}};
  for (auto &t : tests)
    if (what == t.first) {
      try {
        t.second();
      } catch (const std::exception &e) {
        expect(false, std::string("unexpected exception: ") + e.what());
      }
      std::printf("%s: %d failure(s)\n", t.first, failures);
      return failures ? 1 : 0;
    }
  std::fprintf(stderr, "usage: arrc_e2e_faults oom|corrupt-cache|readonly-cache|concurrent-cache|threads|large\n");
  return 2;
}
