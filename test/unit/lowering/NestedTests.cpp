// Nested parallelism (docs/lowering.md): irregular arrays inside parallel
// bodies, flattened into segments or sequentialised. Every program runs in
// the interpreter (lowered and optimized) under the cost rule, with every
// inner level flattened and with every inner level sequentialised: all must
// agree with the C++ reference computed here.
#include "Helpers.h"

#include <algorithm>
#include <map>

using namespace lowering_test;
using Nested = LowerOptions::Nested;

namespace {
const std::vector<std::vector<int64_t>> kRows = {
    {3, -1, 4, 1, 5}, {9, 2, 6, 5, 3}, {0, -5, 8, 0, 2}, {-7, -7, -7, -1, -2}, {2, 2, 2, 2, 2}};

Value matrix(const std::vector<std::vector<int64_t>> &rows) {
  std::vector<int64_t> d;
  for (auto &r : rows) d.insert(d.end(), r.begin(), r.end());
  return Value::arrayInt(d, {int64_t(rows.size()), int64_t(rows.empty() ? 0 : rows[0].size())});
}

std::vector<int64_t> positive(const std::vector<int64_t> &r) {
  std::vector<int64_t> p;
  for (auto v : r)
    if (v > 0) p.push_back(v);
  return p;
}

// Compiles src in each mode and checks fn(args) against want in all of them.
void checkAllModes(const std::string &src, const std::string &fn, const std::vector<Value> &args,
                   const std::vector<int64_t> &want) {
  for (Nested n : {Nested::Auto, Nested::Flatten, Nested::Sequential}) {
    LowerOptions lo;
    lo.nested = n;
    auto c = compile(src, lo);
    REQUIRE_MESSAGE(c.ok, c.errors);
    INFO("mode " << int(n) << ", " << fn);
    CHECK(run2(c, fn, args)[0].ints() == want);
  }
}
} // namespace

TEST_CASE("nested: filter, sort, reduce_by_key, scan, hist inside a body agree in every scheme") {
  std::string src =
      "export int[[*]] second(int[[*,*]] m) = [(let p = filter(\\v -> v > 0, m[i, :]) in if length(p) > 1 then p[1] else -1) | i <- iota(m.size(0))];\n"
      "export int[[*]] median(int[[*,*]] m) = [(let s = sort(filter(\\v -> v > 0, m[i, :])) in if length(s) > 0 then s[length(s) / 2] else -1) | i <- iota(m.size(0))];\n"
      "export int[[*]] distinct(int[[*,*]] m) = [length(reduce_by_key((+), 0, m[i, :], replicate(m.size(1), 1)).0) | i <- iota(m.size(0))];\n"
      "export int[[*]] rbk(int[[*,*]] m) = [(let (k, s) = reduce_by_key((+), 0, map(\\v -> v % 3, m[i, :]), m[i, :]) in k[0] * 1000 + s[length(s) - 1]) | i <- iota(m.size(0))];\n"
      "export int[[*]] scanned(int[[*,*]] m) = [(let s = scan((+), 0, filter(\\v -> v != 0, m[i, :])) in if length(s) > 1 then s[1] else 0) | i <- iota(m.size(0))];\n"
      "export int[[*]] hist3(int[[*,*]] m) = [(let h = hist((+), 0, 3, map(\\v -> abs(v) % 3, m[i, :]), m[i, :]) in h[0] * 100 + h[2]) | i <- iota(m.size(0))];\n"
      "export int[[*]] cat(int[[*,*]] m) = [(reverse(filter(\\v -> v > 0, m[i, :])) ++ filter(\\v -> v <= 0, m[i, :]))[1] | i <- iota(m.size(0))];\n";
  Value M = matrix(kRows);
  std::vector<int64_t> second, median, distinct, rbk, scanned, hist3, cat;
  for (auto &r : kRows) {
    auto p = positive(r);
    second.push_back(p.size() > 1 ? p[1] : -1);
    auto s = p;
    std::sort(s.begin(), s.end());
    median.push_back(s.empty() ? -1 : s[s.size() / 2]);
    std::map<int64_t, int64_t> byKey, byMod;
    for (auto v : r) byKey[v] += 1, byMod[v % 3] += v;
    distinct.push_back(int64_t(byKey.size()));
    rbk.push_back(byMod.begin()->first * 1000 + byMod.rbegin()->second);
    std::vector<int64_t> nz, pre;
    for (auto v : r)
      if (v != 0) nz.push_back(v);
    int64_t acc = 0;
    for (auto v : nz) pre.push_back(acc += v);
    scanned.push_back(pre.size() > 1 ? pre[1] : 0);
    int64_t h[3] = {0, 0, 0};
    for (auto v : r) h[std::abs(v) % 3] += v;
    hist3.push_back(h[0] * 100 + h[2]);
    std::vector<int64_t> c(p.rbegin(), p.rend());
    for (auto v : r)
      if (v <= 0) c.push_back(v);
    cat.push_back(c[1]);
  }
  checkAllModes(src, "second", {M}, second);
  checkAllModes(src, "median", {M}, median);
  checkAllModes(src, "distinct", {M}, distinct);
  checkAllModes(src, "rbk", {M}, rbk);
  checkAllModes(src, "scanned", {M}, scanned);
  checkAllModes(src, "hist3", {M}, hist3);
  checkAllModes(src, "cat", {M}, cat);
}

TEST_CASE("nested: the scheme chosen is in the notes, and each mode is forced") {
  std::string src =
      "export int[[*]] big(int[[*,*]] m) = [(let p = filter(\\v -> v > 0, m[i, :]) in p[0]) | i <- iota(m.size(0))];\n"
      "export int[[*]] small(int n) = [sort([x, 3, 1, 2])[0] | x <- iota(n)];\n";
  auto a = compile(src);
  REQUIRE_MESSAGE(a.ok, a.errors);
  std::string ir = dump(a.lowered);
  CHECK(ir.find("nested filter 1:47 in comprehension 1:37: flattened into segments") != std::string::npos);
  CHECK(ir.find("nested sort 2:33: sequentialised (inner size 4 <= 32") != std::string::npos);
  LowerOptions seq;
  seq.nested = Nested::Sequential;
  auto s = compile(src, seq);
  REQUIRE(s.ok);
  CHECK(dump(s.lowered).find("flattened") == std::string::npos);
  CHECK(countKind(s.lowered.functions[0].body, ir::StmtKind::Expand) == 0);
  LowerOptions fl;
  fl.nested = Nested::Flatten;
  auto f = compile(src, fl);
  REQUIRE(f.ok);
  CHECK(dump(f.lowered).find("nested sort 2:33 in comprehension 2:32: flattened") != std::string::npos);
  CHECK(countKind(f.lowered.functions[1].body, ir::StmtKind::Sort) == 2);
  CHECK(run2(f, "small", {Value::scalarInt(3)})[0].ints() == std::vector<int64_t>{0, 1, 1});
}

TEST_CASE("nested: indexing a flattened array is checked against its own segment") {
  std::string src = "export int[[*]] at(int[[*,*]] m, int k) = [filter(\\v -> v > 0, m[i, :])[k] | i <- iota(m.size(0))];\n";
  for (Nested n : {Nested::Flatten, Nested::Sequential}) {
    LowerOptions lo;
    lo.nested = n;
    auto c = compile(src, lo);
    REQUIRE_MESSAGE(c.ok, c.errors);
    Value M = matrix({{1, 2, -3}, {4, -5, 6}});
    CHECK(run2(c, "at", {M, Value::scalarInt(1)})[0].ints() == std::vector<int64_t>{2, 6});
    Value N = matrix({{1, 2, -3}, {4, -5, -6}}); // the second row has one positive element
    try {
      ir::interpret(c.optimized, "at", {N, Value::scalarInt(1)});
      FAIL("expected a bounds error");
    } catch (const ir::RuntimeError &e) {
      CHECK(e.code == ir::Check::Bounds);
      REQUIRE(e.pos >= 0);
      CHECK(c.optimized.positions[size_t(e.pos)].find(":1:") != std::string::npos);
    }
  }
}

TEST_CASE("nested: a check inside a stdlib function is positioned at the call, with a note") {
  auto c = compile("export int t(int[[*]] v, int[[*]] xs) = dot(v, xs);\n"
                   "export int[[*]] tb(int[[*]] v, int[[*,*]] m) = [dot(m[i, :], v) | i <- iota(m.size(0))];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  for (const char *fn : {"t", "tb"}) {
    std::vector<Value> args{ivec({1, 2, 3}), std::string(fn) == "t" ? ivec({1, 2}) : matrix({{1, 2}})};
    try {
      ir::interpret(c.optimized, fn, args);
      FAIL("expected a size error");
    } catch (const ir::RuntimeError &e) {
      REQUIRE(e.pos >= 0);
      const std::string &p = c.optimized.positions[size_t(e.pos)];
      INFO(p);
      CHECK(p.find(std::string(fn) == "t" ? ":1:41\nnote: in dot at " : ":2:49\nnote: in dot at ") != std::string::npos);
      CHECK(p.find("linalg.arr:") != std::string::npos);
    }
  }
}

TEST_CASE("nested: a loop with growing array state inside a body, in every scheme") {
  std::string src = "export int[[*]] g(int[[*]] ns) = [sum(loop (a = [n]) for i < n do a ++ map(\\v -> v + i, a)) | n <- ns];\n";
  std::vector<int64_t> want;
  for (int n : {0, 1, 3, 5}) {
    std::vector<int64_t> a{n};
    for (int i = 0; i < n; ++i) {
      auto b = a;
      for (auto v : a) b.push_back(v + i);
      a = b;
    }
    int64_t s = 0;
    for (auto v : a) s += v;
    want.push_back(s);
  }
  checkAllModes(src, "g", {ivec({0, 1, 3, 5})}, want);
}
