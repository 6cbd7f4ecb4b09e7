// Unit tests of the fusions of issue 12 (docs/lowering.md, Passes): expand
// into reduce / filter, counting filters, producers fused into hist and
// scatter (through flattening views and checked sizes), horizontal hist
// fusion, CSE in device code. Each program runs in the interpreter before and
// after optimize (run2: both must agree) and against a C++ reference, and
// the optimized IR is checked for the fused form.
#include "Helpers.h"

#include <algorithm>
#include <functional>

using namespace arrc;
using ir::Value;
using namespace lowering_test;

namespace {

const ir::Function &fn(const ir::Module &m, const std::string &name) {
  for (auto &f : m.functions)
    if (f.name == name) return f;
  FAIL("no function " << name);
  return m.functions.at(0);
}

// The top-level Expands of a function, by `into`.
int expands(const ir::Block &b, ir::Expand::Into into) {
  int n = 0;
  for (auto &s : b.stmts)
    if (s->kind == ir::StmtKind::Expand && static_cast<const ir::Expand &>(*s).into == into) n++;
  return n;
}

// A hand-built export: xs -> expand (i < |xs|) size xs[i] (j) body.
struct HandExpand {
  ir::Module m;
  std::shared_ptr<ir::Expand> e;
  int xs;
};
HandExpand handExpand(ir::Expand::Into into) {
  using namespace ir;
  HandExpand h;
  h.m.name = "t";
  Function f;
  f.name = "f";
  h.xs = h.m.newVar("xs", arrayT(ScalarKind::Int, 1));
  f.paramNames = {"xs"};
  f.paramTypes = {arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Int), 1)};
  f.paramVars = {{h.xs}};
  auto e = std::make_shared<Expand>();
  e->into = into;
  e->n = shapeExp(varExp(h.m, h.xs), 0);
  e->index = h.m.newVar("i", scalarT(ScalarKind::Long));
  e->inner = h.m.newVar("j", scalarT(ScalarKind::Long));
  e->size.results = {toLong(readExp(varExp(h.m, h.xs), {varExp(h.m, e->index)}))};
  // element: 10 * i + j
  ExpP el = convertExp(addL(mulL(varExp(h.m, e->index), constLong(10)), varExp(h.m, e->inner)), ScalarKind::Int);
  if (into == Expand::Filter) {
    ExpP odd = binaryExp(BinOp::Eq, binaryExp(BinOp::Mod, el, constInt(2)), constInt(1));
    e->body.results = {odd, el};
  } else {
    e->body.results = {el};
  }
  if (into == Expand::Reduce) {
    // a non-commutative fold: acc * 3 + x (in order)
    int a = h.m.newVar("a", scalarT(ScalarKind::Int)), b = h.m.newVar("b", scalarT(ScalarKind::Int));
    e->op.params = {a, b};
    e->op.body.results = {binaryExp(BinOp::Add, binaryExp(BinOp::Mul, varExp(h.m, a), constInt(3)), varExp(h.m, b))};
    e->ne = {constInt(1)};
  }
  int out = h.m.newVar("o", into == Expand::Reduce ? scalarT(ScalarKind::Int) : arrayT(ScalarKind::Int, 1));
  e->outs = {out};
  f.body.stmts.push_back(e);
  f.body.results = {varExp(h.m, out)};
  f.resultType = into == Expand::Reduce ? arrc::Type::scalarOf(ScalarKind::Int)
                                        : arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Int), 1);
  h.m.functions.push_back(f);
  h.e = e;
  return h;
}

} // namespace

TEST_CASE("interpreter and printer: expand into reduce / filter on hand-built IR") {
  // sizes [2, 0, 3]: elements 0 1 | - | 20 21 22
  Value xs = ivec({2, 0, 3});
  {
    auto h = handExpand(ir::Expand::Array);
    CHECK(ir::interpret(h.m, "f", {xs})[0].ints() == std::vector<int64_t>{0, 1, 20, 21, 22});
  }
  {
    auto h = handExpand(ir::Expand::Reduce);
    int64_t acc = 1;
    for (int64_t x : {0, 1, 20, 21, 22}) acc = acc * 3 + x; // in order
    CHECK(ir::interpret(h.m, "f", {xs})[0].i == acc);
    CHECK(ir::interpret(h.m, "f", {ivec({})})[0].i == 1); // ne
    std::string d = dump(h.m);
    CHECK(d.find("o_5: int = expand into reduce (i_1 < xs_0.shape(0)) size {") != std::string::npos);
    CHECK(d.find("} op (a_3: int, b_4: int) {") != std::string::npos);
    CHECK(d.find("} ne (1)") != std::string::npos);
  }
  {
    auto h = handExpand(ir::Expand::Filter);
    CHECK(ir::interpret(h.m, "f", {xs})[0].ints() == std::vector<int64_t>{1, 21});
    CHECK(ir::interpret(h.m, "f", {ivec({})})[0].ints().empty());
    std::string d = dump(h.m);
    CHECK(d.find("o_3: int[[*]] = expand into filter (i_1 < xs_0.shape(0)) size {") != std::string::npos);
    CHECK(d.find(" op (") == std::string::npos);
  }
}

TEST_CASE("expand into reduce: Pythagorean count, double and long sums, a tuple fold") {
  auto c = compile(
      "export int pyth(int n) = sum([1 | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z]);\n"
      "export double wsum(int n) {\n"
      "  let a = [double(i % 7) * 0.5 | i <- iota(n)];\n"
      "  return sum([a[i] * double(j) | i <- iota(n), j <- [0..<i]]);\n"
      "}\n"
      "export long lsum(int n) = reduce((+), 0L, [long(x) * long(y) | x <- [0..<n], y <- [x..<n]]);\n"
      "export (int, int) best(int n) =\n"
      "  reduce(\\a b -> if a.1 >= b.1 then a else b, (0, -1), [(x * 100 + y, (x * y) % 17) | x <- [0..<n], y <- [0..<x]]);\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  for (int n : {1, 2, 30, 60}) {
    int ref = 0;
    for (int x = 1; x < n; ++x)
      for (int y = x; y < n; ++y)
        for (int z = y; z < x + y; ++z) ref += z < n && x * x + y * y == z * z;
    CHECK(run2(c, "pyth", {Value::scalarInt(n)})[0].i == ref);
  }
  // pyth: plans by device (FuseExpandLoop.cpp). GPUs: the (x, y) expand is
  // materialised, then ONE expand into reduce. CPUs: one expand into reduce
  // over the pairs, each folding its z's in a loop.
  auto &py = fn(c.optimized, "pyth").body;
  REQUIRE(py.stmts.size() >= 1);
  const ir::Stmt *plans = nullptr;
  for (auto &st : py.stmts)
    if (st->kind == ir::StmtKind::If) plans = st.get();
  REQUIRE(plans != nullptr);
  auto &cpu = static_cast<const ir::If &>(*plans).thenB, &gpu = static_cast<const ir::If &>(*plans).elseB;
  CHECK(static_cast<const ir::If &>(*plans).cond->fn == "inner_loops_sequential");
  CHECK(expands(gpu, ir::Expand::Array) == 1);
  CHECK(expands(gpu, ir::Expand::Reduce) == 1);
  CHECK(topSoacs(gpu) == 2);
  CHECK(expands(cpu, ir::Expand::Array) == 0);
  CHECK(expands(cpu, ir::Expand::Reduce) == 1);
  CHECK(topSoacs(cpu) == 1);
  CHECK(countKind(cpu, ir::StmtKind::Loop) == 1);
  CHECK(countKind(py, ir::StmtKind::Filter) == 0);
  CHECK(countKind(py, ir::StmtKind::Reduce) == 0);
  CHECK(countKind(fn(c.lowered, "pyth").body, ir::StmtKind::Filter) == 1);

  for (int n : {0, 1, 10, 100}) {
    std::vector<double> a;
    for (int i = 0; i < n; ++i) a.push_back((i % 7) * 0.5);
    double ref = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < i; ++j) ref += a[i] * j;
    CHECK(run2(c, "wsum", {Value::scalarInt(n)})[0].f == ref);
  }
  CHECK(expands(fn(c.optimized, "wsum").body, ir::Expand::Reduce) == 1);

  for (int n : {0, 7, 300}) {
    int64_t ref = 0;
    for (int64_t x = 0; x < n; ++x)
      for (int64_t y = x; y < n; ++y) ref += x * y;
    CHECK(run2(c, "lsum", {Value::scalarInt(n)})[0].i == ref);
  }
  auto &ls = fn(c.optimized, "lsum").body;
  CHECK(expands(ls, ir::Expand::Reduce) == 1);
  CHECK(topSoacs(ls) == 1);

  for (int n : {0, 1, 5, 9, 20}) {
    int b0 = 0, b1 = -1;
    for (int x = 0; x < n; ++x)
      for (int y = 0; y < x; ++y)
        if (!(b1 >= (x * y) % 17)) b0 = x * 100 + y, b1 = (x * y) % 17;
    auto r = run2(c, "best", {Value::scalarInt(n)});
    CHECK(r[0].i == b0);
    CHECK(r[1].i == b1);
  }
  auto &bt = fn(c.optimized, "best").body;
  CHECK(expands(bt, ir::Expand::Reduce) == 1);
  CHECK(topSoacs(bt) == 1);
}

TEST_CASE("expand into filter: triples and pairs; unused value columns are dropped") {
  auto c = compile(
      "export (int,int,int)[[*]] triples(int n) = [(x, y, z) | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z];\n"
      "export int[[*]] evens(int n) = [x * 10 + y | x <- [0..<n], y <- [0..<x], (x + y) % 2 == 0];\n"
      "export int[[*]] firsts(int n) {\n"
      "  let (xs, _ys) = unzip([(x, y) | x <- [1..<n], y <- [x..<n], (x * y) % 3 == 1]);\n"
      "  return xs;\n"
      "}\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  for (int n : {1, 30, 60}) {
    std::vector<int64_t> X, Y, Z;
    for (int x = 1; x < n; ++x)
      for (int y = x; y < n; ++y)
        for (int z = y; z < x + y; ++z)
          if (z < n && x * x + y * y == z * z) X.push_back(x), Y.push_back(y), Z.push_back(z);
    auto r = run2(c, "triples", {Value::scalarInt(n)});
    CHECK(r[0].ints() == X);
    CHECK(r[1].ints() == Y);
    CHECK(r[2].ints() == Z);
  }
  auto &tr = fn(c.optimized, "triples").body;
  CHECK(expands(tr, ir::Expand::Array) == 1);
  CHECK(expands(tr, ir::Expand::Filter) == 1);
  CHECK(countKind(tr, ir::StmtKind::Filter) == 0);
  std::vector<int64_t> ev;
  for (int x = 0; x < 9; ++x)
    for (int y = 0; y < x; ++y)
      if ((x + y) % 2 == 0) ev.push_back(x * 10 + y);
  CHECK(run2(c, "evens", {Value::scalarInt(9)})[0].ints() == ev);
  CHECK(expands(fn(c.optimized, "evens").body, ir::Expand::Filter) == 1);
  std::vector<int64_t> fs;
  for (int x = 1; x < 12; ++x)
    for (int y = x; y < 12; ++y)
      if ((x * y) % 3 == 1) fs.push_back(x);
  CHECK(run2(c, "firsts", {Value::scalarInt(12)})[0].ints() == fs);
  auto &fi = fn(c.optimized, "firsts").body;
  REQUIRE(expands(fi, ir::Expand::Filter) == 1);
  for (auto &s : fi.stmts)
    if (s->kind == ir::StmtKind::Expand) {
      CHECK(s->outs.size() == 1); // the y column is gone
      CHECK(static_cast<const ir::Expand &>(*s).body.results.size() == 2); // keep, x
    }
}

TEST_CASE("a filter used only through its length counts (reduce / expand into reduce)") {
  auto c = compile("export int fc(int[[*]] xs) = length(filter(\\x -> x % 20 == 0, [x + 15 | x <- xs]));\n"
                   "export int cnt(int n) = length([(x, y) | x <- [1..<n], y <- [x..<n], (x * y) % 3 == 1]);\n"
                   "export (int, int) both(int[[*]] xs) {\n"
                   "  let f = filter(\\x -> x > 2, xs);\n"
                   "  return (length(f), f.size(0) * 2);\n"
                   "}\n"
                   "export int[[*]] kept(int[[*]] xs) = filter(\\x -> x > 2, xs);\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(run2(c, "fc", {ivec({5, 25, 45, 1, 2, 3, 65})})[0].i == 4);
  CHECK(run2(c, "fc", {ivec({})})[0].i == 0);
  auto &f = fn(c.optimized, "fc").body;
  CHECK(countKind(f, ir::StmtKind::Filter) == 0);
  CHECK(countKind(f, ir::StmtKind::Map) == 0);
  CHECK(countKind(f, ir::StmtKind::Reduce) == 1);
  for (int n : {0, 1, 8, 40}) {
    int ref = 0;
    for (int x = 1; x < n; ++x)
      for (int y = x; y < n; ++y) ref += (x * y) % 3 == 1;
    CHECK(run2(c, "cnt", {Value::scalarInt(n)})[0].i == ref);
  }
  auto &cn = fn(c.optimized, "cnt").body;
  CHECK(expands(cn, ir::Expand::Reduce) == 1);
  CHECK(topSoacs(cn) == 1);
  CHECK(countKind(cn, ir::StmtKind::Filter) == 0);
  auto r = run2(c, "both", {ivec({1, 3, 5, 2, 7})});
  CHECK(r[0].i == 3);
  CHECK(r[1].i == 6);
  CHECK(countKind(fn(c.optimized, "both").body, ir::StmtKind::Filter) == 0);
  // the compacted array itself is a result: it stays a Filter
  CHECK(run2(c, "kept", {ivec({1, 3, 5, 2, 7})})[0].ints() == std::vector<int64_t>{3, 5, 7});
  CHECK(countKind(fn(c.optimized, "kept").body, ir::StmtKind::Filter) == 1);
}

namespace {
const char *kKstep =
    "def double dist2(double[[*]] a, double[[*]] b) = sum([(x - y) * (x - y) | x <- a | y <- b]);\n"
    "export (int[[*]], int[[*]], double[[*]]) kstep(double[[*,*]] P, double[[*,*]] C) {\n"
    "  let M = P.size(0);\n"
    "  let k = C.size(0);\n"
    "  let d = P.size(1);\n"
    "  let ids = [argmin([dist2(P[i, :], C[c, :]) | c <- iota(k)]) | i <- iota(M)];\n"
    "  let counts = hist((+), 0, k, ids, replicate(M, 1));\n"
    "  let sums = hist((+), 0.0, k * d, [ids[i] * d + j | i <- iota(M), j <- iota(d)], flatten(P));\n"
    "  return (ids, counts, sums);\n"
    "}\n";
}

TEST_CASE("k-means step: both hists read no materialised producer but ids; CSE in argmin's fold") {
  auto c = compile(kKstep);
  REQUIRE_MESSAGE(c.ok, c.errors);
  const int M = 37, d = 3, k = 4;
  std::vector<double> P, C;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < d; ++j) P.push_back(double((i * 13 + j * 7) % 17));
  for (int q = 0; q < k; ++q)
    for (int j = 0; j < d; ++j) C.push_back(double((q * 5 + j * 3) % 17));
  std::vector<int64_t> ids, counts(k, 0);
  std::vector<double> sums(k * d, 0.0);
  for (int i = 0; i < M; ++i) {
    int best = -1;
    double bd = 0;
    for (int q = 0; q < k; ++q) {
      double s = 0;
      for (int j = 0; j < d; ++j) s += (P[i * d + j] - C[q * d + j]) * (P[i * d + j] - C[q * d + j]);
      if (best < 0 || s < bd) best = q, bd = s;
    }
    ids.push_back(best);
    counts[best]++;
    for (int j = 0; j < d; ++j) sums[best * d + j] += P[i * d + j];
  }
  auto r = run2(c, "kstep", {Value::arrayFloat(P, {M, d}), Value::arrayFloat(C, {k, d})});
  CHECK(r[0].ints() == ids);
  CHECK(r[1].ints() == counts);
  CHECK(r[2].floats() == sums);
  auto &b = c.optimized.functions[0].body;
  CHECK(countKind(b, ir::StmtKind::Hist) == 2);
  CHECK(countKind(b, ir::StmtKind::Map) == 1); // ids
  CHECK(countKind(b, ir::StmtKind::View) == 0);
  CHECK(countKind(c.lowered.functions[0].body, ir::StmtKind::Map) == 3);
  // argmin's fold: each select condition once per step of the fold (JamLoops:
  // two centres per step, then the last of an odd count alone: three steps),
  // the tie-break `int(k) < p` gone (the index state p is below k).
  std::string ir = dump(c.optimized);
  CHECK(ir.find("&& (int(") == std::string::npos);
  CHECK(ir.find("let cse_") != std::string::npos);
  auto count = [&](const std::string &needle) {
    size_t n = 0;
    for (size_t p = ir.find(needle); p != std::string::npos; p = ir.find(needle, p + 1)) n++;
    return n;
  };
  CHECK(count(": bool = (acc_") >= 3);
  CHECK(count("for c2_") == 1);
}

TEST_CASE("horizontal hist fusion: counts and per-dimension sums over the same keys are one hist") {
  auto c = compile(
      "export (int[[*]], double[[*]], double[[*]]) stats(int[[*]] ids, double[[*,*]] X, int k) {\n"
      "  let n = ids.size(0);\n"
      "  let counts = hist((+), 0, k, ids, replicate(n, 1));\n"
      "  let sx = hist((+), 0.0, k, ids, X[:, 0]);\n"
      "  let sy = hist((+), 0.0, k, ids, [X[i, 1] * 2.0 | i <- iota(n)]);\n"
      "  return (counts, sx, sy);\n"
      "}\n"
      "export (int[[*]], int[[*]], int[[*]]) ihist(int[[*]] a, int k) {\n"
      "  let keys = [x % k | x <- a];\n"
      "  return (hist((+), 0, k, keys, replicate(a.size(0), 1)), hist((max), 0, k, keys, [x * x | x <- a]), hist((+), 0, k, keys, a));\n"
      "}\n"
      "export (int[[*]], int[[*]]) apart(int[[*]] a, int k) = (hist((+), 0, k, [x % k | x <- a], a), hist((+), 0, k + 1, [x % k | x <- a], a));\n"
      "export (int[[*]], int[[*]]) dep(int[[*]] a, int k) {\n"
      "  let h = hist((+), 0, k, [x % k | x <- a], a);\n"
      "  return (h, hist((+), 0, k, [x % k | x <- a], [x + h[0] | x <- a]));\n"
      "}\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  std::vector<int64_t> ids = {0, 2, 1, 0, 5, -1, 2, 2};
  std::vector<double> X;
  for (int i = 0; i < 8; ++i) X.push_back(i + 1.0), X.push_back(i + 0.5);
  auto r = run2(c, "stats", {ivec(ids), Value::arrayFloat(X, {8, 2}), Value::scalarInt(3)});
  std::vector<int64_t> cnt(3, 0);
  std::vector<double> sx(3, 0.0), sy(3, 0.0);
  for (int i = 0; i < 8; ++i)
    if (ids[i] >= 0 && ids[i] < 3) cnt[ids[i]]++, sx[ids[i]] += X[2 * i], sy[ids[i]] += X[2 * i + 1] * 2.0;
  CHECK(r[0].ints() == cnt);
  CHECK(r[1].floats() == sx);
  CHECK(r[2].floats() == sy);
  auto &st = fn(c.optimized, "stats").body;
  CHECK(countKind(st, ir::StmtKind::Hist) == 1);
  CHECK(countKind(st, ir::StmtKind::Map) == 0);
  for (auto &s : st.stmts)
    if (s->kind == ir::StmtKind::Hist) {
      auto &h = static_cast<const ir::Hist &>(*s);
      CHECK(h.outs.size() == 3);
      CHECK(h.ne.size() == 3);
      CHECK(h.op.params.size() == 6);
      CHECK(h.body.results.size() == 4);
    }

  std::vector<int64_t> a = {3, 8, 5, 12, 7, 1, 0, 9};
  std::vector<int64_t> h1(4, 0), h2(4, 0), h3(4, 0);
  for (auto x : a) h1[x % 4]++, h2[x % 4] = std::max(h2[x % 4], x * x), h3[x % 4] += x;
  auto q = run2(c, "ihist", {ivec(a), Value::scalarInt(4)});
  CHECK(q[0].ints() == h1);
  CHECK(q[1].ints() == h2);
  CHECK(q[2].ints() == h3);
  CHECK(countKind(fn(c.optimized, "ihist").body, ir::StmtKind::Hist) == 1);
  CHECK(countKind(fn(c.optimized, "ihist").body, ir::StmtKind::Map) == 0);

  // different bins: two hists; the second depending on the first: two hists
  auto p = run2(c, "apart", {ivec(a), Value::scalarInt(4)});
  CHECK(p[0].ints() == h3);
  CHECK(countKind(fn(c.optimized, "apart").body, ir::StmtKind::Hist) == 2);
  auto dd = run2(c, "dep", {ivec(a), Value::scalarInt(4)});
  CHECK(dd[0].ints() == h3);
  CHECK(countKind(fn(c.optimized, "dep").body, ir::StmtKind::Hist) == 2);
}

TEST_CASE("producers fuse into scatter, also through flatten of a map nest") {
  auto c = compile(
      "export int[[*]] scat(int n) = scatter(replicate(n, 0), [x * 3 | x <- iota(n)], [x * 2 | x <- iota(n)]);\n"
      "export double[[*]] fl(double[[*,*]] A, int[[*]] is) = scatter(replicate(is.size(0), 0.0), is, flatten([[x * 2.0 | x <- r] | r <- A]));\n"
      "export double[[*]] flres(double[[*,*]] A) = flatten([[x + 1.0 | x <- r] | r <- A]);\n"
      "export int sumsq(int n, int m) = sum(flatten([[i * j | j <- iota(m)] | i <- iota(n)]));\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  std::vector<int64_t> ref(10, 0);
  for (int x = 0; 3 * x < 10; ++x) ref[3 * x] = 2 * x;
  CHECK(run2(c, "scat", {Value::scalarInt(10)})[0].ints() == ref);
  auto &sc = fn(c.optimized, "scat").body;
  CHECK(countKind(sc, ir::StmtKind::Map) == 1); // the destination (copied by scatter)
  std::vector<double> A = {1, 2, 3, 4, 5, 6};
  auto r = run2(c, "fl", {Value::arrayFloat(A, {2, 3}), ivec({5, 4, 3, 2, 1, 0})});
  CHECK(r[0].floats() == std::vector<double>{12, 10, 8, 6, 4, 2});
  auto &fb = fn(c.optimized, "fl").body;
  CHECK(countKind(fb, ir::StmtKind::Map) == 1); // the destination only
  CHECK(countKind(fb, ir::StmtKind::View) == 0);
  // not consumed further: a View of the nest (no copy)
  CHECK(run2(c, "flres", {Value::arrayFloat(A, {2, 3})})[0].floats() == std::vector<double>{2, 3, 4, 5, 6, 7});
  auto &fr = fn(c.optimized, "flres").body;
  CHECK(countKind(fr, ir::StmtKind::Map) == 1);
  CHECK(countKind(fr, ir::StmtKind::View) == 1);
  int s = 0;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) s += i * j;
  CHECK(run2(c, "sumsq", {Value::scalarInt(5), Value::scalarInt(4)})[0].i == s);
  auto &sq = fn(c.optimized, "sumsq").body;
  CHECK(topSoacs(sq) == 1);
  CHECK(countKind(sq, ir::StmtKind::Reduce) == 1);
}

TEST_CASE("CSE binds repeated subexpressions in bodies, never bounds-checked reads") {
  auto c = compile("export double[[*]] poly(double[[*]] xs) = [(x * x + 1.0) * (x * x + 1.0) - x * x | x <- xs];\n"
                   "export int[[*]] chk(int[[*]] xs, int[[*]] ys) = [xs[y] * xs[y] + xs[y + 1] | y <- ys];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  std::vector<double> xs = {0.5, -2, 3};
  std::vector<double> ref;
  for (double x : xs) ref.push_back((x * x + 1.0) * (x * x + 1.0) - x * x);
  CHECK(run2(c, "poly", {dvec(xs)})[0].floats() == ref);
  CHECK(countKind(fn(c.optimized, "poly").body, ir::StmtKind::Let) == 4); // n; x, x*x, x*x + 1
  CHECK(run2(c, "chk", {ivec({1, 2, 3, 4}), ivec({0, 2})})[0].ints() == std::vector<int64_t>{3, 13});
  CHECK(countKind(fn(c.optimized, "chk").body, ir::StmtKind::Let) == 2); // n; y: checked reads stay
  for (auto *m : {&c.lowered, &c.optimized}) CHECK_THROWS_AS(ir::interpret(*m, "chk", {ivec({1, 2}), ivec({1})}), ir::RuntimeError);
}

TEST_CASE("loop-invariant Lets leave device loops; a hoisted guard still raises only if the loop runs") {
  auto c = compile("export int[[*]] inv(int[[*]] xs, int m) = [sum([iota(3)[x] * j + x * x | j <- iota(m)]) | x <- xs];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  std::vector<int64_t> ref;
  for (int x : {0, 2, 1}) {
    int s = 0;
    for (int j = 0; j < 4; ++j) s += x * j + x * x;
    ref.push_back(s);
  }
  CHECK(run2(c, "inv", {ivec({0, 2, 1}), Value::scalarInt(4)})[0].ints() == ref);
  // x = 7 is out of range for iota(3), but with m = 0 the loop never reads it
  CHECK(run2(c, "inv", {ivec({7}), Value::scalarInt(0)})[0].ints() == std::vector<int64_t>{0});
  for (auto *m : {&c.lowered, &c.optimized}) {
    try {
      ir::interpret(*m, "inv", {ivec({1, 7}), Value::scalarInt(2)});
      FAIL("no error");
    } catch (const ir::RuntimeError &e) {
      CHECK(e.code == ir::Check::Bounds);
    }
  }
  // the loop body keeps only j's Let; the guarded index is computed once, before it
  const ir::Loop *loop = nullptr;
  std::function<void(const ir::Block &)> find = [&](const ir::Block &b) {
    for (auto &s : b.stmts) {
      if (s->kind == ir::StmtKind::Loop) loop = static_cast<const ir::Loop *>(s.get());
      ir::forEachBlock(static_cast<const ir::Stmt &>(*s), find);
    }
  };
  find(c.optimized.functions[0].body);
  REQUIRE(loop);
  CHECK(loop->body.stmts.size() == 1);
  CHECK(countKind(c.optimized.functions[0].body, ir::StmtKind::If) == 1);
}

TEST_CASE("a map or filter over a filter's or expand into filter's outputs joins it, guarded by the keep flag") {
  auto c = compile("export int[[*]] safe(int[[*]] xs, int[[*]] is) = map(\\i -> xs[i], filter(\\i -> i >= 0 && i < xs.size(0), is));\n"
                   "export int[[*]] ff(int[[*]] xs, int[[*]] is) = filter(\\i -> xs[i] > 1, filter(\\i -> i >= 0 && i < xs.size(0), is));\n"
                   "export int[[*]] ef(int n) = filter(\\v -> v % 3 == 0, [x * y | x <- [0..<n], y <- [0..<x], y % 2 == 1]);\n"
                   "export int[[*]] mf(int n) = map(\\v -> v * 2, [x * y | x <- [0..<n], y <- [0..<x], y % 2 == 1]);\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  // 5 and -3 are dropped before the map would read xs out of range
  CHECK(run2(c, "safe", {ivec({10, 20}), ivec({0, 5, 1, -3})})[0].ints() == std::vector<int64_t>{10, 20});
  auto &sf = fn(c.optimized, "safe").body;
  CHECK(countKind(sf, ir::StmtKind::Map) == 0);
  CHECK(countKind(sf, ir::StmtKind::Filter) == 1);
  std::vector<int64_t> ref;
  for (int x = 0; x < 7; ++x)
    for (int y = 0; y < x; ++y)
      if (y % 2 == 1) ref.push_back(2 * x * y);
  CHECK(run2(c, "mf", {Value::scalarInt(7)})[0].ints() == ref);
  auto &mf = fn(c.optimized, "mf").body;
  CHECK(countKind(mf, ir::StmtKind::Map) == 0);
  CHECK(expands(mf, ir::Expand::Filter) == 1);
  CHECK(topSoacs(mf) == 1);
  CHECK(run2(c, "ff", {ivec({1, 5, 2}), ivec({0, 9, 1, 2, -1, 1})})[0].ints() == std::vector<int64_t>{1, 2, 1});
  CHECK(countKind(fn(c.optimized, "ff").body, ir::StmtKind::Filter) == 1);
  std::vector<int64_t> ef;
  for (int x = 0; x < 9; ++x)
    for (int y = 0; y < x; ++y)
      if (y % 2 == 1 && (x * y) % 3 == 0) ef.push_back(x * y);
  CHECK(run2(c, "ef", {Value::scalarInt(9)})[0].ints() == ef);
  CHECK(topSoacs(fn(c.optimized, "ef").body) == 1);
  CHECK(expands(fn(c.optimized, "ef").body, ir::Expand::Filter) == 1);
}
