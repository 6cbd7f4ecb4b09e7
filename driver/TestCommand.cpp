// `arrc test`: find the files, read their blocks, compile each file once,
// run all of its cases in one process of its harness program (one device
// context, kernels built once), compare, report. See TestCommand.h.
#include "TestCommand.h"

#include "Harness.h"
#include "Process.h"
#include "ProgramBuild.h"
#include "TestBlocks.h"

#include <arrc/diagnostic.h>
#include <arrc/literal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <cstdlib>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace arrc::driver {
namespace {

struct CaseRun {
  std::string entry;
  const TestCase *tc = nullptr;
  io::Tolerance tol;
  enum Outcome { Pending, Pass, Fail, Skip } outcome = Pending;
  std::string note;    // after the case's line: "(tag slow)", "(error: ...)"
  std::string detail;  // indented lines under a FAIL
};

struct FileJob {
  std::string path;
  bool explicitFile = false;
  std::vector<Block> blocks;
  std::string problems;  // block errors and compile diagnostics, printed first
  int problemCount = 0;  // each counts as a failure
  Compiled compiled;
  std::vector<CaseRun> cases;
  std::string note;      // a line printed instead of cases (e.g. "no test blocks")
};

std::string readFile(const std::string &path, bool &ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string abbreviate(const std::string &s, size_t n) {
  return s.size() <= n ? s : s.substr(0, n - 3) + "...";
}

std::string indent(const std::string &text, const std::string &pad) {
  std::string r;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) r += pad + line + "\n";
  return r;
}

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

// Every .arr file under `dir`, sorted.
void collect(const fs::path &dir, std::vector<std::string> &out) {
  std::vector<std::string> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec) && it->path().extension() == ".arr") found.push_back(it->path().string());
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
}

// Reads the blocks, compiles the file and lists its cases (main thread: the
// compiler's stages are not made for concurrent use).
void prepare(FileJob &job, const TestOptions &o) {
  bool ok = false;
  std::string text = readFile(job.path, ok);
  if (!ok) {
    job.problems = job.path + ": error: cannot read the file\n";
    job.problemCount = 1;
    return;
  }
  std::vector<BlockError> errors;
  job.blocks = parseBlocks(text, errors);
  for (auto &e : errors)
    job.problems += diagnostic(job.path + ":" + std::to_string(e.line) + ":" + std::to_string(e.col) + ": " +
                               e.message);
  job.problemCount = static_cast<int>(errors.size());
  int testBlocks = 0;
  for (auto &b : job.blocks) testBlocks += b.kind == Block::Test;
  if (testBlocks == 0) {
    if (job.explicitFile && errors.empty()) job.note = job.path + ": no test blocks";
    return;
  }
  if (!errors.empty()) return;  // a malformed block: its cases are not trustworthy

  CompileOptions co = o.compile;
  co.input = job.path;
  std::ostringstream diags;
  bool compiles = compileForRun(co, diags, job.compiled);
  // which export each block tests: `entry:`, else the next export below it
  auto &exports = job.compiled.exportLines;
  for (auto &b : job.blocks) {
    if (b.kind != Block::Test) continue;
    std::vector<std::string> entries = b.entries;
    if (entries.empty()) {
      int best = 0;
      std::string name;
      for (auto &[n, line] : exports)
        if (line > b.lastLine && (best == 0 || line < best)) {
          best = line;
          name = n;
        }
      if (name.empty() && !compiles) name = "?";
      if (name.empty()) {
        job.problems += diagnostic(job.path + ":" + std::to_string(b.line) + ":1: a test block must be " +
                                   "followed by an export (or name one with `entry:`)");
        ++job.problemCount;
        continue;
      }
      entries.push_back(name);
    }
    for (auto &e : entries) {
      bool known = !compiles;
      for (auto &f : job.compiled.module.functions) known = known || f.name == e;
      if (!known) {
        job.problems += diagnostic(job.path + ":" + std::to_string(b.line) + ":1: no export named '" + e +
                                   "' for this test block");
        ++job.problemCount;
        continue;
      }
      if (!o.entry.empty() && e != o.entry) continue;
      std::string skipTag;
      for (auto &t : b.tags)
        if (std::find(o.exclude.begin(), o.exclude.end(), t) != o.exclude.end()) skipTag = t;
      for (auto &tc : b.cases) {
        CaseRun c;
        c.entry = e;
        c.tc = &tc;
        if (b.hasTolerance) c.tol.double_tol = c.tol.float_tol = b.tolerance;
        if (!skipTag.empty()) {
          c.outcome = CaseRun::Skip;
          c.note = "(tag " + skipTag + ")";
        } else if (!compiles) {
          c.outcome = CaseRun::Fail;
          c.detail = "the file does not compile (see above)";
        }
        job.cases.push_back(std::move(c));
      }
    }
  }
  if (!compiles) {
    job.problems += diags.str();
    if (job.cases.empty()) ++job.problemCount;
  }
}

// Compares one harness result ("ok VALUE", "error MESSAGE", "badinput MESSAGE") with the case.
void judge(CaseRun &c, const std::string &result) {
  const TestCase &tc = *c.tc;
  size_t sp = result.find(' ');
  std::string status = result.substr(0, sp);
  std::string text = sp == std::string::npos ? "" : result.substr(sp + 1);
  if (status == "badinput") {
    c.outcome = CaseRun::Fail;
    c.detail = "bad input: " + text;
    return;
  }
  if (tc.expect == TestCase::Expect::Error) {
    if (status == "ok") {
      c.outcome = CaseRun::Fail;
      c.detail = "expected an error" + (tc.expected.empty() ? "" : " containing \"" + tc.expected + "\"") +
                 "\ngot:      " + abbreviate(text, 300);
      return;
    }
    SourcePosition pos = parse_position(text);
    if (text.find(tc.expected) == std::string::npos || pos.length == 0) {
      c.outcome = CaseRun::Fail;
      c.detail = std::string("expected an error") +
                 (tc.expected.empty() ? "" : " containing \"" + tc.expected + "\"") +
                 (pos.length == 0 ? " that names its source position" : "") + "\ngot: " + diagnostic(text);
      return;
    }
    c.outcome = CaseRun::Pass;
    c.note = "(error at " + pos.file.substr(pos.file.find_last_of('/') + 1) + ":" + std::to_string(pos.line) +
             ":" + std::to_string(pos.col) + ")";
    return;
  }
  if (status != "ok") {
    c.outcome = CaseRun::Fail;
    c.detail = "expected: " + abbreviate(tc.expected, 300) + "\ngot an error: " + diagnostic(text);
    return;
  }
  std::string why;
  try {
    why = io::compare(io::parse(text), tc.expectedValue, c.tol);
  } catch (const io::ParseError &e) {
    why = std::string("the result does not read back: ") + e.what();
  }
  if (why.empty()) {
    c.outcome = CaseRun::Pass;
    return;
  }
  c.outcome = CaseRun::Fail;
  c.detail = "expected: " + abbreviate(tc.expected, 300) + "\ngot:      " + abbreviate(text, 300);
  if (why.rfind("at ", 0) == 0 || why.rfind("the result", 0) == 0) c.detail += "\n" + why;
}

// Builds the file's harness and runs its pending cases; after a crash the
// cases left run in a new process.
void execute(FileJob &job, const TestOptions &o) {
  std::vector<size_t> pending;
  for (size_t k = 0; k < job.cases.size(); ++k)
    if (job.cases[k].outcome == CaseRun::Pending) pending.push_back(k);
  if (pending.empty()) return;
  BuiltProgram program = buildProgram(job.compiled.module, job.path, "arrc test", false, o.ranks);
  if (!program.ok) {
    for (size_t k : pending) {
      job.cases[k].outcome = CaseRun::Fail;
      job.cases[k].detail = "could not build the test program: " + abbreviate(program.error, 2000);
    }
    return;
  }
  auto start = std::chrono::steady_clock::now();
  fs::path casesFile = fs::temp_directory_path() /
                       ("arrc-test-" + std::to_string(getpid()) + "-" +
                        std::to_string(std::hash<std::string>()(job.path)) + ".cases");
  size_t from = 0;
  while (from < pending.size()) {
    {
      std::ofstream out(casesFile, std::ios::binary);
      for (size_t i = from; i < pending.size(); ++i) {
        const CaseRun &c = job.cases[pending[i]];
        out << pending[i] << '\t' << c.entry << '\t' << c.tc->input << '\n';
      }
    }
    double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double left = o.timeout > 0 ? std::max(1.0, o.timeout - used) : 0;
    std::vector<std::string> cmd = program.command({"test", casesFile.string()});
    Captured r = capture(cmd[0], std::vector<std::string>(cmd.begin() + 1, cmd.end()), left);
    std::map<size_t, std::string> results;
    std::istringstream lines(r.out);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.rfind("@@ ", 0) != 0) continue;
      size_t sp = line.find(' ', 3);
      if (sp == std::string::npos) continue;
      results[std::stoul(line.substr(3, sp - 3))] = unescape(line.substr(sp + 1));
    }
    size_t next = pending.size();
    for (size_t i = from; i < pending.size(); ++i) {
      auto it = results.find(pending[i]);
      if (it == results.end()) {
        next = i;
        break;
      }
      judge(job.cases[pending[i]], it->second);
    }
    if (next == pending.size()) break;
    CaseRun &c = job.cases[pending[next]];
    c.outcome = CaseRun::Fail;
    if (r.timedOut) {
      c.detail = "timed out (--timeout " + std::to_string(static_cast<int>(o.timeout)) + " s per file)";
      for (size_t i = next + 1; i < pending.size(); ++i) {
        job.cases[pending[i]].outcome = CaseRun::Fail;
        job.cases[pending[i]].detail = "not run: the file's time ran out";
      }
      break;
    }
    c.detail = r.signal ? "the test program crashed (signal " + std::to_string(r.signal) + ")"
                        : "the test program stopped without a result (exit status " +
                              std::to_string(r.status) + ")";
    from = next + 1;
  }
  std::error_code ec;
  fs::remove(casesFile, ec);
}

} // namespace

int testCommand(const TestOptions &o) {
  // the programs' "building OpenCL program" notices would interleave with the report
  setenv("ARRC_QUIET", "1", 0);
  std::vector<FileJob> jobs;
  for (auto &p : o.paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> files;
      collect(p, files);
      for (auto &f : files) {
        FileJob j;
        j.path = f;
        jobs.push_back(std::move(j));
      }
    } else if (fs::exists(p, ec)) {
      FileJob j;
      j.path = p;
      j.explicitFile = true;
      jobs.push_back(std::move(j));
    } else {
      std::cerr << "arrc test: error: " << p << ": no such file or directory\n";
      return 2;
    }
  }
  for (auto &j : jobs) prepare(j, o);

  // run files in parallel, report in order
  unsigned n = o.jobs > 0 ? static_cast<unsigned>(o.jobs) : std::max(1u, std::thread::hardware_concurrency());
  std::vector<char> done(jobs.size(), 0);
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<size_t> nextJob{0};
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < std::min<size_t>(n, jobs.size()); ++w)
    workers.emplace_back([&] {
      for (size_t k; (k = nextJob++) < jobs.size();) {
        execute(jobs[k], o);
        std::lock_guard<std::mutex> lock(mu);
        done[k] = 1;
        cv.notify_all();
      }
    });
  int passed = 0, failed = 0, skipped = 0;
  for (size_t k = 0; k < jobs.size(); ++k) {
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return done[k] != 0; });
    }
    FileJob &j = jobs[k];
    std::cout << j.problems;
    failed += j.problemCount;
    if (!j.note.empty()) std::cout << j.note << "\n";
    for (auto &c : j.cases) {
      const char *word = c.outcome == CaseRun::Pass ? "PASS" : c.outcome == CaseRun::Skip ? "SKIP" : "FAIL";
      std::cout << word << " " << j.path << ":" << c.tc->line << ": " << c.entry
                << (c.tc->input.empty() ? "" : " " + abbreviate(c.tc->input, 70))
                << (c.note.empty() ? "" : " " + c.note) << "\n";
      if (c.outcome == CaseRun::Fail) std::cout << indent(c.detail, "    ");
      passed += c.outcome == CaseRun::Pass;
      failed += c.outcome == CaseRun::Fail || c.outcome == CaseRun::Pending;
      skipped += c.outcome == CaseRun::Skip;
    }
    std::cout.flush();
  }
  for (auto &w : workers) w.join();
  std::cout << passed << " passed, " << failed << " failed";
  if (skipped) std::cout << ", " << skipped << " skipped";
  std::cout << "\n";
  if (passed + failed + skipped == 0) {
    std::cout << "arrc test: no test cases found (a test block starts with `// == test`; see docs/testing.md)\n";
    return 1;
  }
  return failed > 0 ? 1 : 0;
}

} // namespace arrc::driver
