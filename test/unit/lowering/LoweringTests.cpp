// Unit tests of the lowering: the IR interpreter against independent C++
// references (before and after optimize), the comprehension schemes chosen
// (regular map nest / expand / fallback), views, and fusion counts.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "Helpers.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <sstream>
#include <tuple>

using namespace arrc;
using ir::Value;
using namespace lowering_test;


TEST_CASE("interpreter: hand-built IR map + reduce") {
  using namespace ir;
  ir::Module m;
  m.name = "t";
  Function f;
  f.name = "f";
  int xs = m.newVar("xs", arrayT(ScalarKind::Int, 1));
  f.paramNames = {"xs"};
  f.paramTypes = {arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Int), 1)};
  f.paramVars = {{xs}};
  f.resultType = arrc::Type::scalarOf(ScalarKind::Int);
  auto r = std::make_shared<Reduce>();
  r->n = shapeExp(varExp(m, xs), 0);
  r->index = m.newVar("i", scalarT(ScalarKind::Long));
  r->body.results = {binaryExp(BinOp::Mul, readExp(varExp(m, xs), {varExp(m, r->index)}), constInt(2))};
  int a = m.newVar("a", scalarT(ScalarKind::Int)), b = m.newVar("b", scalarT(ScalarKind::Int));
  r->op.params = {a, b};
  r->op.body.results = {binaryExp(BinOp::Add, varExp(m, a), varExp(m, b))};
  r->ne = {constInt(0)};
  int out = m.newVar("s", scalarT(ScalarKind::Int));
  r->outs = {out};
  f.body.stmts.push_back(r);
  f.body.results = {varExp(m, out)};
  m.functions.push_back(f);
  auto res = interpret(m, "f", {ivec({1, 2, 3, 4})});
  CHECK(res[0].i == 20);
  std::ostringstream o;
  printIR(m, o);
  CHECK(o.str().find("reduce (i_1 < xs_0.shape(0))") != std::string::npos);
}

TEST_CASE("dot product: zip comprehension fused into one Reduce") {
  auto c = compile("export double dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  auto r = run2(c, "dot", {dvec({1, 2, 3}), dvec({4, 5, 6})});
  CHECK(r[0].f == 32.0);
  auto &body = c.optimized.functions[0].body;
  CHECK(countKind(body, ir::StmtKind::Map) == 0);
  CHECK(countKind(body, ir::StmtKind::Reduce) == 1);
  CHECK(countKind(c.lowered.functions[0].body, ir::StmtKind::Map) == 1);
  CHECK_THROWS_AS(ir::interpret(c.optimized, "dot", {dvec({1, 2}), dvec({1, 2, 3})}), ir::RuntimeError);
}

TEST_CASE("Pythagorean triples (n = 30) use expand and match a triple loop") {
  auto c = compile("export (int,int,int)[[*]] pyth(int n) =\n"
                   "  [(x, y, z) | x <- [1..<n], y <- [x..<n], z <- [y..<(x+y)], z < n, x*x + y*y == z*z];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  std::vector<int64_t> X, Y, Z;
  for (int x = 1; x < 30; ++x)
    for (int y = x; y < 30; ++y)
      for (int z = y; z < x + y; ++z)
        if (z < 30 && x * x + y * y == z * z) X.push_back(x), Y.push_back(y), Z.push_back(z);
  auto r = run2(c, "pyth", {Value::scalarInt(30)});
  REQUIRE(r.size() == 3);
  CHECK(r[0].ints() == X);
  CHECK(r[1].ints() == Y);
  CHECK(r[2].ints() == Z);
  CHECK(countKind(c.lowered.functions[0].body, ir::StmtKind::Expand) == 2);
  CHECK(dump(c.lowered).find("expand (generator") != std::string::npos);
}

TEST_CASE("regular nested comprehension: a rank-2 Map, no expand") {
  auto c = compile("export double[[*,*]] mm(double[[*,*]] A, double[[*,*]] B) =\n"
                   "  [[sum([A[i,k]*B[k,j] | k <- [0..<A.size(1)]]) | j <- [0..<B.size(1)]] | i <- [0..<A.size(0)]];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  auto &body = c.lowered.functions[0].body;
  CHECK(countKind(body, ir::StmtKind::Expand) == 0);
  CHECK(topSoacs(body) == 1);
  CHECK(countKind(body, ir::StmtKind::Loop) == 1);
  CHECK(dump(c.lowered).find("regular map nest") != std::string::npos);
  Value A = Value::arrayFloat({1, 2, 3, 4, 5, 6}, {2, 3});
  Value B = Value::arrayFloat({7, 8, 9, 10, 11, 12}, {3, 2});
  auto r = run2(c, "mm", {A, B});
  CHECK(r[0].shape == std::vector<int64_t>{2, 2});
  CHECK(r[0].floats() == std::vector<double>{58, 64, 139, 154});
}

TEST_CASE("regular product of two generators: one Map over the product, flattened") {
  auto c = compile("export int[[*]] f(int n, int m) = [i * 10 + j | i <- [0..<n], j <- [0..<m]];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(countKind(c.lowered.functions[0].body, ir::StmtKind::Expand) == 0);
  auto r = run2(c, "f", {Value::scalarInt(2), Value::scalarInt(3)});
  CHECK(r[0].ints() == std::vector<int64_t>{0, 1, 2, 10, 11, 12});
}

TEST_CASE("lines example (Elsman & Larsen §5) uses expand") {
  auto c = compile(R"(
type point = (int, int);
type line = (point, point);
def int points_in_line(line l) {
  let ((x1, y1), (x2, y2)) = l;
  return 1 + max(abs(x2 - x1), abs(y2 - y1));
}
def int compare(int v1, int v2) = if v2 > v1 then 1 else if v1 > v2 then -1 else 0;
def float slope(point p1, point p2) =
  if p2.0 == p1.0 then (if p2.1 > p1.1 then 1.0f else -1.0f)
  else float(p2.1 - p1.1) / abs(float(p2.0 - p1.0));
def point get_point_in_line(line l, int i) {
  let (p1, p2) = l;
  return if abs(p1.0 - p2.0) > abs(p1.1 - p2.1)
    then (p1.0 + compare(p1.0, p2.0) * i, p1.1 + int(round(slope(p1, p2) * float(i))))
    else (p1.0 + int(round(slope((p1.1, p1.0), (p2.1, p2.0)) * float(i))), p1.1 + i * compare(p1.1, p2.1));
}
export point[[*]] points(line[[*]] lines) =
  [get_point_in_line(l, i) | l <- lines, i <- [0..<points_in_line(l)]];
)");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(countKind(c.lowered.functions[0].body, ir::StmtKind::Expand) == 1);
  // Lines ((0,0),(3,1)) and ((5,5),(5,2)).
  auto r = run2(c, "points", {ivec({0, 5}), ivec({0, 5}), ivec({3, 5}), ivec({1, 2})});
  REQUIRE(r.size() == 2);
  auto sl = [](int x1, int y1, int x2, int y2) -> float {
    if (x2 == x1) return y2 > y1 ? 1.0f : -1.0f;
    return float(y2 - y1) / std::fabs(float(x2 - x1));
  };
  auto cmp = [](int a, int b) { return b > a ? 1 : a > b ? -1 : 0; };
  std::vector<int64_t> ex, ey;
  int L[2][4] = {{0, 0, 3, 1}, {5, 5, 5, 2}};
  for (auto &l : L) {
    int n = 1 + std::max(std::abs(l[2] - l[0]), std::abs(l[3] - l[1]));
    for (int i = 0; i < n; ++i) {
      if (std::abs(l[0] - l[2]) > std::abs(l[1] - l[3])) {
        ex.push_back(l[0] + cmp(l[0], l[2]) * i);
        ey.push_back(l[1] + int(std::round(sl(l[0], l[1], l[2], l[3]) * float(i))));
      } else {
        ex.push_back(l[0] + int(std::round(sl(l[1], l[0], l[3], l[2]) * float(i))));
        ey.push_back(l[1] + i * cmp(l[1], l[3]));
      }
    }
  }
  CHECK(r[0].ints() == ex);
  CHECK(r[1].ints() == ey);
}

TEST_CASE("CSR sparse matrix-vector multiplication") {
  auto c = compile(R"(
export double[[*]] spmv(int[[*]] rowptr, int[[*]] cols, double[[*]] vals, double[[*]] x) =
  [sum([vals[k] * x[cols[k]] | k <- [rowptr[r]..<rowptr[r+1]]]) | r <- [0..<length(rowptr) - 1]];
export double[[*]] spmv_flat(int[[*]] rowptr, int[[*]] cols, double[[*]] vals, double[[*]] x) =
  [vals[k] * x[cols[k]] | r <- [0..<length(rowptr) - 1], k <- [rowptr[r]..<rowptr[r+1]]];
)");
  REQUIRE_MESSAGE(c.ok, c.errors);
  std::vector<int64_t> rowptr{0, 2, 3, 5, 6, 9}, cols{0, 2, 1, 0, 3, 2, 1, 3, 4};
  std::vector<double> vals{1, 2, 3, 4, 5, 6, 7, 8, 9}, x{1, 2, 3, 4, 5};
  std::vector<double> ref, flat;
  for (size_t r = 0; r + 1 < rowptr.size(); ++r) {
    double s = 0;
    for (int64_t k = rowptr[r]; k < rowptr[r + 1]; ++k) s += vals[k] * x[cols[k]], flat.push_back(vals[k] * x[cols[k]]);
    ref.push_back(s);
  }
  auto r = run2(c, "spmv", {ivec(rowptr), ivec(cols), dvec(vals), dvec(x)});
  CHECK(r[0].floats() == ref);
  auto r2 = run2(c, "spmv_flat", {ivec(rowptr), ivec(cols), dvec(vals), dvec(x)});
  CHECK(r2[0].floats() == flat);
  CHECK(countKind(c.lowered.functions[1].body, ir::StmtKind::Expand) == 1);
}

TEST_CASE("generator over a dependent filter: general fallback") {
  auto c = compile("export int[[*]] f(int[[*]] ys) = [x + y | x <- [0..<3], y <- filter(\\v -> v > x, ys)];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  std::string d = dump(c.lowered);
  CHECK(d.find("fallback") != std::string::npos);
  CHECK(countKind(c.lowered.functions[0].body, ir::StmtKind::Write) >= 1);
  std::vector<int64_t> ys{3, 0, 1, 2, 5}, ref;
  for (int x = 0; x < 3; ++x)
    for (auto y : ys)
      if (y > x) ref.push_back(x + y);
  auto r = run2(c, "f", {ivec(ys)});
  CHECK(r[0].ints() == ref);
}

TEST_CASE("sections and transpose are views with weight arithmetic") {
  auto c = compile(R"(
export double[[*,*]] sec(double[[*,*]] A) = transpose(A[1:3, 0:4:2]);
export double[[*]] col(double[[*,*]] A, int j) = A[:, j];
export double[[*]] rev(double[[*]] a) = a[a.size(0)-1 : 0 : -1];
)");
  REQUIRE_MESSAGE(c.ok, c.errors);
  Value A = Value::arrayFloat({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}, {4, 5});
  auto r = run2(c, "sec", {A});
  CHECK(r[0].shape == std::vector<int64_t>{3, 3});
  CHECK(r[0].weights == std::vector<int64_t>{2, 5, 5});
  CHECK(r[0].floats() == std::vector<double>{5, 10, 15, 7, 12, 17, 9, 14, 19});
  CHECK(countKind(c.optimized.functions[0].body, ir::StmtKind::Map) == 0);
  auto cl = run2(c, "col", {A, Value::scalarInt(2)});
  CHECK(cl[0].floats() == std::vector<double>{2, 7, 12, 17});
  CHECK_THROWS_AS(ir::interpret(c.lowered, "col", {A, Value::scalarInt(5)}), ir::RuntimeError);
  auto rv = run2(c, "rev", {dvec({1, 2, 3})});
  CHECK(rv[0].floats() == std::vector<double>{3, 2, 1});
}

TEST_CASE("aggregate operations check shapes first; with updates copy") {
  auto c = compile(R"(
export double[[*,*]] axpy(double s, double[[*,*]] A, double[[*,*]] B) = s * A + B;
export double[[*,*]] upd(double[[*,*]] A) = A with [0, 1] = 42.0;
export double[[*,*]] updc(double[[*,*]] A, double[[*]] c) = A with [:, 1] = c;
export double[[*,*]] z(int m, int n) = new double[[m, n]];
export int[[*]] lit(int a) = [a, 2, 3];
)");
  REQUIRE_MESSAGE(c.ok, c.errors);
  Value A = Value::arrayFloat({1, 2, 3, 4}, {2, 2});
  auto r = run2(c, "axpy", {Value::scalarFloat(2), A, A});
  CHECK(r[0].floats() == std::vector<double>{3, 6, 9, 12});
  try {
    ir::interpret(c.optimized, "axpy", {Value::scalarFloat(2), A, Value::arrayFloat({1, 2}, {1, 2})});
    CHECK(false);
  } catch (const ir::RuntimeError &e) {
    CHECK(e.code == ir::Check::Shape);
  }
  CHECK(run2(c, "upd", {A})[0].floats() == std::vector<double>{1, 42, 3, 4});
  CHECK(run2(c, "updc", {A, dvec({7, 8})})[0].floats() == std::vector<double>{1, 7, 3, 8});
  CHECK(A.floats() == std::vector<double>{1, 2, 3, 4});
  CHECK(run2(c, "z", {Value::scalarInt(2), Value::scalarInt(3)})[0].floats() == std::vector<double>(6, 0.0));
  CHECK(run2(c, "lit", {Value::scalarInt(9)})[0].ints() == std::vector<int64_t>{9, 2, 3});
}

TEST_CASE("reductions of comprehensions fuse; maximum of empty raises Empty") {
  auto c = compile(R"(
export int cnt(int[[*]] xs) = count(\x -> x > 2, xs);
export int mx(int[[*]] xs) = maximum([x * 2 | x <- xs]);
export int sp(int[[*]] xs) = sum([x | x <- xs, x > 1]);
)");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(run2(c, "cnt", {ivec({1, 2, 3, 4})})[0].i == 2);
  CHECK(run2(c, "mx", {ivec({1, 5, 3})})[0].i == 10);
  CHECK(run2(c, "sp", {ivec({1, 2, 3})})[0].i == 5);
  for (auto &f : c.optimized.functions) CHECK(topSoacs(f.body) == 1);
  try {
    ir::interpret(c.optimized, "mx", {ivec({})});
    CHECK(false);
  } catch (const ir::RuntimeError &e) {
    CHECK(e.code == ir::Check::Empty);
  }
}

TEST_CASE("loops at host level carry arrays; stdlib functions inline") {
  auto c = compile(R"(
export double[[*]] iter(double[[*]] a, int n) = loop (x = a) for i < n do [v * 2.0 | v <- x];
export int w(int n) = loop (k = 1) while k < n do k * 2;
export double[[*]] mv(double[[*,*]] A, double[[*]] x) = matvec(A, x);
export int[[*]] sc(int[[*]] xs) = scan((+), 0, xs);
export (int[[*]], int[[*]]) pt(int[[*]] xs) = partition(\x -> x % 2 == 0, xs);
)");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(run2(c, "iter", {dvec({1, 2}), Value::scalarInt(3)})[0].floats() == std::vector<double>{8, 16});
  CHECK(run2(c, "w", {Value::scalarInt(100)})[0].i == 128);
  CHECK(run2(c, "mv", {Value::arrayFloat({1, 2, 3, 4}, {2, 2}), dvec({1, 1})})[0].floats() == std::vector<double>{3, 7});
  CHECK(run2(c, "sc", {ivec({1, 2, 3})})[0].ints() == std::vector<int64_t>{1, 3, 6});
  auto p = run2(c, "pt", {ivec({1, 2, 3, 4})});
  CHECK(p[0].ints() == std::vector<int64_t>{2, 4});
  CHECK(p[1].ints() == std::vector<int64_t>{1, 3});
}

TEST_CASE("unsupported or wrong programs give positioned errors, never a crash") {
  auto c = compile("export int f(int[[*]] xs) = xs[0] + 1;\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK_THROWS_AS(ir::interpret(c.lowered, "f", {ivec({})}), ir::RuntimeError);
}

TEST_CASE("intrinsics: expand, scatter, hist, sort, segmented, reduce_by_key, gather, concat") {
  auto c = compile(R"(
export int[[*]] ex(int[[*]] xs) = expand(\x -> x, \x i -> x * i, xs);
export int[[*]] er(int[[*]] xs) = expand_reduce(\x -> x, \x i -> i, (+), 0, xs);
export int[[*]] sc(int[[*]] d, int[[*]] is, int[[*]] vs) = scatter(d, is, vs);
export int[[*]] hi(int[[*]] is) = hist((+), 0, 3, is, replicate(length(is), 1));
export double[[*]] so(double[[*]] xs) = sort(xs);
export int[[*]] sb(int[[*]] xs) = sort_by(\x -> -x, xs);
export int[[*]] ss(bool[[*]] f, int[[*]] xs) = segmented_scan((+), 0, f, xs);
export int[[*]] sr(bool[[*]] f, int[[*]] xs) = segmented_reduce((+), 0, f, xs);
export (int[[*]], int[[*]]) rk(int[[*]] k, int[[*]] v) = reduce_by_key((+), 0, k, v);
export int[[*]] ga(int[[*]] xs, int[[*]] is) = gather(xs, is);
export int[[*]] cc(int[[*]] a, int[[*]] b) = a ++ b;
export int[[*]] ri(int[[*]] reps) = repl_iota(reps);
)");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(run2(c, "ex", {ivec({2, 3, 1})})[0].ints() == std::vector<int64_t>{0, 2, 0, 3, 6, 0});
  CHECK(run2(c, "er", {ivec({2, 3, 1})})[0].ints() == std::vector<int64_t>{1, 3, 0});
  CHECK(run2(c, "sc", {ivec({0, 0, 0}), ivec({2, 7, 0}), ivec({5, 6, 7})})[0].ints() == std::vector<int64_t>{7, 0, 5});
  CHECK(run2(c, "hi", {ivec({0, 2, 2, 5})})[0].ints() == std::vector<int64_t>{1, 0, 2});
  CHECK(run2(c, "so", {dvec({3, 1, 2})})[0].floats() == std::vector<double>{1, 2, 3});
  CHECK(run2(c, "sb", {ivec({3, 1, 2})})[0].ints() == std::vector<int64_t>{3, 2, 1});
  Value fl = Value::arrayInt({1, 0, 1, 0}, {4}, ScalarKind::Bool);
  CHECK(run2(c, "ss", {fl, ivec({1, 2, 3, 4})})[0].ints() == std::vector<int64_t>{1, 3, 3, 7});
  CHECK(run2(c, "sr", {fl, ivec({1, 2, 3, 4})})[0].ints() == std::vector<int64_t>{3, 7});
  auto rk = run2(c, "rk", {ivec({2, 1, 2}), ivec({5, 6, 7})});
  CHECK(rk[0].ints() == std::vector<int64_t>{1, 2});
  CHECK(rk[1].ints() == std::vector<int64_t>{6, 12});
  CHECK(run2(c, "ga", {ivec({5, 6, 7}), ivec({2, 0})})[0].ints() == std::vector<int64_t>{7, 5});
  CHECK_THROWS_AS(ir::interpret(c.lowered, "ga", {ivec({5}), ivec({1})}), ir::RuntimeError);
  CHECK(run2(c, "cc", {ivec({1}), ivec({2, 3})})[0].ints() == std::vector<int64_t>{1, 2, 3});
  CHECK(run2(c, "ri", {ivec({2, 0, 1})})[0].ints() == std::vector<int64_t>{0, 0, 2});
}

TEST_CASE("edge cases: irregular nesting check, rows, tuple patterns, zip branches, device folds") {
  auto c = compile(R"(
export int[[*,*]] irr2(int[[*]] xs) = [[x | x <- xs, x > i] | i <- [0..<3]];
export double[[*]] rows(double[[*,*]] A) = [sum(r) | r <- A];
export (int, int)[[*]] tp(int n) = [(a, b) | (a, b) <- zip(iota(n), iota(n)), a > 1];
export int[[*]] zz(int n) = [a + b | a <- [0..<n], let c = a * 2, c > 2 | b <- [0..<n], b < 100];
export int[[*]] lw(int[[*]] xs) = loop (a = xs) for i < 3 do a with [i] = i;
export int[[*]] nd(int[[*]] xs) = [length([y | y <- xs, y < x]) | x <- xs];
export int[[*]] dep(int[[*]] xs) = [y | x <- xs, y <- [x..<x+2], let z = y * 2, z > 0];
export int[[*]] secgen(int[[*]] xs) = [y | i <- [0..<2], y <- xs[i:length(xs)-1]];
export int[[*]] rot(int[[*]] xs) = rotate(1, xs);
export int am(double[[*]] xs) = argmax(xs);
export int[[*]] fl(int[[*,*]] A) = flatten(A);
export int[[*]] segi(bool[[*]] f) = segm_iota(f);
export bool an(int[[*]] xs) = any(\x -> x > 3, xs) && all(\x -> x > 0, xs);
)");
  REQUIRE_MESSAGE(c.ok, c.errors);
  // irr2: inner sizes 3, 2, 1 for xs = [1, 2, 3] -> Irregular; all equal for [5, 6].
  try {
    ir::interpret(c.lowered, "irr2", {ivec({1, 2, 3})});
    CHECK(false);
  } catch (const ir::RuntimeError &e) {
    CHECK(e.code == ir::Check::Irregular);
  }
  auto r = run2(c, "irr2", {ivec({5, 6})});
  CHECK(r[0].shape == std::vector<int64_t>{3, 2});
  CHECK(r[0].ints() == std::vector<int64_t>{5, 6, 5, 6, 5, 6});
  CHECK(run2(c, "rows", {Value::arrayFloat({1, 2, 3, 4}, {2, 2})})[0].floats() == std::vector<double>{3, 7});
  auto t = run2(c, "tp", {Value::scalarInt(4)});
  CHECK(t[0].ints() == std::vector<int64_t>{2, 3});
  CHECK(t[1].ints() == std::vector<int64_t>{2, 3});
  try {
    ir::interpret(c.lowered, "zz", {Value::scalarInt(3)});
    CHECK(false); // branch 1 has 1 element (a = 2), branch 2 has 3
  } catch (const ir::RuntimeError &e) {
    CHECK(e.code == ir::Check::ZipSize);
  }
  CHECK(run2(c, "lw", {ivec({9, 9, 9, 9})})[0].ints() == std::vector<int64_t>{0, 1, 2, 9});
  CHECK(run2(c, "nd", {ivec({3, 1, 2})})[0].ints() == std::vector<int64_t>{2, 0, 1});
  CHECK(run2(c, "dep", {ivec({-1, 4})})[0].ints() == std::vector<int64_t>{4, 5});
  CHECK(run2(c, "secgen", {ivec({1, 2, 3})})[0].ints() == std::vector<int64_t>{1, 2, 3, 2, 3});
  CHECK(run2(c, "rot", {ivec({1, 2, 3})})[0].ints() == std::vector<int64_t>{2, 3, 1});
  CHECK(run2(c, "am", {dvec({1, 5, 2, 5})})[0].i == 1);
  CHECK(run2(c, "fl", {Value::arrayInt({1, 2, 3, 4}, {2, 2})})[0].ints() == std::vector<int64_t>{1, 2, 3, 4});
  CHECK(run2(c, "segi", {Value::arrayInt({1, 0, 0, 1, 0}, {5}, ScalarKind::Bool)})[0].ints() ==
        std::vector<int64_t>{0, 1, 2, 0, 1});
  CHECK(run2(c, "an", {ivec({1, 4})})[0].i == 1);
  CHECK(run2(c, "an", {ivec({1, 2})})[0].i == 0);
}

TEST_CASE("odd corners: empty literal, arrays in if, loops and reductions in heads, nested tuples") {
  auto c = compile(R"(
export int[[*]] e1() = [];
export double[[*]] e2(bool b, double[[*]] a) = if b then a else [x * 2.0 | x <- a];
export double[[*]] e3(double[[*]] a) = [if x > 0.0 then sum(a) else x | x <- a];
export double[[*]] e4(double[[*]] a) = [loop (s = 0.0) for i < 3 do s + x | x <- a];
export ((int, double), bool)[[*]] e6(int n) = [((i, double(i)), i > 2) | i <- [0..<n]];
export int e7(((int, double), bool)[[*]] xs) = sum([p.0.0 | p <- xs, p.1]);
export int[[*]] e8(int[[*]] a) = [x | x <- a[2:0:-1]];
export double e9(double[[*,*]] A) = sum([A[i, j] | i <- [0..<A.size(0)], j <- [0..<A.size(1)], i != j]);
export int[[*]] e10(int n) = [x | (x, _y) <- zip(iota(n), [0..<n])];
export int[[*]] e11(int[[*]] a) = [a[i] | i <- [0..<10]];
export int e12(int[[*]] a) = reduce(\x y -> x + y, 0, a);
export int[[*]] e13(int[[*]] a) = [sum([x | x <- [0..<i]]) | i <- a];
export int[[*]] e14(int[[*]] a) = [x | i <- a, x <- [0..<i], x % 2 == 0];
)");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(run2(c, "e1", {})[0].count() == 0);
  CHECK(run2(c, "e2", {Value::boolean(true), dvec({1, 2})})[0].floats() == std::vector<double>{1, 2});
  CHECK(run2(c, "e2", {Value::boolean(false), dvec({1, 2})})[0].floats() == std::vector<double>{2, 4});
  CHECK(run2(c, "e3", {dvec({1, -2})})[0].floats() == std::vector<double>{-1, -2});
  CHECK(run2(c, "e4", {dvec({1, 2})})[0].floats() == std::vector<double>{3, 6});
  auto t = run2(c, "e6", {Value::scalarInt(4)});
  REQUIRE(t.size() == 3);
  CHECK(t[0].ints() == std::vector<int64_t>{0, 1, 2, 3});
  CHECK(t[1].floats() == std::vector<double>{0, 1, 2, 3});
  CHECK(t[2].ints() == std::vector<int64_t>{0, 0, 0, 1});
  CHECK(run2(c, "e7", {ivec({1, 2, 3}), dvec({0, 0, 0}), Value::arrayInt({1, 0, 1}, {3}, ScalarKind::Bool)})[0].i == 4);
  CHECK(run2(c, "e8", {ivec({1, 2, 3, 4})})[0].ints() == std::vector<int64_t>{3, 2, 1});
  CHECK(run2(c, "e9", {Value::arrayFloat({1, 2, 3, 4}, {2, 2})})[0].f == 5.0);
  CHECK(run2(c, "e10", {Value::scalarInt(3)})[0].ints() == std::vector<int64_t>{0, 1, 2});
  try {
    ir::interpret(c.optimized, "e11", {ivec({1})});
    CHECK(false);
  } catch (const ir::RuntimeError &e) {
    CHECK(e.code == ir::Check::Bounds);
    CHECK(std::string(e.what()).find(":11:") != std::string::npos);
  }
  CHECK(run2(c, "e12", {ivec({1, 2, 3})})[0].i == 6);
  CHECK(run2(c, "e13", {ivec({0, 3})})[0].ints() == std::vector<int64_t>{0, 3});
  CHECK(run2(c, "e14", {ivec({3, 2})})[0].ints() == std::vector<int64_t>{0, 2, 0});
}

TEST_CASE("Size/Fetch: which generators get a regular nest, an expand, or the fallback") {
  struct Case { const char *src; const char *scheme; };
  Case cases[] = {
      {"export int[[*]] f(int n, int[[*]] ys) = [x + y | x <- [0..<n], y <- ys];", "regular map nest"},
      {"export int[[*]] f(int n) = [x + y | x <- [0..<n], y <- iota(n)];", "regular map nest"},
      {"export int[[*]] f(int n) = [x + y | x <- [0..<n], y <- map(\\k -> k * x, iota(n))];", "regular map nest"},
      {"export int[[*]] f(int n) = [x + y | x <- [0..<n], y <- [0..<x]];", "expand"},
      {"export int[[*]] f(int n) = [x + y | x <- [0..<n], y <- iota(x)];", "expand"},
      {"export int[[*]] f(int n) = [x + y | x <- [0..<n], y <- map(\\k -> k * 2, [x..<n])];", "expand"},
      {"export int[[*]] f(int n) = [x + y | x <- [0..<n], y <- [k * 2 | k <- [0..<x]]];", "expand"},
      {"export int[[*]] f(int[[*]] a) = [y | i <- [0..<length(a)], y <- a[i:length(a)-1]];", "expand"},
      {"export int[[*]] f(int n) = [y.0 + y.1 | x <- [0..<n], y <- zip(iota(x), [1..x])];", "expand"},
      {"export int[[*]] f(int n) = [y | x <- [0..<n], y <- let m = x + 1 in iota(m)];", "expand"},
      {"export int[[*]] f(int n, int[[*]] ys) = [y | x <- [0..<n], y <- filter(\\v -> v > x, ys)];", "fallback"},
      {"export int[[*]] f(int n, int[[*]] ys) = [y | x <- [0..<n], y <- [v | v <- ys, v < x]];", "fallback"},
  };
  for (auto &cs : cases) {
    CAPTURE(cs.src);
    auto c = compile(std::string(cs.src) + "\n");
    REQUIRE_MESSAGE(c.ok, c.errors);
    std::string d = dump(c.lowered);
    CHECK(d.find(cs.scheme) != std::string::npos);
    int expands = countKind(c.lowered.functions[0].body, ir::StmtKind::Expand);
    CHECK(expands == (std::string(cs.scheme) == "expand" ? 1 : 0));
    if (std::string(cs.scheme) != "fallback") CHECK(d.find("fallback") == std::string::npos);
  }
  // And the results agree with a direct loop.
  auto c = compile("export int[[*]] f(int n) = [x * 10 + y | x <- [0..<n], y <- map(\\k -> k * 2, [x..<n])];\n");
  REQUIRE(c.ok);
  std::vector<int64_t> ref;
  for (int x = 0; x < 4; ++x)
    for (int k = x; k < 4; ++k) ref.push_back(x * 10 + k * 2);
  CHECK(run2(c, "f", {Value::scalarInt(4)})[0].ints() == ref);
}

TEST_CASE("a sum or count of an irregular comprehension: one expand into reduce (flat, load-balanced)") {
  auto c = compile("export int tri(int n) = sum([x * y | x <- [0..<n], y <- [0..<x]]);\n"
                   "export int pc(int n) = count(\\t -> t.0 > 1, [(x, y) | x <- [0..<n], y <- [0..<x]]);\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  int ref = 0, cnt = 0;
  for (int x = 0; x < 7; ++x)
    for (int y = 0; y < x; ++y) ref += x * y, cnt += x > 1;
  CHECK(run2(c, "tri", {Value::scalarInt(7)})[0].i == ref);
  CHECK(run2(c, "pc", {Value::scalarInt(7)})[0].i == cnt);
  CHECK(countKind(c.lowered.functions[0].body, ir::StmtKind::Expand) == 1);
  for (auto &f : c.optimized.functions) {
    CHECK(countKind(f.body, ir::StmtKind::Expand) == 1);
    CHECK(topSoacs(f.body) == 1);
    CHECK(countKind(f.body, ir::StmtKind::Loop) == 0); // no sequential inner fold
    for (auto &s : f.body.stmts)
      if (s->kind == ir::StmtKind::Expand) CHECK(static_cast<const ir::Expand &>(*s).into == ir::Expand::Reduce);
  }
}

// ---------------------------------------------------------------- parallel bodies
TEST_CASE("inside a parallel body: with, new, array-valued if, scan") {
  auto c = compile(
      "export int[[*]] w(int n) = [sum(iota(5) with [x % 5] = 100) | x <- [0..<n]];\n"
      "export int[[*]] nw(int n) = [sum(new int[[x]]) + length(new int[[x, 2]]) | x <- [0..<n]];\n"
      "export int[[*]] ifa(int n) = [sum(if x % 2 == 0 then iota(x) else [1..3]) | x <- [0..<n]];\n"
      "export int[[*]] ifs(int n) = [sum(if x > 2 then filter(\\v -> v % 2 == 0, iota(x)) else iota(x)) | x <- [0..<n]];\n"
      "export int[[*]] sc(int n) = [sum(scan((+), 0, iota(x))) | x <- [0..<n]];\n"
      "export int[[*]] ws(int n) = [sum(iota(6) with [1:3] = [x, x, x]) | x <- [0..<n]];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  const int n = 7;
  std::vector<int64_t> rw, rn, ra, rs, rsc, rws;
  for (int x = 0; x < n; ++x) {
    rw.push_back(10 - x % 5 + 100);
    rn.push_back(x);
    int a = 0;
    if (x % 2 == 0) for (int v = 0; v < x; ++v) a += v;
    else a = 6;
    ra.push_back(a);
    int s = 0;
    for (int v = 0; v < x; ++v) if (x <= 2 || v % 2 == 0) s += v;
    rs.push_back(s);
    int pre = 0, t = 0;
    for (int v = 0; v < x; ++v) pre += v, t += pre;
    rsc.push_back(t);
    rws.push_back(0 + 4 + 5 + 3 * x);
  }
  CHECK(run2(c, "w", {Value::scalarInt(n)})[0].ints() == rw);
  CHECK(run2(c, "nw", {Value::scalarInt(n)})[0].ints() == rn);
  CHECK(run2(c, "ifa", {Value::scalarInt(n)})[0].ints() == ra);
  CHECK(run2(c, "ifs", {Value::scalarInt(n)})[0].ints() == rs);
  CHECK(run2(c, "sc", {Value::scalarInt(n)})[0].ints() == rsc);
  CHECK(run2(c, "ws", {Value::scalarInt(n)})[0].ints() == rws);
}

TEST_CASE("inside a parallel body: out-of-range reads and shape mismatches are errors") {
  auto c = compile(
      "export int[[*]] rg(int n, int k) = [let r = [0..<x] in r[x - k] | x <- [1..n]];\n"
      "export int[[*]] sh(int n) = [sum(iota(x) + iota(3)) | x <- [0..<n]];\n"
      "export int[[*]] sec(int n, int k) = [sum(iota(x)[0:k]) | x <- [1..n]];\n"
      "export int[[*]] wb(int n, int k) = [sum(iota(3) with [k] = x) | x <- [0..<n]];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  std::vector<int64_t> ok;
  for (int x = 1; x <= 4; ++x) ok.push_back(x - 1);
  CHECK(run2(c, "rg", {Value::scalarInt(4), Value::scalarInt(1)})[0].ints() == ok);
  for (auto *m : {&c.lowered, &c.optimized}) {
    CHECK_THROWS_AS(ir::interpret(*m, "rg", {Value::scalarInt(4), Value::scalarInt(0)}), ir::RuntimeError);
    CHECK_THROWS_AS(ir::interpret(*m, "rg", {Value::scalarInt(4), Value::scalarInt(9)}), ir::RuntimeError);
    CHECK_THROWS_AS(ir::interpret(*m, "sh", {Value::scalarInt(4)}), ir::RuntimeError);
    CHECK_THROWS_AS(ir::interpret(*m, "sec", {Value::scalarInt(4), Value::scalarInt(2)}), ir::RuntimeError);
    CHECK_THROWS_AS(ir::interpret(*m, "wb", {Value::scalarInt(2), Value::scalarInt(3)}), ir::RuntimeError);
  }
}

TEST_CASE("expand-map fusion and expand into reduce for sums of irregular comprehensions") {
  auto c = compile("export int[[*]] em(int n) = map(\\v -> v + 1, [x * y | x <- [0..<n], y <- [0..<x]]);\n"
                   "export int tri(int n) = sum([x * y | x <- [0..<n], y <- [0..<x]]);\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  std::vector<int64_t> ref;
  int tri = 0;
  for (int x = 0; x < 6; ++x)
    for (int y = 0; y < x; ++y) ref.push_back(x * y + 1), tri += x * y;
  CHECK(run2(c, "em", {Value::scalarInt(6)})[0].ints() == ref);
  CHECK(run2(c, "tri", {Value::scalarInt(6)})[0].i == tri);
  auto &em = c.optimized.functions[0].body;
  CHECK(countKind(em, ir::StmtKind::Expand) == 1);
  CHECK(countKind(em, ir::StmtKind::Map) == 0);
  auto &tr = c.optimized.functions[1].body;
  CHECK(countKind(tr, ir::StmtKind::Expand) == 1);
  CHECK(countKind(tr, ir::StmtKind::Reduce) == 0);
  CHECK(topSoacs(tr) == 1);
  CHECK(countKind(tr, ir::StmtKind::Loop) == 0); // no sequential inner fold
}

TEST_CASE("irregular comprehension with a generator binding a row of a rank-2 array") {
  auto c = compile("export int[[*]] f(int[[*,*]] A) = [x * 10 + y | row <- A, x <- row, y <- [0..<x]];\n"
                   "export int[[*]] g(int[[*,*]] A) = [x + length(row) | row <- A, sum(row) > 3, x <- filter(\\v -> v > 1, row)];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  std::vector<int64_t> a{1, 2, 3, 0, 0, 1, 4, 2, 2};
  Value A = Value::arrayInt(a, {3, 3});
  std::vector<int64_t> rf, rg;
  for (int r = 0; r < 3; ++r) {
    int s = 0;
    for (int k = 0; k < 3; ++k) {
      int x = int(a[r * 3 + k]);
      s += x;
      for (int y = 0; y < x; ++y) rf.push_back(x * 10 + y);
    }
    if (s > 3)
      for (int k = 0; k < 3; ++k)
        if (a[r * 3 + k] > 1) rg.push_back(a[r * 3 + k] + 3);
  }
  CHECK(run2(c, "f", {A})[0].ints() == rf);
  CHECK(run2(c, "g", {A})[0].ints() == rg);
  CHECK(countKind(c.lowered.functions[0].body, ir::StmtKind::Expand) == 2);
}

TEST_CASE("inside a parallel body: scatter, hist, sort, sort_by, segmented scan/reduce") {
  auto c = compile(
      "export int[[*]] sc(int n) = [sum(scatter(iota(4), [0, 2, 9], [x, x * 2, 5])) | x <- [0..<n]];\n"
      "export int[[*]] hi(int n) = [let h = hist((+), 0, 3, [x % 3, 1, 1, 7], [10, 20, 30, 40]) in h[0] * 100 + h[1] | x <- [0..<n]];\n"
      "export int[[*]] so(int n) = [let s = sort([x, 3, 1, 2]) in s[0] * 1000 + s[1] * 100 + s[2] * 10 + s[3] | x <- [0..<n]];\n"
      "export int[[*]] sb(int n) = [let s = sort_by(\\v -> -v, [x, 3, 1, 2]) in s[0] * 1000 + s[1] * 100 + s[2] * 10 + s[3] | x <- [0..<n]];\n"
      "export int[[*]] ss(int n) = [let s = segmented_scan((+), 0, [true, false, x > 1, false], [1, 2, 3, 4]) in s[0] * 1000 + s[1] * 100 + s[2] * 10 + s[3] | x <- [0..<n]];\n"
      "export int[[*]] sr(int n) = [let s = segmented_reduce((+), 0, [false, false, x > 1, false], [1, 2, 3, 4]) in length(s) * 1000 + s[0] * 10 + s[length(s) - 1] | x <- [0..<n]];\n"
      "export int[[*]] sz(int n) = [sum(scatter(iota(4), [0, 1], [x])) | x <- [0..<n]];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  auto four = std::vector<Value>{Value::scalarInt(4)};
  CHECK(run2(c, "sc", four)[0].ints() == std::vector<int64_t>{4, 7, 10, 13});
  CHECK(run2(c, "hi", four)[0].ints() == std::vector<int64_t>{1050, 60, 50, 1050});
  CHECK(run2(c, "so", four)[0].ints() == std::vector<int64_t>{123, 1123, 1223, 1233});
  CHECK(run2(c, "sb", four)[0].ints() == std::vector<int64_t>{3210, 3211, 3221, 3321});
  CHECK(run2(c, "ss", four)[0].ints() == std::vector<int64_t>{1370, 1370, 1337, 1337});
  CHECK(run2(c, "sr", four)[0].ints() == std::vector<int64_t>{1110, 1110, 2037, 2037});
  // index and value arrays of different lengths: an in-body error
  CHECK_THROWS_AS(ir::interpret(c.optimized, "sz", four), ir::RuntimeError);
}

TEST_CASE("inside a parallel body: loops with a small array state (scalarised) and zip-branch sizes") {
  auto c = compile(
      "export int[[*]] lp(int n) = [sum(loop (a = iota(3)) for i < x do a with [i % 3] = i) | x <- [0..<n]];\n"
      "export int[[*]] lt(int n) = [let (s, a) = loop ((s, a) = (0, [1, 2])) for i < x do (s + a[1], [a[1], a[0] + a[1]]) in s + a[0] | x <- [0..<n]];\n"
      "export int[[*]] zp(int n) = [sum([a | a <- iota(x) | b <- iota(3)]) | x <- [0..<n]];\n"
      "export int[[*]] grow(int n) = [sum(loop (a = iota(3)) for i < x do iota(i)) | x <- [0..<n]];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(run2(c, "lp", {Value::scalarInt(5)})[0].ints() == std::vector<int64_t>{3, 3, 3, 3, 6});
  std::vector<int64_t> rl;
  for (int x = 0; x < 6; ++x) {
    int s = 0, a0 = 1, a1 = 2;
    for (int i = 0; i < x; ++i) { s += a1; int t = a0 + a1; a0 = a1; a1 = t; }
    rl.push_back(s + a0);
  }
  CHECK(run2(c, "lt", {Value::scalarInt(6)})[0].ints() == rl);
  CHECK_THROWS_AS(ir::interpret(c.optimized, "zp", {Value::scalarInt(4)}), ir::RuntimeError);
  // the state's size changes in the body: the loop is lifted out of the body
  // (one host loop over every element's state, docs/lowering.md)
  CHECK(run2(c, "grow", {Value::scalarInt(4)})[0].ints() == std::vector<int64_t>{3, 0, 0, 1});
}

TEST_CASE("inside a parallel body: an array loop state of varying size runs as one host loop over all elements") {
  auto c = compile(
      "export int[[*]] f(int n) = [sum(loop (a = iota(x)) for i < 2 do a) | x <- [0..<n]];\n"
      "export int[[*]] d(int[[*]] ns) = [length(loop (a = [1]) for _i < k do a ++ a) | k <- ns];\n"
      "export int[[*]] w(int[[*]] xs) = [length(loop (a = iota(x)) while length(a) > 3 do filter(\\v -> v % 2 == 0, map(\\v -> v / 2, a))) | x <- xs];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(run2(c, "f", {Value::scalarInt(5)})[0].ints() == std::vector<int64_t>{0, 0, 1, 3, 6});
  CHECK(run2(c, "d", {ivec({0, 1, 4, 2})})[0].ints() == std::vector<int64_t>{1, 2, 16, 4});
  // a worklist halving its values, keeping the even ones, until at most 3 are left
  std::vector<int64_t> want;
  for (int x : {0, 3, 4, 9, 20}) {
    std::vector<int> a;
    for (int i = 0; i < x; ++i) a.push_back(i);
    while (a.size() > 3) {
      std::vector<int> b;
      for (int v : a) if ((v / 2) % 2 == 0) b.push_back(v / 2);
      a = b;
    }
    want.push_back(int64_t(a.size()));
  }
  CHECK(run2(c, "w", {ivec({0, 3, 4, 9, 20})})[0].ints() == want);
  std::string ir = dump(c.lowered);
  CHECK(ir.find("runs once for all elements") != std::string::npos);
}

TEST_CASE("QA-2: zip sizes inside a nested comprehension are checked (hoisted to a host ZipSize Check)") {
  auto c = compile(
      "export double[[*]] f(double[[*,*]] A, double[[*]] x) = [sum([a * b | a <- A[i, :] | b <- x]) | i <- iota(A.size(0))];\n"
      "export int[[*,*]] g(int[[*]] xs, int[[*]] ys) = [[a + b | a <- xs | b <- ys] | _k <- [0..<2]];\n"
      "export double[[*]] mv(double[[*,*]] A, double[[*]] x) = matvec(A, x);\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  Value A = Value::arrayFloat({1, 2, 3, 4}, {2, 2});
  CHECK(ir::formatValue(run2(c, "f", {A, dvec({1, 1})})[0]) == "[3.0, 7.0]");
  for (auto *m : {&c.lowered, &c.optimized}) {
    for (const char *fn : {"f", "mv"}) {
      try {
        ir::interpret(*m, fn, {A, dvec({1, 1, 1})});
        FAIL("no error for ", fn);
      } catch (const ir::RuntimeError &e) {
        CHECK(e.code == ir::Check::ZipSize);
      }
    }
    CHECK_THROWS_AS(ir::interpret(*m, "g", {ivec({1, 2}), ivec({1, 2, 3})}), ir::RuntimeError);
  }
  CHECK(run2(c, "g", {ivec({1, 2}), ivec({1, 2})})[0].ints() == std::vector<int64_t>{2, 4, 2, 4});
}

TEST_CASE("QA-3: maximum/minimum of an empty inner comprehension raises Empty") {
  auto c = compile("export int[[*]] inner(int[[*]] xs) = [maximum([j | j <- [0..<10], j < i]) | i <- xs];\n"
                   "export double[[*]] inner2(int[[*]] xs) = [minimum([double(j) | j <- [0..<i]]) | i <- xs];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  CHECK(run2(c, "inner", {ivec({5, 3})})[0].ints() == std::vector<int64_t>{4, 2});
  for (auto *m : {&c.lowered, &c.optimized}) {
    for (auto [fn, arg] : {std::pair<const char *, Value>{"inner", ivec({5, 0})}, {"inner2", ivec({2, 0})}}) {
      try {
        ir::interpret(*m, fn, {arg});
        FAIL("no error for ", fn);
      } catch (const ir::RuntimeError &e) {
        CHECK(e.code == ir::Check::Empty);
      }
    }
  }
}

TEST_CASE("QA-1: rank-3 nested comprehension (a rank-2 head inside the body)") {
  auto c = compile("export int[[*,*,*]] rank3comp(int n) = [[[i * 100 + j * 10 + k | k <- [0..<2]] | j <- [0..<n]] | i <- [0..<2]];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  auto r = run2(c, "rank3comp", {Value::scalarInt(2)});
  CHECK(ir::formatValue(r[0]) == "[[[0, 1], [10, 11]], [[100, 101], [110, 111]]]");
  CHECK(r[0].shape == std::vector<int64_t>{2, 2, 2});
  auto e = run2(c, "rank3comp", {Value::scalarInt(0)});
  CHECK(e[0].shape == std::vector<int64_t>{2, 0, 2});
  // inner size depending on the element: a positioned error, not a crash
  auto bad = compile("export int[[*,*,*]] f(int n) = [[[k | k <- [0..<j]] | j <- [0..<n]] | i <- [0..<2]];\n");
  CHECK_FALSE(bad.ok);
  CHECK(bad.errors.find("1:") != std::string::npos);
  CHECK(bad.errors.find("internal") == std::string::npos);
}

TEST_CASE("QA-5/6/7: zip() size error code, leading let in a comprehension, computed size() axis") {
  auto c = compile("export (int, int)[[*]] zipf(int[[*]] a, int[[*]] b) = zip(a, b);\n"
                   "export int[[*]] f(int[[*]] xs) = [x + k | let k = 2, x <- xs];\n"
                   "export int[[*]] g(int n) = [sum([x + k | let k = i * 2, x <- iota(3)]) | i <- [0..<n]];\n"
                   "export int sz(int[[*,*]] A, int k) = A.size(k);\n"
                   "export int[[*]] sb(int[[*,*]] A, int n) = [A.size(i % 3) | i <- [0..<n]];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  try {
    ir::interpret(c.optimized, "zipf", {ivec({1, 2}), ivec({1})});
    FAIL("no error");
  } catch (const ir::RuntimeError &e) {
    CHECK(e.code == ir::Check::ZipSize);
  }
  CHECK(run2(c, "f", {ivec({1, 2})})[0].ints() == std::vector<int64_t>{3, 4});
  CHECK(run2(c, "g", {Value::scalarInt(3)})[0].ints() == std::vector<int64_t>{3, 9, 15});
  Value A = Value::arrayInt({1, 2, 3}, {1, 3});
  CHECK(run2(c, "sz", {A, Value::scalarInt(1)})[0].i == 3);
  CHECK(run2(c, "sz", {A, Value::scalarInt(0)})[0].i == 1);
  CHECK(run2(c, "sb", {A, Value::scalarInt(2)})[0].ints() == std::vector<int64_t>{1, 3});
  for (auto *m : {&c.lowered, &c.optimized}) {
    CHECK_THROWS_AS(ir::interpret(*m, "sz", {A, Value::scalarInt(2)}), ir::RuntimeError);
    CHECK_THROWS_AS(ir::interpret(*m, "sb", {A, Value::scalarInt(3)}), ir::RuntimeError);
  }
}

TEST_CASE("guards are hoisted only over host values, never from probes or over a SOAC's own index") {
  auto c = compile("export int[[*]] h(int n) = [iota(5)[i] | i <- [0..<n]];\n"
                   "export int[[*]] h2(int[[*]] xs) = [y | x <- xs, y <- iota(3)[0:x]];\n");
  REQUIRE_MESSAGE(c.ok, c.errors);
  for (auto &f : c.lowered.functions) CHECK(countKind(f.body, ir::StmtKind::Check) == 0);
  CHECK(run2(c, "h", {Value::scalarInt(3)})[0].ints() == std::vector<int64_t>{0, 1, 2});
  CHECK(run2(c, "h2", {ivec({})})[0].ints().empty());
  CHECK(run2(c, "h2", {ivec({1, 2})})[0].ints() == std::vector<int64_t>{0, 1, 0, 1, 2}); // l inclusive
  CHECK_THROWS_AS(ir::interpret(c.optimized, "h", {Value::scalarInt(6)}), ir::RuntimeError);
  CHECK_THROWS_AS(ir::interpret(c.optimized, "h2", {ivec({1, 5})}), ir::RuntimeError);
}
