// Bounded mutation fuzzing of the whole compiler (ctest `pipeline_fuzz`): N
// mutations (byte flips, token deletions/duplications/swaps, truncations,
// splices) of the example, e2e and stdlib programs, with a fixed seed, each
// compiled in-process through every stage (test/fuzz/pipeline.h: parse, type
// check, lowering, passes, OpenCL C and C++ generation). Fails if an
// exception escapes a stage or one input takes 2 s of processor time or
// more (a blow-up: the slowest input, a splice of several large programs,
// takes about 0.5 s on a quiet 2-core machine; in wall time one went past
// 2 s on a machine running two test suites at once).
// Usage: pipeline_fuzz [N] [SEED]
#include "pipeline.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<std::string> loadCorpus() {
  std::vector<std::string> corpus;
  std::vector<fs::path> files;
  for (const char *dir : {ARRC_EXAMPLES_DIR, ARRC_E2E_PROGRAMS_DIR, ARRC_FUZZ_STDLIB_DIR})
    for (auto &e : fs::directory_iterator(dir))
      if (e.path().extension() == ".arr")
        files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (auto &f : files) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    corpus.push_back(ss.str());
  }
  return corpus;
}

// Crude tokens: identifiers/numbers, or single other characters.
std::vector<std::string> tokens(const std::string &s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    size_t j = i + 1;
    if (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_'))
        ++j;
    out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string join(const std::vector<std::string> &ts) {
  std::string s;
  for (auto &t : ts)
    s += t;
  return s;
}

std::string mutate(const std::vector<std::string> &corpus, std::mt19937 &rng) {
  auto pick = [&](size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  std::string s = corpus[pick(corpus.size())];
  int rounds = 1 + static_cast<int>(pick(4));
  for (int r = 0; r < rounds; ++r) {
    switch (pick(7)) {
    case 0: // byte flips
      for (int k = 0, n = 1 + static_cast<int>(pick(8)); k < n && !s.empty(); ++k)
        s[pick(s.size())] = static_cast<char>(pick(256));
      break;
    case 1: { // token deletion
      auto ts = tokens(s);
      if (!ts.empty())
        ts.erase(ts.begin() + static_cast<long>(pick(ts.size())));
      s = join(ts);
      break;
    }
    case 2: { // token duplication
      auto ts = tokens(s);
      if (!ts.empty()) {
        size_t i = pick(ts.size());
        ts.insert(ts.begin() + static_cast<long>(i), ts[i]);
      }
      s = join(ts);
      break;
    }
    case 3: { // token swap
      auto ts = tokens(s);
      if (ts.size() > 1)
        std::swap(ts[pick(ts.size())], ts[pick(ts.size())]);
      s = join(ts);
      break;
    }
    case 4: // truncation
      s.resize(pick(s.size() + 1));
      break;
    case 5: { // splice with another example
      const std::string &o = corpus[pick(corpus.size())];
      size_t a = pick(s.size() + 1), b = pick(o.size() + 1);
      s = s.substr(0, a) + o.substr(b);
      break;
    }
    case 6: { // insert a token from another place
      auto ts = tokens(s);
      if (!ts.empty())
        ts.insert(ts.begin() + static_cast<long>(pick(ts.size() + 1)), ts[pick(ts.size())]);
      s = join(ts);
      break;
    }
    }
  }
  return s;
}

} // namespace

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 3000;
  unsigned seed = argc > 2 ? static_cast<unsigned>(std::atol(argv[2])) : 20240601u;
  std::vector<std::string> corpus = loadCorpus();
  if (corpus.empty()) {
    std::cerr << "pipeline_fuzz: no programs in " << ARRC_EXAMPLES_DIR << "\n";
    return 1;
  }
  std::mt19937 rng(seed);
  long reached[5] = {0, 0, 0, 0, 0};
  double worst = 0;
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) {
    std::string input = mutate(corpus, rng);
    // processor time, not wall time: a machine busy with other jobs (ctest
    // -j2 on two cores) must not make an input look slow
    const std::clock_t t0 = std::clock();
    arrc::fuzz::PipelineResult r = arrc::fuzz::runPipeline(input, ARRC_FUZZ_STDLIB_DIR);
    ++reached[static_cast<int>(r.reached)];
    if (!r.internalError.empty()) {
      std::cerr << "pipeline_fuzz: internal compiler error in " << arrc::fuzz::stageName(r.reached)
                << " on input " << i << ": " << r.internalError << "\n---- input ----\n" << input << "\n";
      return 1;
    }
    double secs = static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC;
    if (secs > worst)
      worst = secs;
    if (secs >= 2.0) {
      std::cerr << "pipeline_fuzz: input " << i << " took " << secs << " s\n" << input << "\n";
      return 1;
    }
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("pipeline_fuzz: %ld inputs in %.2f s (slowest %.4f s); stopped at parse %ld, type check %ld, "
              "lowering %ld, codegen %ld; compiled %ld\n",
              n, total, worst, reached[0], reached[1], reached[2], reached[3], reached[4]);
  return 0;
}
