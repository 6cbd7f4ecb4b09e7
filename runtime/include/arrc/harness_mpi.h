// arrc runtime: the main() of the programs `arrc run/test/bench --ranks N`
// build (docs/distributed.md). The same modes as <arrc/harness.h>, run by
// every rank of an MPI job under mpirun: the inputs are made on every rank
// (each keeps its block of rows), the export's distributed overload runs
// over an arrc::Cluster, the result is gathered, and rank 0 alone prints.
// Needs ARRC_MPI (and libarrc_cluster).
#pragma once

#include <arrc/cluster.h>
#include <arrc/harness.h>

#include <sstream>

namespace arrc {
namespace harness {

// ---- values between the single-device and the distributed forms

template <class T>
struct dist_of {
  using type = T;
  static T make(Cluster&, const T& x) { return x; }
};
template <class T, int D>
struct dist_of<Array<T, D>> {
  using type = DistArray<T, D>;
  static type make(Cluster& cl, const Array<T, D>& x) { return DistArray<T, D>::distribute(cl, x); }
};
template <class... A>
struct dist_of<std::tuple<A...>> {
  using type = std::tuple<typename dist_of<A>::type...>;
  static type make(Cluster& cl, const std::tuple<A...>& t) {
    return std::apply([&](const A&... a) { return type(dist_of<A>::make(cl, a)...); }, t);
  }
};
// An argument every rank made whole: its block of rows, as the distributed overload takes it.
template <class T>
typename dist_of<T>::type distributed(Cluster& cl, const T& x) {
  return dist_of<T>::make(cl, x);
}

template <class T>
struct whole_of {
  using type = T;
  static T get(const T& x) { return x; }
};
template <class T, int D>
struct whole_of<DistArray<T, D>> {
  using type = Array<T, D>;
  static type get(const DistArray<T, D>& x) { return x.gather(); }
};
template <class... A>
struct whole_of<std::tuple<A...>> {
  using type = std::tuple<typename whole_of<A>::type...>;
  static type get(const std::tuple<A...>& t) {
    return std::apply([](const A&... a) { return type(whole_of<A>::get(a)...); }, t);
  }
};
// A result gathered whole on every rank (collective), to print.
template <class T>
typename whole_of<T>::type gathered(const T& x) {
  return whole_of<T>::get(x);
}

struct DistEntry {
  const char* name;
  const char* signature;
  size_t arity;
  std::unique_ptr<Call> (*prepare)(Cluster& cl, const std::vector<Input>& args);
};

namespace detail {

inline const DistEntry* find(const DistEntry* entries, size_t n, const std::string& name) {
  for (size_t i = 0; i < n; ++i)
    if (name == entries[i].name) return &entries[i];
  return nullptr;
}
inline void check_arity(const DistEntry& e, size_t got) {
  if (got != e.arity)
    throw ArgError(std::string(e.name) + " takes " + std::to_string(e.arity) + " argument" +
                   (e.arity == 1 ? "" : "s") + " (" + e.signature + "), got " + std::to_string(got));
}

// Standard input reaches rank 0 only (mpirun): it reads, every rank gets the text.
inline std::string shared_stdin(Cluster& cl) {
  std::string text;
  if (cl.rank() == 0) text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  int64_t n = static_cast<int64_t>(text.size());
  cl.broadcast(&n, sizeof n, 0);
  text.resize(static_cast<size_t>(n));
  cl.broadcast(text.data(), text.size(), 0);
  return text;
}

inline int dist_run_mode(Cluster& cl, const DistEntry& e, int argc, char** argv, const char* arr_file) {
  bool root = cl.rank() == 0;
  std::vector<Input> args;
  try {
    std::vector<io::Node> nodes;
    if (argc > 0) {
      for (int i = 0; i < argc; ++i) {
        try {
          nodes.push_back(io::parse(argv[i]));
        } catch (const io::ParseError& err) {
          if (root) std::cerr << "arrc run: error: argument " << (i + 1) << ": " << err.what() << "\n";
          return 2;
        }
      }
    } else {
      std::string text = shared_stdin(cl);
      try {
        nodes = io::parse_all(text);
      } catch (const io::ParseError& err) {
        if (root) std::cerr << "arrc run: error: argument " << (nodes.size() + 1) << ": " << err.what() << "\n";
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
    if (root) std::cerr << "arrc run: error: " << err.what() << "\n";
    return 2;
  }
  try {
    std::unique_ptr<Call> call;
    try {
      call = e.prepare(cl, args);
    } catch (const ArgError& err) {
      if (root) std::cerr << "arrc run: error: " << err.what() << "\n";
      return 2;
    }
    call->run();
    std::ostringstream os;
    call->print(os);  // collective: gathers the result
    if (root) std::cout << os.str() << std::endl;
  } catch (const std::exception& err) {
    std::cout.flush();
    if (root) std::cerr << diagnostic(err.what(), arr_file);
    return 1;
  }
  return 0;
}

inline int dist_test_mode(Cluster& cl, const DistEntry* entries, size_t n, const char* path) {
  bool root = cl.rank() == 0;
  std::ifstream in(path);
  if (!in) {
    if (root) std::cerr << "arrc test: error: cannot read " << path << "\n";
    return 2;
  }
  std::string line;
  while (std::getline(in, line)) {
    size_t t1 = line.find('\t'), t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string::npos) continue;
    std::string id = line.substr(0, t1), name = line.substr(t1 + 1, t2 - t1 - 1);
    std::string result;
    try {
      const DistEntry* e = find(entries, n, name);
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
      auto call = e->prepare(cl, args);
      call->run();
      std::ostringstream os;
      call->print(os);
      result = "ok " + os.str();
    } catch (const ArgError& err) {
      result = std::string("badinput ") + err.what();
    } catch (const std::exception& err) {
      result = std::string("error ") + err.what();
    }
    if (root) std::cout << "@@ " << id << " " << escape(result) << std::endl;
  }
  return 0;
}

// As bench_mode (harness.h), every run between barriers: the time of the
// slowest rank. Rank 0 reports.
inline int dist_bench_mode(Cluster& cl, const DistEntry* entries, size_t n, const char* path) {
  using clock = std::chrono::steady_clock;
  auto ms = [](clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  bool root = cl.rank() == 0;
  std::ostringstream out;
  std::ifstream in(path);
  if (!in) {
    if (root) std::cerr << "arrc bench: error: cannot read " << path << "\n";
    return 2;
  }
  std::string name, label;
  int warmup = 3, runs = 10;
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
    if (root) std::cout << "error " << escape(std::string("bad input: ") + err.what()) << std::endl;
    return 1;
  }
  const DistEntry* e = find(entries, n, name);
  if (!e) {
    if (root) std::cout << "error " << escape("no export named '" + name + "'") << std::endl;
    return 1;
  }
  try {
    check_arity(*e, args.size());
    Context& ctx = cl.context();
    if (root) std::cout << "device " << escape(ctx.describe()) << "\nranks " << cl.size() << "\ncontext_ms 0\n";
    auto t1 = clock::now();
    auto call = e->prepare(cl, args);
    ctx.finish();
    cl.barrier();
    auto t2 = clock::now();
    if (root) std::cout << "inputs_ms " << ms(t2 - t1) << std::endl;
    CacheStats before = ctx.cache_stats();
    call->run();
    ctx.finish();
    cl.barrier();
    auto t3 = clock::now();
    CacheStats after = ctx.cache_stats();
    if (root)
      std::cout << "cold_ms " << ms(t3 - t2) << "\nbuilt " << (after.builds - before.builds) << "\nfrom_disk "
                << (after.disk_hits - before.disk_hits) << std::endl;
    for (int k = 0; k < warmup + runs; ++k) {
      cl.barrier();
      auto a = clock::now();
      call->run();
      ctx.finish();
      cl.barrier();
      auto b = clock::now();
      if (k >= warmup && root) std::cout << "run_ms " << ms(b - a) << "\n";
    }
    std::ostringstream os;
    call->print(os);
    std::string r = os.str();
    if (r.size() > 200) r = r.substr(0, 200) + "...";
    if (root) std::cout << "result " << escape(r) << "\ndone" << std::endl;
  } catch (const std::exception& err) {
    if (root) std::cout << "error " << escape(err.what()) << std::endl;
    return 1;
  }
  return 0;
}

}  // namespace detail

// The main of a distributed harness: `program run ENTRY [ARG...]`,
// `program test CASES`, `program bench SPEC`, under mpirun.
inline int main_distributed(int argc, char** argv, const DistEntry* entries, size_t n, const char* arr_file) {
  int status = 0;
  std::string mode = argc > 1 ? argv[1] : "";
  try {
    Cluster cl;
    if (mode == "run" && argc > 2) {
      const DistEntry* e = detail::find(entries, n, argv[2]);
      if (!e) {
        if (cl.rank() == 0) std::cerr << "arrc run: error: no export named '" << argv[2] << "'\n";
        return 2;
      }
      status = detail::dist_run_mode(cl, *e, argc - 3, argv + 3, arr_file);
    } else if (mode == "test" && argc == 3) {
      status = detail::dist_test_mode(cl, entries, n, argv[2]);
    } else if (mode == "bench" && argc == 3) {
      status = detail::dist_bench_mode(cl, entries, n, argv[2]);
    } else {
      if (cl.rank() == 0)
        std::cerr << "usage: mpirun -n N " << (argc > 0 ? argv[0] : "program")
                  << " run ENTRY [ARG...] | test CASES | bench SPEC\n(built by arrc run/test/bench --ranks "
                     "around "
                  << arr_file << ")\n";
      status = 2;
    }
  } catch (const std::exception& err) {
    std::cerr << "arrc: error: " << err.what() << "\n";
    return 1;
  }
  return status;
}

}  // namespace harness
}  // namespace arrc
