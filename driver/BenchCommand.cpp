// `arrc bench`: choose the input sets, run each in the harness's bench mode,
// summarise the times. See BenchCommand.h and docs/testing.md.
#include "BenchCommand.h"

#include "Harness.h"
#include "Process.h"
#include "ProgramBuild.h"
#include "Run.h"
#include "TestBlocks.h"

#include <arrc/diagnostic.h>
#include <arrc/literal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace fs = std::filesystem;

namespace arrc::driver {
namespace {

// One input set to time: the spec lines for the harness and how to describe it.
struct InputSet {
  std::string label;   // "gen: [n] [n]", "in: [1.0, 2.0] ..."
  int line = 0;        // in the .arr file (0: made from the signature)
  std::vector<std::pair<std::string, double>> sizes;
  std::vector<std::string> args;  // "literal TEXT" | "random SEED HAS LO HI D..."
  bool hasBytes = false;
  double bytes = 0;
};

struct Timing {
  bool ok = false;
  std::string error;
  std::string device, result;
  double contextMs = 0, inputsMs = 0, coldMs = 0;
  int built = 0, fromDisk = 0;
  std::vector<double> runs;
  double median = 0, mean = 0, min = 0, max = 0, stddev = 0, mad = 0;
};

std::string unescape(const std::string &s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char c = s[++i];
      r += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    } else {
      r += s[i];
    }
  }
  return r;
}

double medianOf(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void summarise(Timing &t) {
  if (t.runs.empty()) return;
  t.median = medianOf(t.runs);
  t.min = *std::min_element(t.runs.begin(), t.runs.end());
  t.max = *std::max_element(t.runs.begin(), t.runs.end());
  double sum = 0;
  for (double x : t.runs) sum += x;
  t.mean = sum / t.runs.size();
  double sq = 0;
  for (double x : t.runs) sq += (x - t.mean) * (x - t.mean);
  t.stddev = t.runs.size() > 1 ? std::sqrt(sq / (t.runs.size() - 1)) : 0;
  std::vector<double> dev;
  for (double x : t.runs) dev.push_back(std::fabs(x - t.median));
  t.mad = medianOf(dev);
}

bool isInteger(const TypeP &t) { return t->isIntegral(); }
bool isFloating(const TypeP &t) { return t->isFloating(); }

std::string num(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

// The spec line of one `gen:` argument for parameter (name, type).
std::string genArg(const GenArg &a, const TypeP &type, const std::string &name,
                   const std::map<std::string, double> &sizes, uint64_t seed) {
  auto fail = [&](const std::string &why) -> std::string {
    throw std::runtime_error("`" + a.text + "` for parameter " + name + " (" + toString(type) + "): " + why);
  };
  auto integral = [&](const std::string &e) {
    double v = evalSize(e, sizes);
    if (v != std::floor(v) || std::fabs(v) > 9.2e18) fail("`" + e + "` is " + num(v) + ", not an integer");
    return static_cast<int64_t>(v);
  };
  switch (a.kind) {
  case GenArg::Literal:
    return "literal " + io::to_text(a.literal);
  case GenArg::Random: {
    if (type->kind == Type::Array && static_cast<size_t>(type->rank) != a.dims.size())
      fail("the parameter has rank " + std::to_string(type->rank) + " but " + std::to_string(a.dims.size()) +
           " extent" + (a.dims.size() == 1 ? "" : "s") + " are given");
    if (type->kind != Type::Array && !a.dims.empty())
      fail("extents for a parameter that is not an array (write `[]` for a random scalar)");
    std::string s = "random " + std::to_string(seed) + " " + (a.hasRange ? "1 " : "0 ");
    s += a.hasRange ? num(evalSize(a.lo, sizes)) + " " + num(evalSize(a.hi, sizes)) : "0 0";
    for (auto &d : a.dims) {
      int64_t v = integral(d);
      if (v < 0) fail("negative extent " + std::to_string(v));
      s += " " + std::to_string(v);
    }
    return s;
  }
  case GenArg::Scalar:
    break;
  }
  if (type->kind == Type::Array) fail("an array parameter takes its shape in brackets, e.g. [n]");
  if (type->isScalar(ScalarKind::Bool)) {
    if (a.text != "true" && a.text != "false") fail("expected true or false");
    return "literal " + a.text;
  }
  if (isInteger(type)) return "literal " + std::to_string(integral(a.text)) + (type->isScalar(ScalarKind::Long) ? "L" : "");
  if (isFloating(type)) {
    std::string v;
    try {
      io::Node n = io::parse(a.text);
      if (n.kind == io::Node::Int || n.kind == io::Node::Float) v = io::to_text(n);
    } catch (const io::ParseError &) {
    }
    if (v.empty()) v = num(evalSize(a.text, sizes));
    if (v.find_first_of(".eEn") == std::string::npos) v += ".0";
    if (!v.empty() && (v.back() == 'f' || v.back() == 'F')) v.pop_back();
    return "literal " + v + (type->isScalar(ScalarKind::Float) ? "f" : "");
  }
  return fail("a tuple parameter takes a literal: `=(1, 2.0)`");
}

// Inputs made from the signature: arrays of the first size on every axis,
// integer scalars the size of their name (else the first size), other
// scalars random.
GenInput fromSignature(const ir::Function &f, const std::string &firstSize) {
  GenInput g;
  for (size_t i = 0; i < f.paramTypes.size(); ++i) {
    const TypeP &t = f.paramTypes[i];
    GenArg a;
    if (t->kind == Type::Array) {
      a.kind = GenArg::Random;
      a.dims.assign(t->rank, firstSize);
      a.text = "[" + firstSize;
      for (int k = 1; k < t->rank; ++k) a.text += ", " + firstSize;
      a.text += "]";
    } else if (isInteger(t)) {
      a.kind = GenArg::Scalar;
      a.text = firstSize;
    } else {
      a.kind = GenArg::Random;
      a.text = "[]";
    }
    g.args.push_back(a);
    g.text += (i ? " " : "") + a.text;
  }
  return g;
}

Timing runOne(const BuiltProgram &program, const std::string &entry, const InputSet &in, const BenchOptions &o) {
  Timing t;
  fs::path spec = fs::temp_directory_path() / ("arrc-bench-" + std::to_string(getpid()) + ".spec");
  {
    std::ofstream out(spec, std::ios::binary);
    out << "entry " << entry << "\nwarmup " << o.warmup << "\nruns " << o.runs << "\nlabel " << entry << " "
        << in.label << "\n";
    if (o.noCache) out << "nocache\n";
    for (auto &a : in.args) out << "arg " << a << "\n";
  }
  std::vector<std::string> cmd = program.command({"bench", spec.string()});
  Captured r = capture(cmd[0], std::vector<std::string>(cmd.begin() + 1, cmd.end()), o.timeout);
  std::error_code ec;
  fs::remove(spec, ec);
  std::istringstream lines(r.out);
  std::string line;
  bool done = false;
  while (std::getline(lines, line)) {
    size_t sp = line.find(' ');
    std::string key = line.substr(0, sp), val = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (key == "device") t.device = unescape(val);
    else if (key == "context_ms") t.contextMs = std::stod(val);
    else if (key == "inputs_ms") t.inputsMs = std::stod(val);
    else if (key == "cold_ms") t.coldMs = std::stod(val);
    else if (key == "built") t.built = std::stoi(val);
    else if (key == "from_disk") t.fromDisk = std::stoi(val);
    else if (key == "run_ms") t.runs.push_back(std::stod(val));
    else if (key == "result") t.result = unescape(val);
    else if (key == "error") t.error = unescape(val);
    else if (key == "done") done = true;
  }
  if (r.timedOut) t.error = "timed out after " + num(o.timeout) + " s (--timeout)";
  else if (r.signal) t.error = "the benchmark program crashed (signal " + std::to_string(r.signal) + ")";
  else if (!done && t.error.empty()) t.error = "the benchmark program stopped without a result";
  t.ok = done && t.error.empty();
  summarise(t);
  return t;
}

std::string jsonString(const std::string &s) {
  std::string r = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') r += '\\', r += static_cast<char>(c);
    else if (c == '\n') r += "\\n";
    else if (c == '\t') r += "\\t";
    else if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      r += b;
    } else r += static_cast<char>(c);
  }
  return r + "\"";
}

std::string jsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  char b[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) std::snprintf(b, sizeof b, "%.0f", v);
  else std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

std::string ms(double v) {
  char b[32];
  std::snprintf(b, sizeof b, v >= 100 ? "%.1f" : v >= 1 ? "%.3f" : "%.4f", v);
  return b;
}

} // namespace

int benchCommand(const BenchOptions &o) {
  Compiled c;
  if (!compileForRun(o.compile, std::cerr, c)) return 1;
  const ir::Function *f = chooseEntry(c.module, o.entry, o.compile.input, "arrc bench");
  if (!f) return 2;
  if (o.runs < 1 || o.warmup < 0) {
    std::cerr << "arrc bench: error: --runs must be at least 1 and --warmup at least 0\n";
    return 2;
  }

  // --size bindings, in order
  std::vector<std::pair<std::string, std::string>> cliSizes;
  for (auto &s : o.sizes) {
    std::string name, expr;
    if (!splitSizeBinding(s, name, expr)) {
      std::cerr << "arrc bench: error: --size takes NAME=EXPR (e.g. n=10^7), not '" << s << "'\n";
      return 2;
    }
    cliSizes.push_back({name, expr});
  }

  std::ifstream in(o.compile.input, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<BlockError> errors;
  std::vector<Block> blocks = parseBlocks(text.str(), errors);
  for (auto &e : errors)
    std::cerr << diagnostic(o.compile.input + ":" + std::to_string(e.line) + ":" + std::to_string(e.col) + ": " +
                            e.message);
  if (!errors.empty()) return 1;

  // the blocks of this export: `entry:`, else the next export below the block
  auto belongs = [&](const Block &b) {
    if (!b.entries.empty()) return std::find(b.entries.begin(), b.entries.end(), f->name) != b.entries.end();
    int best = 0;
    std::string name;
    for (auto &[n, line] : c.exportLines)
      if (line > b.lastLine && (best == 0 || line < best)) {
        best = line;
        name = n;
      }
    return name == f->name;
  };
  std::vector<const Block *> benchBlocks, testBlocks;
  for (auto &b : blocks)
    if (belongs(b)) (b.kind == Block::Bench ? benchBlocks : testBlocks).push_back(&b);

  std::vector<InputSet> sets;
  try {
    auto sizesFor = [&](const Block *b, std::map<std::string, double> &env,
                        std::vector<std::pair<std::string, double>> &shown) {
      std::vector<std::pair<std::string, std::string>> all;
      if (b) all = b->sizes;
      for (auto &cs : cliSizes) {
        auto it = std::find_if(all.begin(), all.end(), [&](auto &p) { return p.first == cs.first; });
        if (it != all.end()) it->second = cs.second;
        else all.push_back(cs);
      }
      for (auto &[name, expr] : all) {
        env[name] = evalSize(expr, env);
        shown.push_back({name, env[name]});
      }
    };
    auto addGen = [&](const GenInput &g, const Block *b, int line) {
      InputSet s;
      s.label = "gen: " + g.text;
      s.line = line;
      std::map<std::string, double> env;
      sizesFor(b, env, s.sizes);
      if (g.args.size() != f->paramTypes.size())
        throw std::runtime_error(o.compile.input + ":" + std::to_string(line) + ": " + f->name + " takes " +
                                 std::to_string(f->paramTypes.size()) + " arguments, the gen: line gives " +
                                 std::to_string(g.args.size()));
      for (size_t i = 0; i < g.args.size(); ++i) {
        try {
          s.args.push_back(genArg(g.args[i], f->paramTypes[i],
                                  i < f->paramNames.size() ? f->paramNames[i] : "", env, i + 1));
        } catch (const std::runtime_error &e) {
          throw std::runtime_error(o.compile.input + ":" + std::to_string(line) + ": gen: " + e.what());
        }
      }
      if (b && !b->bytes.empty()) {
        s.hasBytes = true;
        s.bytes = evalSize(b->bytes, env);
      }
      sets.push_back(std::move(s));
    };
    auto addLiteral = [&](const TestCase &tc, const Block *b) {
      InputSet s;
      s.label = "in: " + (tc.input.size() > 60 ? tc.input.substr(0, 57) + "..." : tc.input);
      s.line = tc.line;
      for (auto &a : tc.args) s.args.push_back("literal " + io::to_text(a));
      if (b && b->kind == Block::Bench && !b->bytes.empty()) {
        std::map<std::string, double> env;
        sizesFor(b, env, s.sizes);
        s.hasBytes = true;
        s.bytes = evalSize(b->bytes, env);
      }
      sets.push_back(std::move(s));
    };
    bool anyGen = false;
    for (auto *b : benchBlocks) anyGen = anyGen || !b->gens.empty();
    if (!cliSizes.empty() && !anyGen) {
      // no gen: line to scale: make the inputs from the signature
      GenInput g = fromSignature(*f, cliSizes[0].first);
      addGen(g, nullptr, 0);
      sets.back().label = "generated: " + g.text;
    } else if (!benchBlocks.empty()) {
      for (auto *b : benchBlocks) {
        for (auto &g : b->gens) addGen(g, b, g.line);
        if (cliSizes.empty())
          for (auto &tc : b->cases) addLiteral(tc, b);
      }
    } else {
      for (auto *b : testBlocks)
        for (auto &tc : b->cases)
          if (tc.expect == TestCase::Expect::Value) addLiteral(tc, b);
    }
  } catch (const std::runtime_error &e) {
    std::cerr << "arrc bench: error: " << e.what() << "\n";
    return 1;
  }
  if (sets.empty()) {
    std::cerr << "arrc bench: error: nothing to time for " << f->name << ": add a `// == bench` block above it "
              << "(docs/testing.md) or give sizes, e.g. --size n=10^6\n";
    return 1;
  }

  BuiltProgram program = buildProgram(c.module, o.compile.input, "arrc bench", true, o.ranks);
  if (!program.ok) {
    std::cerr << "arrc bench: error: " << program.error << "\n";
    return 1;
  }

  int status = 0;
  std::ostringstream json;
  std::string device;
  bool first = true;
  for (auto &s : sets) {
    std::string where = o.compile.input + (s.line ? ":" + std::to_string(s.line) : "");
    std::string sizes;
    for (auto &[name, v] : s.sizes) sizes += (sizes.empty() ? "" : ", ") + name + "=" + num(v);
    if (!o.json) {
      std::cout << where << ": " << f->name << " " << s.label << (sizes.empty() ? "" : " with " + sizes) << "\n";
      std::cout.flush();
    }
    Timing t = runOne(program, f->name, s, o);
    if (!t.ok) {
      status = 1;
      std::cerr << diagnostic(t.error, "arrc bench");
    }
    if (device.empty()) device = t.device;
    if (o.json) {
      json << (first ? "" : ",") << "\n    {\"input\": " << jsonString(s.label) << ", \"line\": " << s.line
           << ", \"sizes\": {";
      for (size_t k = 0; k < s.sizes.size(); ++k)
        json << (k ? ", " : "") << jsonString(s.sizes[k].first) << ": " << jsonNumber(s.sizes[k].second);
      json << "}, \"ok\": " << (t.ok ? "true" : "false");
      if (!t.ok) json << ", \"error\": " << jsonString(t.error);
      json << ", \"cold_ms\": " << jsonNumber(t.coldMs) << ", \"programs_built\": " << t.built
           << ", \"programs_from_disk_cache\": " << t.fromDisk << ", \"context_ms\": " << jsonNumber(t.contextMs)
           << ", \"inputs_ms\": " << jsonNumber(t.inputsMs) << ", \"warmup\": " << o.warmup
           << ", \"runs\": " << t.runs.size() << ", \"times_ms\": [";
      for (size_t k = 0; k < t.runs.size(); ++k) json << (k ? ", " : "") << jsonNumber(t.runs[k]);
      json << "], \"median_ms\": " << jsonNumber(t.median) << ", \"mean_ms\": " << jsonNumber(t.mean)
           << ", \"min_ms\": " << jsonNumber(t.min) << ", \"max_ms\": " << jsonNumber(t.max)
           << ", \"stddev_ms\": " << jsonNumber(t.stddev) << ", \"mad_ms\": " << jsonNumber(t.mad);
      if (s.hasBytes && t.median > 0)
        json << ", \"bytes\": " << jsonNumber(s.bytes) << ", \"gb_per_s\": " << jsonNumber(s.bytes / (t.median * 1e6));
      json << "}";
      first = false;
      continue;
    }
    if (!t.ok) continue;
    std::cout << "  cold  " << ms(t.coldMs) << " ms  first call: ";
    if (t.built) std::cout << t.built << " OpenCL program" << (t.built == 1 ? "" : "s") << " built";
    else if (t.fromDisk) std::cout << t.fromDisk << " program" << (t.fromDisk == 1 ? "" : "s") << " loaded from the disk cache";
    else std::cout << "no program to build";
    std::cout << " (inputs ready in " << ms(t.inputsMs) << " ms)\n";
    double rel = t.median > 0 ? 100.0 * t.mad / t.median : 0;
    char spread[64];
    std::snprintf(spread, sizeof spread, "%.1f%%", rel);
    std::cout << "  warm  " << ms(t.median) << " ms  median of " << t.runs.size() << " runs after " << o.warmup
              << " warm-up (min " << ms(t.min) << ", max " << ms(t.max) << ", MAD " << ms(t.mad) << " = " << spread
              << ")\n";
    if (s.hasBytes && t.median > 0) {
      char rate[64];
      std::snprintf(rate, sizeof rate, "%.2f", s.bytes / (t.median * 1e6));
      std::cout << "  rate  " << rate << " GB/s  (" << num(s.bytes) << " bytes per run)\n";
    }
    std::cout << "  on    " << t.device << "\n";
  }
  if (o.json) {
    std::cout << "{\"file\": " << jsonString(o.compile.input) << ", \"entry\": " << jsonString(f->name)
              << ", \"device\": " << jsonString(device) << ", \"warmup\": " << o.warmup << ", \"runs\": " << o.runs
              << ", \"results\": [" << json.str() << "\n  ]}\n";
  }
  return status;
}

} // namespace arrc::driver
