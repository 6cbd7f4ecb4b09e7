// Unit tests of bounds-check elimination (lowering/src/BoundsChecks.cpp):
// each program runs in the interpreter before and after optimize on many
// small inputs, in range and not; both must give the same value or raise the
// same error (code and position; a read left unchecked but out of range
// raises an internal error at position -1, which would differ). The
// optimized IR is checked for the reads and guards it keeps.
#include "Helpers.h"

#include <functional>

using namespace arrc;
using ir::Value;
using namespace lowering_test;

namespace {

// A result, or the error raised: "value ..." / "error CODE @POS".
std::string outcome(const ir::Module &m, const std::string &fn, const std::vector<Value> &args) {
  try {
    std::string s = "value";
    for (auto &v : ir::interpret(m, fn, args)) s += " " + ir::formatValue(v);
    return s;
  } catch (const ir::RuntimeError &e) {
    return "error " + std::to_string(int(e.code)) + " @" + std::to_string(e.pos);
  }
}

// Lowered and optimized agree; returns the outcome.
std::string agree(const Compiled &c, const std::string &fn, const std::vector<Value> &args) {
  std::string a = outcome(c.lowered, fn, args), b = outcome(c.optimized, fn, args);
  CHECK_MESSAGE(a == b, fn << ": lowered " << a << ", optimized " << b);
  return a;
}

const ir::Function &fn(const ir::Module &m, const std::string &name) {
  for (auto &f : m.functions)
    if (f.name == name) return f;
  FAIL("no function " << name);
  return m.functions.at(0);
}

// Checked reads (guards included) in SOAC bodies and operators.
int checkedReads(const ir::ExpP &e) {
  if (!e) return 0;
  int n = e->kind == ir::Exp::Read && e->checkPos >= 0;
  for (auto &a : e->args) n += checkedReads(a);
  return n;
}
int deviceChecked(const ir::Block &b, bool device) {
  int n = 0;
  for (auto &s : b.stmts) {
    bool dev = device || s->kind >= ir::StmtKind::Map;
    if (device) ir::forEachExp(*s, [&](ir::ExpP &e) { n += checkedReads(e); });
    ir::forEachBlock(static_cast<const ir::Stmt &>(*s), [&](const ir::Block &in) { n += deviceChecked(in, dev); });
  }
  if (device)
    for (auto &r : b.results) n += checkedReads(r);
  return n;
}
int deviceChecked(const Compiled &c, const std::string &name, bool optimized = true) {
  return deviceChecked(fn(optimized ? c.optimized : c.lowered, name).body, false);
}

Value imat(int64_t r, int64_t k, int64_t base) {
  std::vector<int64_t> d;
  for (int64_t i = 0; i < r * k; ++i) d.push_back(base + i);
  return Value::arrayInt(d, {r, k});
}
Value dmat(int64_t r, int64_t k, double base) {
  std::vector<double> d;
  for (int64_t i = 0; i < r * k; ++i) d.push_back(base + double(i));
  return Value::arrayFloat(d, {r, k});
}
// Every int vector of length <= maxLen with elements in [lo, hi].
void eachVec(int maxLen, int lo, int hi, const std::function<void(const Value &)> &f) {
  std::vector<int64_t> v;
  std::function<void()> rec = [&]() {
    f(ivec(v));
    if (int(v.size()) == maxLen) return;
    for (int x = lo; x <= hi; ++x) {
      v.push_back(x);
      rec();
      v.pop_back();
    }
  };
  rec();
}

} // namespace

TEST_CASE("bounds checks: counters below the array's own extents lose their checks; data indices keep them") {
  auto c = compile(
      "export double[[*]] rowsums(double[[*,*]] A) = [sum([A[i, j] | j <- [0..<A.size(1)]]) | i <- [0..<A.size(0)]];\n"
      "export int[[*]] gather(int[[*]] xs, int[[*]] ys) = [xs[ys[i]] | i <- iota(length(ys))];\n"
      "export int[[*]] shift(int[[*]] xs) = [xs[i + 1] | i <- iota(length(xs))];\n"
      "export int[[*]] diffs(int[[*]] xs) = [xs[i + 1] - xs[i] | i <- iota(length(xs) - 1)];\n"
      "export int[[*]] guarded(int[[*]] xs, int[[*]] ys) = [if i < length(ys) then xs[i] + ys[i] else 0 | i <- iota(length(xs))];\n"
      "export int[[*]] els(int[[*]] xs, int n) = [if i < n then 0 else xs[i] | i <- iota(length(xs) + 1)];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(deviceChecked(c, "rowsums", false) == 1);
  CHECK(deviceChecked(c, "rowsums") == 0);
  CHECK(deviceChecked(c, "gather") == 1);   // xs[ys[i]]
  CHECK(deviceChecked(c, "shift") == 0);    // xs[i + 1], i < length(xs): one host check before the map
  CHECK(deviceChecked(c, "diffs") == 0);    // i < length(xs) - 1
  CHECK(deviceChecked(c, "guarded", false) == 2);
  CHECK(deviceChecked(c, "guarded") == 0);  // ys[i] under i < length(ys), xs[i] at i < length(xs)
  CHECK(deviceChecked(c, "els") == 1);      // the else branch knows nothing about xs
  for (int r = 0; r <= 2; ++r)
    for (int k = 0; k <= 3; ++k) agree(c, "rowsums", {dmat(r, k, 1.0)});
  eachVec(3, -1, 3, [&](const Value &xs) {
    agree(c, "shift", {xs});
    agree(c, "diffs", {xs});
    for (int n = -1; n <= 4; ++n) agree(c, "els", {xs, Value::scalarInt(n)});
    eachVec(2, -2, 3, [&](const Value &ys) {
      agree(c, "gather", {xs, ys});
      agree(c, "guarded", {xs, ys});
    });
  });
  CHECK(agree(c, "shift", {ivec({1, 2, 3})}).rfind("error 0 @", 0) == 0); // Bounds
  CHECK(agree(c, "diffs", {ivec({1, 4, 9})}) == "value [3, 5]");
}

TEST_CASE("bounds checks: a zip guard in the loop over the centres becomes a host check; k-means reads lose their checks") {
  const char *src =
      "def double dist2(double[[*]] p, double[[*]] c) = sum([(a - b) * (a - b) | a <- p | b <- c]);\n"
      "def int nearest(double[[*]] p, double[[*,*]] C) = argmin([dist2(p, C[c, :]) | c <- iota(C.size(0))]);\n"
      "export int[[*]] assign(double[[*,*]] P, double[[*,*]] C) = [nearest(P[i, :], C) | i <- iota(P.size(0))];\n"
      "export double[[*]] sqdist(double[[*,*]] P, double[[*,*]] C) =\n"
      "  [sum([dist2(P[i, :], C[c, :]) | c <- iota(C.size(0))]) | i <- iota(P.size(0))];\n"
      "export double rsq(double[[*,*]] P, double[[*,*]] C) =\n"
      "  sum([sum([dist2(P[i, :], C[c, :]) | c <- iota(C.size(0) - 1)]) | i <- iota(P.size(0))]);\n"
      "export double[[*]] sums(int[[*]] ids, double[[*,*]] P) =\n"
      "  hist((+), 0.0, 2 * P.size(1), [ids[i] * P.size(1) + j | i <- iota(P.size(0)), j <- iota(P.size(1))], flatten(P));\n";
  auto c = compile(src);
  REQUIRE_MESSAGE(c.ok, c.errors);
  for (auto name : {"assign", "sqdist", "rsq"}) {
    CHECK(deviceChecked(c, name, false) >= 3);
    CHECK(deviceChecked(c, name) == 0);
    CHECK(countKind(fn(c.optimized, name).body, ir::StmtKind::Check) >= 1);
  }
  CHECK(deviceChecked(c, "sums") == 1); // ids (any length) stays checked; P's flattened reads do not
  // every shape pair: same result or the same error (code and position)
  for (int r = 0; r <= 2; ++r)
    for (int k = 0; k <= 3; ++k)
      for (int r2 = 0; r2 <= 3; ++r2)
        for (int k2 = 0; k2 <= 3; ++k2) {
          Value P = dmat(r, k, 0.5), C = dmat(r2, k2, 1.0);
          agree(c, "assign", {P, C});
          agree(c, "sqdist", {P, C});
          agree(c, "rsq", {P, C});
        }
  // no point, or no centre: the zip of different sizes raises nothing
  CHECK(agree(c, "sqdist", {dmat(0, 2, 0), dmat(2, 3, 0)}) == "value []");
  CHECK(agree(c, "sqdist", {dmat(2, 2, 0), dmat(0, 3, 0)}) == "value [0.0, 0.0]");
  CHECK(agree(c, "sqdist", {dmat(2, 2, 0), dmat(1, 3, 0)}).rfind("error 2 @", 0) == 0); // ZipSize
  CHECK(agree(c, "rsq", {dmat(2, 2, 0), dmat(1, 3, 0)}) == "value 0.0");
  eachVec(3, -1, 2, [&](const Value &ids) {
    for (int r = 0; r <= 3; ++r) agree(c, "sums", {ids, dmat(r, 2, 1.0)});
  });
}

TEST_CASE("bounds checks: guards proven to pass disappear; others stay, or become host checks where every element meets them first") {
  auto c = compile(
      "export int[[*]] small(int[[*]] xs) = [iota(3)[x] | x <- xs];\n"
      "export int[[*]] inrange(int n) = [iota(n)[i] | i <- iota(n)];\n"
      "export int[[*]] pick(int[[*]] xs, int m, int n) = [sum([iota(5)[m] * j + x | j <- iota(n)]) | x <- xs];\n"
      "export int[[*]] addk(int[[*]] xs, int[[*]] ys, int[[*]] ks) = [(xs + ys)[k] | k <- ks];\n"
      "export int[[*]] zipin(int[[*]] xs, int[[*]] ys, int[[*]] zs) = [sum([sum([a * b | a <- xs | b <- ys]) | _j <- iota(xs[z])]) | z <- zs];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(deviceChecked(c, "small") == 1);   // x from data
  CHECK(deviceChecked(c, "inrange") == 0); // i < n
  CHECK(deviceChecked(c, "pick") == 0);    // m fixed for the map: a host check
  CHECK(countKind(fn(c.optimized, "pick").body, ir::StmtKind::Check) == 1);
  // the guard and the two reads behind it (checked at the guard's position)
  CHECK(deviceChecked(c, "addk", false) == 1);
  CHECK(deviceChecked(c, "addk") == 3);
  // xs[z], the zip guard, ys[k] behind it
  CHECK(deviceChecked(c, "zipin") == 3);
  eachVec(2, -1, 4, [&](const Value &xs) {
    agree(c, "small", {xs});
    for (int m = -1; m <= 5; ++m)
      for (int n = -1; n <= 2; ++n) agree(c, "pick", {xs, Value::scalarInt(m), Value::scalarInt(n)});
    eachVec(2, -1, 2, [&](const Value &ys) {
      agree(c, "addk", {xs, ys, ivec({0})});
      agree(c, "addk", {xs, ys, ivec({1, -1})});
      agree(c, "zipin", {xs, ys, ivec({0})});
      agree(c, "zipin", {xs, ys, ivec({1, 0})});
    });
  });
  for (int n = -1; n <= 3; ++n) agree(c, "inrange", {Value::scalarInt(n)});
  CHECK(agree(c, "pick", {ivec({1, 2}), Value::scalarInt(7), Value::scalarInt(0)}) == "value [0, 0]");
  CHECK(agree(c, "pick", {ivec({1, 2}), Value::scalarInt(3), Value::scalarInt(2)}) == "value [5, 7]");
}

TEST_CASE("bounds checks: host checks are facts after them only; sections, views and matrix products") {
  auto c = compile(
      "export double[[*,*]] gemm(double[[*,*]] A, double[[*,*]] B, double[[*,*]] C) =\n"
      "  [[sum([a * b | a <- A[i, :] | b <- B[:, j]]) + C[i, j] | j <- [0..<B.size(1)]] | i <- [0..<A.size(0)]];\n"
      "export int[[*]] tail2(int[[*]] xs) = [y * 2 | y <- xs[1:length(xs) - 1]];\n"
      "export int[[*]] rev(int[[*]] xs) = [reverse(xs)[i] + xs[i] | i <- iota(length(xs))];\n"
      "export int[[*,*]] tr(int[[*,*]] A) = [[transpose(A)[j, i] | i <- iota(A.size(0))] | j <- iota(A.size(1))];\n"
      "export int[[*]] spmv(int[[*]] row_off, int[[*]] col_idx, int[[*]] vals, int[[*]] x) =\n"
      "  [sum([vals[k] * x[col_idx[k]] | k <- [row_off[i]..<row_off[i + 1]]]) | i <- [0..<length(row_off) - 1]];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(deviceChecked(c, "gemm") == 1); // C only
  CHECK(deviceChecked(c, "rev") == 0);
  CHECK(deviceChecked(c, "tr") == 0);
  CHECK(deviceChecked(c, "spmv") == 3); // vals[k], x[col_idx[k]], col_idx[k]: k from data
  for (int r = 0; r <= 2; ++r)
    for (int k = 0; k <= 2; ++k)
      for (int k2 = 0; k2 <= 3; ++k2)
        for (int m = 0; m <= 2; ++m) agree(c, "gemm", {dmat(r, k, 1), dmat(k2, m, 2), dmat(r, m, 3)});
  agree(c, "gemm", {dmat(2, 2, 1), dmat(2, 2, 2), dmat(1, 2, 3)});
  eachVec(3, -1, 2, [&](const Value &xs) {
    agree(c, "tail2", {xs});
    agree(c, "rev", {xs});
  });
  for (int r = 0; r <= 3; ++r)
    for (int k = 0; k <= 3; ++k) agree(c, "tr", {imat(r, k, 1)});
  eachVec(3, -1, 4, [&](const Value &row_off) {
    agree(c, "spmv", {row_off, ivec({0, 2, 1}), ivec({1, 2, 3}), ivec({10, 20, 30})});
    agree(c, "spmv", {row_off, ivec({0, 5}), ivec({1, 2}), ivec({10, 20})});
  });
}

TEST_CASE("bounds checks: the one read that can raise, at base + the parallel index, is checked before the SOAC") {
  auto c = compile(
      "export int dot(int[[*]] a, int[[*]] b) = sum([a[i] * b[i] | i <- iota(length(a))]);\n"
      "export int[[*,*]] scalecols(int[[*,*]] A, int[[*]] v) = [[A[i, j] * v[j] | j <- iota(A.size(1))] | i <- iota(A.size(0))];\n"
      "export int[[*]] shifted(int[[*]] xs, int b, int n) = [xs[i + b] * 2 | i <- iota(n)];\n"
      "export int[[*]] tworeads(int[[*]] xs, int[[*]] ys) = [xs[i + 1] + ys[i] | i <- iota(length(ys))];\n"
      "export int[[*]] cond(int[[*]] xs, int[[*]] ys) = [if xs[i] > 0 then ys[i] else 0 | i <- iota(length(xs))];\n"
      "export int[[*]] row(int[[*,*]] A, int r, int n) = [A[r, j] + A[r, j] | j <- iota(n)];\n"
      "export int[[*]] prefix(int[[*]] a, int[[*]] b) = scan((+), 0, [b[i] | i <- iota(length(a))]);\n"
      "export int[[*]] twoarrays(int[[*]] a, int[[*]] b, int[[*]] c) = [b[i] + c[i] | i <- iota(length(a))];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(deviceChecked(c, "dot") == 0);
  CHECK(deviceChecked(c, "scalecols") == 0);
  CHECK(deviceChecked(c, "shifted") == 1);   // i + b may wrap around (b any int): stays
  CHECK(deviceChecked(c, "tworeads") == 0);  // ys[i] proven, xs[i + 1] the one left
  CHECK(deviceChecked(c, "cond") == 1);      // ys[i] only where xs[i] > 0: stays in the body
  CHECK(deviceChecked(c, "row") == 0);       // r fixed, j at the index
  CHECK(deviceChecked(c, "prefix") == 0);
  CHECK(deviceChecked(c, "twoarrays") == 2); // two reads that can raise: both stay
  eachVec(3, -1, 2, [&](const Value &a) {
    eachVec(3, 0, 1, [&](const Value &b) {
      agree(c, "dot", {a, b});
      agree(c, "tworeads", {a, b});
      agree(c, "cond", {a, b});
      agree(c, "prefix", {a, b});
      agree(c, "twoarrays", {a, b, b});
      agree(c, "twoarrays", {a, b, a});
    });
    for (int b = -2; b <= 3; ++b)
      for (int n = -1; n <= 4; ++n) agree(c, "shifted", {a, Value::scalarInt(b), Value::scalarInt(n)});
  });
  for (int r = 0; r <= 2; ++r)
    for (int k = 0; k <= 3; ++k) {
      for (int m = 0; m <= 4; ++m) agree(c, "scalecols", {imat(r, k, 1), ivec(std::vector<int64_t>(size_t(m), 2))});
      for (int row = -1; row <= 3; ++row)
        for (int n = 0; n <= 4; ++n) agree(c, "row", {imat(r, k, 1), Value::scalarInt(row), Value::scalarInt(n)});
    }
}

// VersionChecks.cpp: the versioned Ifs of a function and the checked reads
// left in their first (unchecked) copies.
void versions(const ir::Block &b, int &ifs, int &fastChecked) {
  for (auto &s : b.stmts) {
    if (s->kind == ir::StmtKind::If && s->note.rfind("versioned", 0) == 0) {
      ++ifs;
      fastChecked += deviceChecked(static_cast<const ir::If &>(*s).thenB, false);
    }
    ir::forEachBlock(static_cast<const ir::Stmt &>(*s), [&](const ir::Block &in) { versions(in, ifs, fastChecked); });
  }
}

TEST_CASE("bounds checks: several reads that can raise, covered by one host test of their ranges (VersionChecks)") {
  auto c = compile(
      "export int[[*,*]] pulls(int[[*,*]] B) =\n"
      "  [[sum([B[j, 2] * (B[j, a] - B[i, a]) | j <- iota(B.size(0))]) | a <- iota(2)] | i <- iota(B.size(0))];\n"
      "export int[[*,*]] shifted(int[[*,*]] A, int m, int n) = [[A[i, j + 1] + A[i + 1, j] | j <- iota(n)] | i <- iota(m)];\n"
      "export int[[*,*]] rows(int[[*]] a, int m, int k) = [[a[i * k + j] | j <- iota(2)] | i <- iota(m)];\n"
      "export int[[*]] tri(int[[*]] a, int n) = [sum([a[k] + a[k + 1] | k <- iota(i)]) | i <- iota(n)];\n"
      "export int[[*]] halves(int[[*]] a, int n, int d) = [a[i / d] + a[i % d] | i <- iota(n)];\n"
      "export (int[[*]], int) picks(int[[*]] a, int[[*]] f) =\n"
      "  ([a[i] | i <- iota(length(a)), f[i] + f[i + 1] == 1], sum([a[i] * f[i + 1] + f[i] | i <- iota(length(a))]));\n"
      "export int[[*]] gather2(int[[*]] xs, int[[*]] ys) = [xs[ys[i]] + xs[ys[i] + 1] | i <- iota(length(ys))];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  auto check = [&](const char *name, int ifs, int fast) {
    int n = 0, f = 0;
    versions(fn(c.optimized, name).body, n, f);
    CHECK_MESSAGE(n == ifs, name << ": " << n << " versioned SOACs");
    CHECK_MESSAGE(f == fast, name << ": " << f << " checked reads in the unchecked copies");
  };
  check("pulls", 1, 0);
  check("shifted", 1, 0);
  check("rows", 1, 0);   // i * k + j in int: the test requires it inside int
  check("tri", 1, 0);    // k < i < n: k + 1 <= n - 1
  check("halves", 1, 0); // i / d, i % d for d > 0
  check("picks", 2, 0);  // the filter and the reduce
  check("gather2", 0, 0); // indices from data: nothing to test
  const int64_t big = 2147483647, small = -2147483647 - 1;
  for (int r = 0; r <= 3; ++r)
    for (int k = 0; k <= 4; ++k) {
      agree(c, "pulls", {imat(r, k, 1)});
      for (int m = -1; m <= 4; ++m)
        for (int n = -1; n <= 4; ++n) agree(c, "shifted", {imat(r, k, 1), Value::scalarInt(m), Value::scalarInt(n)});
    }
  eachVec(4, 0, 3, [&](const Value &a) {
    for (int64_t m : {int64_t(-1), int64_t(0), int64_t(1), int64_t(2), int64_t(3)})
      for (int64_t k : {small, int64_t(-1), int64_t(0), int64_t(1), int64_t(2), int64_t(1) << 30, big}) {
        agree(c, "rows", {a, Value::scalarInt(m), Value::scalarInt(k)});
        agree(c, "halves", {a, Value::scalarInt(m + 2), Value::scalarInt(k)});
      }
    for (int n = -1; n <= 6; ++n) agree(c, "tri", {a, Value::scalarInt(n)});
    eachVec(3, 0, 1, [&](const Value &f) { agree(c, "picks", {a, f}); });
    eachVec(2, -1, 4, [&](const Value &ys) { agree(c, "gather2", {a, ys}); });
  });
}

// The statements of a block, at any depth, that `is` picks.
int countStmts(const ir::Block &b, const std::function<bool(const ir::Stmt &)> &is) {
  int n = 0;
  for (auto &s : b.stmts) {
    n += is(*s);
    ir::forEachBlock(static_cast<const ir::Stmt &>(*s), [&](const ir::Block &in) { n += countStmts(in, is); });
  }
  return n;
}

// SplitLongLoops.cpp: the split Ifs of a function (the interpreter's
// loop_chunks takes 3 chunks for 3 steps or more, so agree() runs the split
// plan against the lowered module).
int splits(const ir::Block &b) {
  return countStmts(b, [](const ir::Stmt &s) { return s.kind == ir::StmtKind::If && s.note.rfind("split", 0) == 0; });
}

TEST_CASE("few elements that each sum over one long range: the sums in chunks (SplitLongLoops)") {
  // (`<=`, not `==`: sums per group become histograms, GroupSums below)
  auto c = compile(
      "export int[[*]] counts(int[[*]] ids, int k) = [count(\\x -> x <= c, ids) | c <- iota(k)];\n"
      "export double[[*,*]] sums(int[[*]] ids, double[[*,*]] P, int k) =\n"
      "  [[sum([if ids[i] <= c then P[i, j] else 0.0 | i <- iota(P.size(0))]) | j <- iota(P.size(1))] | c <- iota(k)];\n"
      "export (long, int)[[*]] two(int[[*]] xs, int k) = [(sum([long(x * c) | x <- xs]), sum([x + c | x <- xs])) | c <- iota(k)];\n"
      "export int[[*]] offset(int[[*]] xs, int k) = [reduce((+), c, xs) | c <- iota(k)];\n"
      "export int[[*]] tri(int[[*]] xs) = [sum([xs[j] | j <- iota(i)]) | i <- iota(length(xs))];\n"
      "export int[[*]] maxes(int[[*]] xs, int k) = [maximum([x * c | x <- xs]) | c <- iota(k)];\n"
      "export double[[*,*]] means(int[[*]] ids, double[[*,*]] P, double[[*,*]] C, int[[*]] cnt) =\n"
      "  [[if cnt[c] == 0 then C[c, j] else sum([if ids[i] <= c then P[i, j] else 0.0 | i <- iota(P.size(0))]) / double(cnt[c])\n"
      "    | j <- iota(C.size(1))] | c <- iota(C.size(0))];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(splits(fn(c.optimized, "counts").body) == 1);
  CHECK(splits(fn(c.optimized, "sums").body) == 1);
  CHECK(splits(fn(c.optimized, "two").body) == 1);    // two sums in one loop
  CHECK(splits(fn(c.optimized, "offset").body) == 0); // starts at c, not 0
  CHECK(splits(fn(c.optimized, "tri").body) == 0);    // the count varies by element
  CHECK(splits(fn(c.optimized, "maxes").body) == 0);  // not a sum
  CHECK(splits(fn(c.optimized, "means").body) == 1);  // the sum in an if's branch
  eachVec(5, -2, 3, [&](const Value &xs) {
    for (int k = -1; k <= 4; ++k) {
      agree(c, "counts", {xs, Value::scalarInt(k)});
      agree(c, "two", {xs, Value::scalarInt(k)});
    }
  });
  for (int r = 0; r <= 5; ++r)
    for (int d = 0; d <= 2; ++d) {
      std::vector<int64_t> ids;
      for (int i = 0; i < r; ++i) ids.push_back((i * 7) % 3);
      for (int k = 0; k <= 3; ++k) {
        agree(c, "sums", {ivec(ids), dmat(r, d, 0.5), Value::scalarInt(k)});
        std::vector<int64_t> cnt;
        for (int q = 0; q < k; ++q) cnt.push_back(q % 2);
        agree(c, "means", {ivec(ids), dmat(r, d, 0.5), dmat(k, d, 2.0), ivec(cnt)});
      }
    }
}

// GroupSums.cpp: the histograms of a function.
int hists(const ir::Block &b) {
  return countStmts(b, [](const ir::Stmt &s) { return s.kind == ir::StmtKind::Hist; });
}

TEST_CASE("sums per group written as masked sums become histograms (GroupSums)") {
  auto c = compile(
      "export int[[*]] counts(int[[*]] ids, int k) = [count(\\x -> x == c, ids) | c <- iota(k)];\n"
      "export long[[*]] lcounts(long[[*]] ids, long k) = [sum([1L | i <- iota(length(ids)), ids[i] == c]) | c <- [0L..<k]];\n"
      "export double[[*,*]] sums(int[[*]] ids, double[[*,*]] P, int k) =\n"
      "  [[sum([if ids[i] == c then P[i, j] else 0.0 | i <- iota(P.size(0))]) | j <- iota(P.size(1))] | c <- iota(k)];\n"
      "export double[[*,*]] cols(int[[*]] ids, double[[*,*]] P, int k) =\n"
      "  [[sum([P[i, j] | i <- iota(P.size(0)), c == ids[i]]) | c <- iota(k)] | j <- iota(P.size(1))];\n"
      "export double[[*,*,*]] three(int[[*]] ids, double[[*,*]] P, int k) =\n"
      "  [[[sum([if ids[i] == c then P[i, j] * double(q + 1) else 0.0 | i <- iota(P.size(0))]) | q <- iota(2)]\n"
      "    | c <- iota(k)] | j <- iota(P.size(1))];\n"
      "export int[[*]] picked(int[[*]] ids, int[[*]] v, int k) =\n"
      "  [sum([if ids[i] == c then v[i] else 0 | i <- iota(length(ids))]) + sum([if c == ids[i] then 3 else 0 | i <- iota(length(ids))])\n"
      "   | c <- iota(k)];\n"
      "export double[[*,*]] means(int[[*]] ids, double[[*,*]] P, double[[*,*]] C, int[[*]] cnt) =\n"
      "  [[if cnt[c] == 0 then C[c, j] else sum([if ids[i] == c then P[i, j] else 0.0 | i <- iota(P.size(0))]) / double(cnt[c])\n"
      "    | j <- iota(C.size(1))] | c <- iota(C.size(0))];\n"
      "export (int, double)[[*]] cs(int[[*]] ids, double[[*]] v, int k) =\n"
      "  [(count(\\x -> x == c, ids), sum([if ids[i] == c then v[i] else 0.0 | i <- iota(length(ids))])) | c <- iota(k)];\n"
      "export int[[*]] shifted(int[[*]] ids, int k) = [count(\\x -> x == c + 1, ids) | c <- iota(k)];\n"
      "export int[[*]] maxes(int[[*]] ids, int[[*]] v, int k) = [maximum([if ids[i] == c then v[i] else 0 | i <- iota(length(ids))]) | c <- iota(k)];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  // one histogram per version where the reads are checked and where not
  CHECK(hists(fn(c.optimized, "counts").body) >= 1);
  CHECK(hists(fn(c.optimized, "lcounts").body) >= 1);
  CHECK(hists(fn(c.optimized, "sums").body) == 2);
  CHECK(hists(fn(c.optimized, "cols").body) == 2);
  CHECK(hists(fn(c.optimized, "three").body) == 2);
  CHECK(hists(fn(c.optimized, "picked").body) == 4);   // two sums per element
  CHECK(hists(fn(c.optimized, "means").body) == 1);    // in an if's branch: where nothing can raise
  CHECK(hists(fn(c.optimized, "cs").body) == 4);       // a pair of sums per group
  CHECK(hists(fn(c.optimized, "shifted").body) == 0);  // the key is not the group index
  CHECK(hists(fn(c.optimized, "maxes").body) == 0);    // not a sum
  eachVec(5, -2, 3, [&](const Value &ids) {
    for (int k = -1; k <= 4; ++k) {
      agree(c, "counts", {ids, Value::scalarInt(k)});
      agree(c, "shifted", {ids, Value::scalarInt(k)});
    }
    std::vector<int64_t> l = ids.ints();
    for (int64_t k : {-1, 0, 1, 3})
      agree(c, "lcounts", {Value::arrayInt(l, {int64_t(l.size())}, ScalarKind::Long), Value::scalarInt(k, ScalarKind::Long)});
    // values shorter than the ids: read only where the key names a group
    for (int64_t n = 0; n <= 5; ++n)
      for (int k = 0; k <= 3; ++k) {
        std::vector<int64_t> v;
        for (int64_t i = 0; i < n; ++i) v.push_back(10 * i + 1);
        agree(c, "picked", {ids, ivec(v), Value::scalarInt(k)});
        std::vector<double> dv(v.begin(), v.end());
        agree(c, "cs", {ids, dvec(dv), Value::scalarInt(k)});
        agree(c, "maxes", {ids, ivec(v), Value::scalarInt(k)});
      }
  });
  for (int r = 0; r <= 5; ++r)
    for (int d = 0; d <= 2; ++d)
      for (int len : {r - 1, r}) {  // ids one short: a bounds error where there is a group
        if (len < 0) continue;
        std::vector<int64_t> ids;
        for (int i = 0; i < len; ++i) ids.push_back((i * 7) % 4 - 1);
        for (int k = 0; k <= 3; ++k) {
          agree(c, "sums", {ivec(ids), dmat(r, d, 0.5), Value::scalarInt(k)});
          agree(c, "cols", {ivec(ids), dmat(r, d, 0.5), Value::scalarInt(k)});
          agree(c, "three", {ivec(ids), dmat(r, d, 0.5), Value::scalarInt(k)});
          std::vector<int64_t> cnt;
          for (int q = 0; q < k; ++q) cnt.push_back(q % 2);
          agree(c, "means", {ivec(ids), dmat(r, d, 0.5), dmat(k, d, 2.0), ivec(cnt)});
        }
      }
}

// HistOrder.cpp: histograms walked along rows.
int rowWalks(const ir::Block &b) {
  int n = 0;
  for (auto &s : b.stmts) {
    n += s->kind == ir::StmtKind::Hist && s->note.find("walked along rows") != std::string::npos;
    ir::forEachBlock(static_cast<const ir::Stmt &>(*s), [&](const ir::Block &in) { n += rowWalks(in); });
  }
  return n;
}

TEST_CASE("a histogram per column walks the matrix along its rows (HistOrder)") {
  auto c = compile(
      "export double[[*,*]] cols(int[[*]] ids, double[[*,*]] P, int k) =\n"
      "  [hist((+), 0.0, k, ids, P[:, j]) | j <- iota(P.size(1))];\n"
      "export int[[*,*]] icols(int[[*]] ids, int[[*,*]] P, int k) =\n"
      "  [hist((+), 0, k, ids, [P[i, j] * P[j % P.size(0), i % P.size(1)] | i <- iota(P.size(0))]) | j <- iota(P.size(1))];\n"
      "export double[[*,*]] rows(int[[*]] ids, double[[*,*]] P, int k) =\n"
      "  [hist((+), 0.0, k, ids, P[i, :]) | i <- iota(P.size(0))];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(rowWalks(fn(c.optimized, "cols").body) == 1);
  CHECK(rowWalks(fn(c.optimized, "icols").body) == 0);  // reads along the rows as well
  CHECK(rowWalks(fn(c.optimized, "rows").body) == 0);   // already along the rows
  for (int r = 0; r <= 4; ++r)
    for (int d = 0; d <= 3; ++d)
      for (int len : {r - 1, r, r + 1}) {  // ids of another length: the zip's error where there is a column
        if (len < 0) continue;
        std::vector<int64_t> ids;
        for (int i = 0; i < len; ++i) ids.push_back((i * 5) % 4 - 1);
        for (int k = 0; k <= 3; ++k) {
          agree(c, "cols", {ivec(ids), dmat(r, d, 0.5), Value::scalarInt(k)});
          agree(c, "icols", {ivec(ids), imat(r, d, -3), Value::scalarInt(k)});
          agree(c, "rows", {ivec(ids), dmat(d, r, 0.5), Value::scalarInt(k)});
        }
      }
}
