// arrc_bench_whole: whole Arr programs compiled by arrc against hand-written
// sequential and OpenMP C++ in one process (docs/performance.md, "Whole
// programs"). Usage:
//
//   arrc_bench_whole [--scale tiny|small|full] [--size PROGRAM=N]... [--only P1,P2]
//                    [--reps R] [--budget SECONDS] [--check-only] [--cache-dir DIR]
//                    [--json FILE]
//
// For each program: inputs made on the host (deterministic), the sequential
// and OpenMP C++ versions timed, then a fresh arrc::Context whose program
// cache is an empty directory: the first call (kernel builds: "cold"), the
// steady state with the inputs already on the device (each call ended by
// ctx.finish()), and the steady state including Array::from of the inputs
// and to_vector() of the outputs. Every result is checked against the
// sequential C++ one; the exit status is 1 if any check failed.
#include "harness.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace {

struct Program {
  const char* name;
  void (*run)(whole::Bench&);
  const char* sizes;  // tiny / small / full, for --help
};

const Program kPrograms[] = {
    {"kmeans", whole::bench_kmeans, "M points, d=20, k=10 (double): 2000 / 1e5 / 1e6"},
    {"blackscholes", whole::bench_blackscholes, "options (float): 1e4 / 1e6 / 1e7"},
    {"nbody", whole::bench_nbody, "bodies (float 7-tuples): 256 / 2048 / 32768"},
    {"pythagorean", whole::bench_pythagorean, "n list: 100,200 / 300,600 / 1000,2000"},
    {"smvm", whole::bench_smvm, "CSR rows, ~15 non-zeros per row (double): 1e4 / 1e5 / 1e6"},
    {"dot", whole::bench_dot, "float elements: 1e4 / 1e7 / 1e8"},
    {"saxpy", whole::bench_saxpy, "float elements: 1e4 / 1e7 / 1e8"},
    {"filtercount", whole::bench_filtercount, "int elements: 1e4 / 1e7 / 1e8"},
    {"sort", whole::bench_sort, "int elements: 1e4 / 1e6 / 1e8"},
    {"dgemm", whole::bench_dgemm, "matrix order (double): 32 / 256 / 4096"},
    {"groupby", whole::bench_groupby, "(int key, float) pairs, n / 100 keys: 1e4 / 1e6 / 1e8"},
};

void usage(FILE* f, const char* argv0) {
  std::fprintf(f,
               "usage: %s [--scale tiny|small|full] [--size PROGRAM=N]... [--only P1,P2,...]\n"
               "          [--reps R] [--budget SECONDS] [--check-only] [--cache-dir DIR] [--json FILE]\n"
               "  --scale       input sizes (default small: a PoCL run of a minute or two)\n"
               "  --size        override one program's size (pythagorean takes a list: 1000,2000)\n"
               "  --reps        timed calls per measurement (default 5), after one warm-up\n"
               "  --budget      stop repeating a measurement after this many seconds (default 10);\n"
               "                a warm-up longer than half of it is the only sample\n"
               "  --check-only  one call of each variant, no warm-up: the correctness checks\n"
               "  --cache-dir   use DIR as arrc's program cache instead of a fresh empty one\n"
               "                (the 'cold' column is then not cold)\n"
               "  --json        also write the results as JSON (bench/plot_whole.py draws them)\n"
               "programs and sizes (tiny / small / full):\n",
               argv0);
  for (auto& p : kPrograms) std::fprintf(f, "  %-12s %s\n", p.name, p.sizes);
}

}  // namespace

int main(int argc, char** argv) {
  whole::Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s: %s needs a value\n", argv[0], a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--scale") {
      o.scale = value();
      if (o.scale != "tiny" && o.scale != "small" && o.scale != "full") {
        std::fprintf(stderr, "%s: --scale must be tiny, small or full\n", argv[0]);
        return 2;
      }
    } else if (a == "--size") {
      std::string v = value();
      auto eq = v.find('=');
      if (eq == std::string::npos) {
        std::fprintf(stderr, "%s: --size wants PROGRAM=N, got '%s'\n", argv[0], v.c_str());
        return 2;
      }
      o.sizes[v.substr(0, eq)] = v.substr(eq + 1);
    } else if (a == "--only") {
      std::stringstream ss(value());
      std::string p;
      while (std::getline(ss, p, ','))
        if (!p.empty()) o.only.insert(p);
    } else if (a == "--reps") {
      o.reps = std::max(1, std::atoi(value().c_str()));
    } else if (a == "--budget") {
      o.budget_s = std::atof(value().c_str());
    } else if (a == "--check-only") {
      o.check_only = true;
    } else if (a == "--cache-dir") {
      o.cache_dir = value();
    } else if (a == "--json") {
      o.json_path = value();
    } else if (a == "--help" || a == "-h") {
      usage(stdout, argv[0]);
      return 0;
    } else {
      usage(stderr, argv[0]);
      return 2;
    }
  }
  for (auto& name : o.only) {
    bool known = false;
    for (auto& p : kPrograms) known |= name == p.name;
    if (!known) {
      std::fprintf(stderr, "%s: unknown program '%s' in --only\n", argv[0], name.c_str());
      return 2;
    }
  }
  for (auto& [name, v] : o.sizes) {
    bool known = false;
    for (auto& p : kPrograms) known |= name == p.name;
    if (!known) {
      std::fprintf(stderr, "%s: unknown program '%s' in --size\n", argv[0], name.c_str());
      return 2;
    }
  }
  try {
    whole::Bench b(o);
    std::printf("scale %s, reps %d, budget %g s%s\n", o.scale.c_str(), b.options().reps, o.budget_s,
                o.check_only ? ", check only" : "");
    for (auto& p : kPrograms)
      if (b.selected(p.name)) p.run(b);
    b.print_table();
    if (!o.json_path.empty()) b.write_json(o.json_path);
    if (b.failures()) {
      std::printf("\n%d program(s) FAILED their checks\n", b.failures());
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
