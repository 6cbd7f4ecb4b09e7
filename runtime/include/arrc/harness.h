// arrc runtime: the main() of the programs that `arrc run`, `arrc test` and
// `arrc bench` build around a generated header.
//
// The driver (driver/Harness.cpp) writes a main.cpp that includes the
// module's header and this file and describes each export as an Entry: its
// name, its signature for messages, and a `prepare` function that converts
// the arguments (Arr literals or random data) into C++ values and binds them
// to the export. Everything that does not depend on the export's types is
// here, in one of three modes:
//
//   program run ENTRY [ARG...]   one call; ARGs (or stdin) are Arr literals;
//                                the result is printed in Arr syntax
//   program test CASES           every case of a file (`arrc test`); CASES
//                                has one case a line: id TAB entry TAB args;
//                                each prints "@@ id ok|error|badinput text"
//   program bench SPEC           warm-up and timed runs of one input set
//                                (`arrc bench`); key-value lines out
#pragma once

#include <arrc/diagnostic.h>
#include <arrc/io.h>
#include <arrc/runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <unistd.h>

namespace arrc {
namespace harness {

// ------------------------------------------------------------------ inputs

// Random data for one argument (`arrc bench`): integers uniform in [lo, hi],
// floating point uniform in [lo, hi), bools fair coins. Deterministic in `seed`.
struct Random {
  std::vector<int64_t> shape;  // the array's extents (empty for a scalar)
  bool has_range = false;      // else: [0, 100) for integers, [0, 1) for floats
  double lo = 0, hi = 0;
  uint64_t seed = 0;
};

// One argument: an Arr literal or random data.
struct Input {
  bool random = false;
  io::Node literal;
  Random gen;
};

// A bad argument (wrong type, shape or count): not a failure of the program.
class ArgError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The seed of component k of a tuple (structure of arrays: one array each).
inline Random component(const Random& r, uint64_t k) {
  Random c = r;
  c.seed = r.seed * 0x9E3779B97F4A7C15ULL + k + 1;
  return c;
}

inline uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

template <class T>
T random_value(uint64_t& state, const Random& r) {
  uint64_t bits = splitmix(state);
  if constexpr (std::is_same_v<T, bool>) {
    return (bits >> 63) != 0;
  } else if constexpr (std::is_integral_v<T>) {
    int64_t lo = r.has_range ? static_cast<int64_t>(r.lo) : 0;
    int64_t hi = r.has_range ? static_cast<int64_t>(r.hi) : 99;
    uint64_t span = hi >= lo ? static_cast<uint64_t>(hi - lo) + 1 : 1;
    return static_cast<T>(lo + static_cast<int64_t>(span == 0 ? bits : bits % span));
  } else {
    double lo = r.has_range ? r.lo : 0.0, hi = r.has_range ? r.hi : 1.0;
    double u = static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);  // [0, 1)
    return static_cast<T>(lo + (hi - lo) * u);
  }
}

template <class T>
T random_scalar(const Random& r) {
  uint64_t state = r.seed;
  return random_value<T>(state, r);
}

template <class T, int D>
Array<T, D> random_array(Context& ctx, const Random& r) {
  if (r.shape.size() != static_cast<size_t>(D))
    throw ArgError("random data of rank " + std::to_string(r.shape.size()) + " for an array of rank " +
                   std::to_string(D));
  std::array<int64_t, D> shape{};
  size_t n = 1;
  for (int k = 0; k < D; ++k) {
    if (r.shape[k] < 0) throw ArgError("negative extent " + std::to_string(r.shape[k]));
    shape[k] = r.shape[k];
    n *= static_cast<size_t>(r.shape[k]);
  }
  std::vector<T> data(n);
  uint64_t state = r.seed;
  for (size_t i = 0; i < n; ++i) data[i] = random_value<T>(state, r);  // (vector<bool> too)
  return Array<T, D>::from(ctx, data, shape);
}

// An array of tuples: a std::tuple of arrays (or of such tuples), all of one shape.
template <class T>
struct random_soa_of;
template <class E, int D>
struct random_soa_of<Array<E, D>> {
  static Array<E, D> make(Context& ctx, const Random& r) { return random_array<E, D>(ctx, r); }
};
template <class... A>
struct random_soa_of<std::tuple<A...>> {
  template <size_t... I>
  static std::tuple<A...> make_i(Context& ctx, const Random& r, std::index_sequence<I...>) {
    return std::tuple<A...>(random_soa_of<A>::make(ctx, component(r, I))...);
  }
  static std::tuple<A...> make(Context& ctx, const Random& r) {
    return make_i(ctx, r, std::index_sequence_for<A...>{});
  }
};
template <class Tup>
Tup random_soa(Context& ctx, const Random& r) {
  return random_soa_of<Tup>::make(ctx, r);
}

// Converts argument `index` (named `name`) with `f`; a literal of the wrong
// type or shape becomes an ArgError naming the argument.
template <class F>
auto argument(size_t index, const char* name, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const io::ParseError& e) {
    throw ArgError("argument " + std::to_string(index + 1) + " (" + name + "): " + e.what());
  } catch (const ArgError& e) {
    throw ArgError("argument " + std::to_string(index + 1) + " (" + name + "): " + e.what());
  }
}

// ------------------------------------------------------------------ calls

// An export bound to converted arguments.
struct Call {
  virtual ~Call() = default;
  virtual void run() = 0;                      // calls the export, keeps the result
  virtual void print(std::ostream& os) = 0;    // the last result in Arr syntax
};

template <class F, class P>
struct CallOf : Call {
  F f;
  P p;
  std::optional<std::decay_t<decltype(std::declval<F&>()())>> result;
  CallOf(F f_, P p_) : f(std::move(f_)), p(std::move(p_)) {}
  void run() override {
    result.reset();
    result.emplace(f());
  }
  void print(std::ostream& os) override {
    if (result) p(os, *result);
  }
};

template <class F, class P>
std::unique_ptr<Call> make_call(F f, P p) {
  return std::make_unique<CallOf<F, P>>(std::move(f), std::move(p));
}

struct Entry {
  const char* name;
  const char* signature;  // "dot(double[[*]] a, double[[*]] b)"
  size_t arity;
  std::unique_ptr<Call> (*prepare)(Context& ctx, const std::vector<Input>& args);
};

// ------------------------------------------------------------------ modes
namespace detail {

inline const Entry* find(const Entry* entries, size_t n, const std::string& name) {
  for (size_t i = 0; i < n; ++i)
    if (name == entries[i].name) return &entries[i];
  return nullptr;
}

inline void check_arity(const Entry& e, size_t got) {
  if (got != e.arity)
    throw ArgError(std::string(e.name) + " takes " + std::to_string(e.arity) + " argument" +
                   (e.arity == 1 ? "" : "s") + " (" + e.signature + "), got " + std::to_string(got));
}

// One line for the protocol of `test` and `bench`: backslash, newline and tab escaped.
inline std::string escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '\\') r += "\\\\";
    else if (c == '\n') r += "\\n";
    else if (c == '\t') r += "\\t";
    else r += c;
  }
  return r;
}

inline int run_mode(const Entry& e, int argc, char** argv, const char* arr_file) {
  std::vector<Input> args;
  try {
    std::vector<io::Node> nodes;
    if (argc > 0) {
      for (int i = 0; i < argc; ++i) {
        try {
          nodes.push_back(io::parse(argv[i]));
        } catch (const io::ParseError& err) {
          std::cerr << "arrc run: error: argument " << (i + 1) << ": " << err.what() << "\n";
          return 2;
        }
      }
    } else {
      std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
      try {
        nodes = io::parse_all(text);
      } catch (const io::ParseError& err) {
        std::cerr << "arrc run: error: argument " << (nodes.size() + 1) << ": " << err.what() << "\n";
        return 2;
      }
    }
    for (auto& n : nodes) {
      Input in;
      in.literal = std::move(n);
      args.push_back(std::move(in));
    }
    check_arity(e, args.size());
  } catch (const ArgError& err) {
    std::cerr << "arrc run: error: " << err.what() << "\n";
    return 2;
  }
  try {
    Context ctx;
    std::unique_ptr<Call> call;
    try {
      call = e.prepare(ctx, args);
    } catch (const ArgError& err) {
      std::cerr << "arrc run: error: " << err.what() << "\n";
      return 2;
    }
    call->run();
    call->print(std::cout);
    std::cout << std::endl;  // before ~Context prints a profile (ARRC_PROFILE) on stderr
  } catch (const std::exception& err) {
    std::cout.flush();
    std::cerr << diagnostic(err.what(), arr_file);
    return 1;
  }
  return 0;
}

inline int test_mode(const Entry* entries, size_t n, const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "arrc test: error: cannot read " << path << "\n";
    return 2;
  }
  std::unique_ptr<Context> ctx;
  std::string line;
  while (std::getline(in, line)) {
    size_t t1 = line.find('\t'), t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string::npos) continue;
    std::string id = line.substr(0, t1), name = line.substr(t1 + 1, t2 - t1 - 1);
    std::string result;
    try {
      const Entry* e = find(entries, n, name);
      if (!e) throw ArgError("no export named '" + name + "'");
      std::vector<Input> args;
      try {
        for (auto& node : io::parse_all(line.substr(t2 + 1))) {
          Input a;
          a.literal = std::move(node);
          args.push_back(std::move(a));
        }
      } catch (const io::ParseError& err) {
        throw ArgError(err.what());
      }
      check_arity(*e, args.size());
      if (!ctx) ctx = std::make_unique<Context>();
      auto call = e->prepare(*ctx, args);
      call->run();
      std::ostringstream os;
      call->print(os);
      result = "ok " + os.str();
    } catch (const ArgError& err) {
      result = std::string("badinput ") + err.what();
    } catch (const std::exception& err) {
      result = std::string("error ") + err.what();
    }
    std::cout << "@@ " << id << " " << escape(result) << std::endl;
  }
  return 0;
}

// Bench spec lines: "entry NAME", "warmup N", "runs N", "label TEXT",
// "nocache", "arg literal TEXT", "arg random SEED HAS_RANGE LO HI D0 D1 ...".
inline int bench_mode(const Entry* entries, size_t n, const char* path) {
  using clock = std::chrono::steady_clock;
  auto ms = [](clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  std::ifstream in(path);
  if (!in) {
    std::cerr << "arrc bench: error: cannot read " << path << "\n";
    return 2;
  }
  std::string name, label;
  int warmup = 3, runs = 10;
  bool nocache = false;
  std::vector<Input> args;
  std::string line;
  try {
    while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::string key;
      ls >> key;
      if (key == "entry") ls >> name;
      else if (key == "warmup") ls >> warmup;
      else if (key == "runs") ls >> runs;
      else if (key == "nocache") nocache = true;
      else if (key == "label") std::getline(ls >> std::ws, label);
      else if (key == "arg") {
        std::string kind;
        ls >> kind;
        Input a;
        if (kind == "literal") {
          std::string text;
          std::getline(ls, text);
          a.literal = io::parse(text);
        } else {
          a.random = true;
          int has = 0;
          ls >> a.gen.seed >> has >> a.gen.lo >> a.gen.hi;
          a.gen.has_range = has != 0;
          int64_t d;
          while (ls >> d) a.gen.shape.push_back(d);
        }
        args.push_back(std::move(a));
      }
    }
  } catch (const io::ParseError& err) {
    std::cout << "error " << escape(std::string("bad input: ") + err.what()) << std::endl;
    return 1;
  }
  const Entry* e = find(entries, n, name);
  if (!e) {
    std::cout << "error " << escape("no export named '" + name + "'") << std::endl;
    return 1;
  }
  bool tty = isatty(2);
  try {
    check_arity(*e, args.size());
    ContextOptions opts;
    if (nocache) opts.cache_dir = "-";
    auto t0 = clock::now();
    Context ctx(opts);
    auto t1 = clock::now();
    std::cout << "device " << escape(ctx.describe()) << "\n";
    std::cout << "context_ms " << ms(t1 - t0) << "\n";
    auto call = e->prepare(ctx, args);
    ctx.finish();
    auto t2 = clock::now();
    std::cout << "inputs_ms " << ms(t2 - t1) << std::endl;
    CacheStats before = ctx.cache_stats();
    call->run();  // cold: builds (or loads) the kernels
    ctx.finish();
    auto t3 = clock::now();
    CacheStats after = ctx.cache_stats();
    std::cout << "cold_ms " << ms(t3 - t2) << "\nbuilt " << (after.builds - before.builds)
              << "\nfrom_disk " << (after.disk_hits - before.disk_hits) << std::endl;
    auto start = clock::now(), last_progress = start;
    bool progress_shown = false;
    int total = warmup + runs;
    for (int k = 0; k < total; ++k) {
      auto a = clock::now();
      call->run();
      ctx.finish();
      auto b = clock::now();
      if (k >= warmup) std::cout << "run_ms " << ms(b - a) << "\n";
      // a progress line on long runs: refreshed in place on a terminal, else every 10 s
      double since = ms(b - last_progress), elapsed = ms(b - start);
      if (k + 1 < total && elapsed > 2000 && since > (tty ? 200 : 10000)) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "arrc bench: %s: %s %d/%d, %.3f ms per run", label.c_str(),
                      k < warmup ? "warm-up" : "run", k < warmup ? k + 1 : k + 1 - warmup,
                      k < warmup ? warmup : runs, ms(b - a));
        if (tty) std::fprintf(stderr, "\r%-100s", buf);
        else std::fprintf(stderr, "%s\n", buf);
        std::fflush(stderr);
        last_progress = b;
        progress_shown = true;
      }
    }
    if (progress_shown && tty) std::fprintf(stderr, "\r%-100s\r", "");
    std::ostringstream os;
    call->print(os);
    std::string r = os.str();
    if (r.size() > 200) r = r.substr(0, 200) + "...";
    std::cout << "result " << escape(r) << "\ndone" << std::endl;
  } catch (const std::exception& err) {
    std::cout << "error " << escape(err.what()) << std::endl;
    return 1;
  }
  return 0;
}

}  // namespace detail

// The harness's main: `program run ENTRY [ARG...]`, `program test CASES`,
// `program bench SPEC`.
inline int main(int argc, char** argv, const Entry* entries, size_t n, const char* arr_file) {
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "run" && argc > 2) {
    const Entry* e = detail::find(entries, n, argv[2]);
    if (!e) {
      std::cerr << "arrc run: error: no export named '" << argv[2] << "'\n";
      return 2;
    }
    return detail::run_mode(*e, argc - 3, argv + 3, arr_file);
  }
  if (mode == "test" && argc == 3) return detail::test_mode(entries, n, argv[2]);
  if (mode == "bench" && argc == 3) return detail::bench_mode(entries, n, argv[2]);
  std::cerr << "usage: " << (argc > 0 ? argv[0] : "program")
            << " run ENTRY [ARG...] | test CASES | bench SPEC\n"
               "(built by arrc run/test/bench around "
            << arr_file << ")\n";
  return 2;
}

}  // namespace harness
}  // namespace arrc
