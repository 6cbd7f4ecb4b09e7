// Bounded mutation fuzzing of the frontend: N mutations (byte flips, token
// deletions/duplications/swaps, truncations, splices) of the example
// programs, with a fixed seed, each parsed in-process. Fails if an exception
// escapes or one parse takes 1 s or more. Usage: frontend_fuzz [N] [SEED]
#include "arrc/Frontend.h"

#include <algorithm>
#include <chrono>
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
  for (auto &e : fs::directory_iterator(ARRC_EXAMPLES_DIR))
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
  long n = argc > 1 ? std::atol(argv[1]) : 10000;
  unsigned seed = argc > 2 ? static_cast<unsigned>(std::atol(argv[2])) : 20240601u;
  std::vector<std::string> corpus = loadCorpus();
  if (corpus.empty()) {
    std::cerr << "frontend_fuzz: no examples in " << ARRC_EXAMPLES_DIR << "\n";
    return 1;
  }
  std::mt19937 rng(seed);
  long accepted = 0;
  double worst = 0;
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) {
    std::string input = mutate(corpus, rng);
    arrc::SourceManager sm;
    std::ostringstream sink;
    arrc::Diagnostics diag(sm, sink);
    int file = sm.add("fuzz.arr", input);
    arrc::Module m;
    auto t0 = std::chrono::steady_clock::now();
    try {
      if (arrc::parseSource(sm, diag, file, m))
        ++accepted;
      std::ostringstream ast;
      arrc::printModuleAst(m, sm, ast);
    } catch (const std::exception &e) {
      std::cerr << "frontend_fuzz: exception on input " << i << ": " << e.what() << "\n";
      std::cerr << "---- input ----\n" << input << "\n";
      return 1;
    } catch (...) {
      std::cerr << "frontend_fuzz: unknown exception on input " << i << "\n" << input << "\n";
      return 1;
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (secs > worst)
      worst = secs;
    if (secs >= 1.0) {
      std::cerr << "frontend_fuzz: input " << i << " took " << secs << " s\n" << input << "\n";
      return 1;
    }
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("frontend_fuzz: %ld inputs (%ld parsed cleanly), %.2f s total, slowest %.4f s\n", n,
              accepted, total, worst);
  return 0;
}
