#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "Helpers.h"

using namespace arrc;

TEST_CASE("a function with an expression body") {
  Parsed p("export double dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);");
  REQUIRE(p.ok);
  REQUIRE(p.module.functions.size() == 1);
  const FunDecl &f = *p.module.functions[0];
  CHECK(f.exported);
  CHECK(f.name == "dot");
  CHECK(arrc::toString(f.result) == "double");
  REQUIRE(f.params.size() == 2);
  CHECK(arrc::toString(f.params[0].type) == "double[[*]]");
  CHECK(f.span.begin.line == 1);
  CHECK(f.span.begin.col == 1);
  CHECK(f.nameSpan.begin.col == 15);
  REQUIRE((f.body->kind == ExprKind::Call));
  auto &call = static_cast<const Call &>(*f.body);
  REQUIRE(call.args.size() == 1);
  REQUIRE((call.args[0]->kind == ExprKind::Comprehension));
  auto &comp = static_cast<const Comprehension &>(*call.args[0]);
  CHECK(comp.branches.size() == 2);
  CHECK((comp.branches[0][0].kind == Qualifier::Bind));
  CHECK(comp.branches[0][0].pattern.name == "x");
}

TEST_CASE("block bodies become nested LetIn") {
  Parsed p("def int f(int x) {\n  let a = x + 1;\n  let (b, _) = (a, 2);\n  return a * b;\n}");
  REQUIRE(p.ok);
  const Expr &e = p.body();
  REQUIRE((e.kind == ExprKind::LetIn));
  auto &l1 = static_cast<const LetIn &>(e);
  CHECK(l1.pattern.name == "a");
  REQUIRE((l1.body->kind == ExprKind::LetIn));
  auto &l2 = static_cast<const LetIn &>(*l1.body);
  CHECK((l2.pattern.kind == Pattern::Tuple));
  CHECK((l2.pattern.elems[1].kind == Pattern::Wildcard));
  CHECK((l2.body->kind == ExprKind::Binary));
}

TEST_CASE("every node has a valid span") {
  Parsed p("<T> def T[[*]] rev(T[[*]] xs) = xs[xs.size(0) - 1 : 0 : -1];\n"
           "export int f(int n) = loop (a = 0) for i < n do a + (\\x -> x)(i);");
  REQUIRE(p.ok);
  std::string ast = p.ast();
  CHECK_FALSE(contains(ast, "<0:"));
  std::istringstream lines(ast);
  std::string line;
  while (std::getline(lines, line))
    CHECK_MESSAGE(contains(line, "  <"), line);
}

TEST_CASE("operator precedence follows C") {
  Parsed p("def int f(int a, int b) = a | b ^ a & b == 1 << 2 + 3 * 4;");
  REQUIRE(p.ok);
  auto &top = static_cast<const Binary &>(p.body());
  CHECK((top.op == BinOp::BitOr));
  auto &x = static_cast<const Binary &>(*top.rhs);
  CHECK((x.op == BinOp::BitXor));
  auto &a = static_cast<const Binary &>(*x.rhs);
  CHECK((a.op == BinOp::BitAnd));
  auto &eq = static_cast<const Binary &>(*a.rhs);
  CHECK((eq.op == BinOp::Eq));
  auto &sh = static_cast<const Binary &>(*eq.rhs);
  CHECK((sh.op == BinOp::Shl));
  auto &add = static_cast<const Binary &>(*sh.rhs);
  CHECK((add.op == BinOp::Add));
  CHECK((static_cast<const Binary &>(*add.rhs).op == BinOp::Mul));
}

TEST_CASE("subtraction is left-associative; ++ is additive") {
  Parsed p("def int f(int a) = a - 1 - 2;\ndef int[[*]] g(int[[*]] x) = x ++ x ++ x;");
  REQUIRE(p.ok);
  auto &b = static_cast<const Binary &>(p.body());
  CHECK((b.lhs->kind == ExprKind::Binary));
  CHECK((b.rhs->kind == ExprKind::IntLit));
  CHECK((static_cast<const Binary &>(p.body(1)).op == BinOp::Concat));
}

TEST_CASE("1..5 lexes as a range, t.0.1 as two projections") {
  Parsed p("def int f(((int, int), int) t) = g([1..5], t.0.1);");
  REQUIRE(p.ok);
  auto &call = static_cast<const Call &>(p.body());
  REQUIRE((call.args[0]->kind == ExprKind::Range));
  auto &r = static_cast<const Range &>(*call.args[0]);
  CHECK(r.inclusive);
  CHECK(static_cast<const IntLit &>(*r.lo).value == 1);
  CHECK(static_cast<const IntLit &>(*r.hi).value == 5);
  REQUIRE((call.args[1]->kind == ExprKind::Project));
  auto &p1 = static_cast<const Project &>(*call.args[1]);
  CHECK(p1.index == 1);
  REQUIRE((p1.tuple->kind == ExprKind::Project));
  CHECK(static_cast<const Project &>(*p1.tuple).index == 0);
}

TEST_CASE("literals") {
  Parsed p("def int f() = g(42, 42L, 1.5, 1e-3, 1.5f, true, -2147483648, -9223372036854775808L);");
  REQUIRE(p.ok);
  auto &args = static_cast<const Call &>(p.body()).args;
  CHECK((static_cast<const IntLit &>(*args[0]).scalar == ScalarKind::Int));
  CHECK((static_cast<const IntLit &>(*args[1]).scalar == ScalarKind::Long));
  CHECK(static_cast<const FloatLit &>(*args[2]).value == 1.5);
  CHECK(static_cast<const FloatLit &>(*args[3]).value == doctest::Approx(1e-3));
  CHECK((static_cast<const FloatLit &>(*args[4]).scalar == ScalarKind::Float));
  CHECK(static_cast<const BoolLit &>(*args[5]).value);
  CHECK(static_cast<const IntLit &>(*args[6]).value == -2147483648LL);
  CHECK(static_cast<const IntLit &>(*args[7]).value == INT64_MIN);
}

TEST_CASE("sections, indexing and with") {
  Parsed p("def double[[*]] f(double[[*,*]] A) = g(A[1, :], A[0:9:2, 3], A with [:, 0] = A[:, 1]);");
  REQUIRE(p.ok);
  auto &args = static_cast<const Call &>(p.body()).args;
  auto &row = static_cast<const Index &>(*args[0]);
  CHECK(row.isSection());
  CHECK((row.args[0].kind == IndexArg::Single));
  CHECK((row.args[1].kind == IndexArg::All));
  auto &trip = static_cast<const Index &>(*args[1]);
  CHECK((trip.args[0].kind == IndexArg::Triplet));
  CHECK(trip.args[0].step != nullptr);
  REQUIRE((args[2]->kind == ExprKind::With));
  CHECK((static_cast<const With &>(*args[2]).value->kind == ExprKind::Index));
}

TEST_CASE("comprehension qualifiers: , binds tighter than |") {
  Parsed p("def int[[*]] f(int[[*]] xs) = [a + b | a <- xs, a > 0, let c = a | b <- xs];");
  REQUIRE(p.ok);
  auto &c = static_cast<const Comprehension &>(p.body());
  REQUIRE(c.branches.size() == 2);
  REQUIRE(c.branches[0].size() == 3);
  CHECK((c.branches[0][1].kind == Qualifier::Filter));
  CHECK((c.branches[0][2].kind == Qualifier::Let));
  CHECK(c.branches[1].size() == 1);
}

TEST_CASE("a bitwise | in a comprehension head must be parenthesised") {
  Parsed bad("def int[[*]] f(int[[*]] xs, int b) = [x | b | x <- xs];");
  CHECK_FALSE(bad.ok);
  CHECK(contains(bad.errors.str(), "must be parenthesised"));
  Parsed good("def int[[*]] f(int[[*]] xs, int b) = [(x | b) | x <- xs];");
  CHECK(good.ok);
}

TEST_CASE("lambdas, sections, conversions, loops") {
  Parsed p("def int f(int n) = g(\\x -> x, \\(a, b) -> a, \\x y -> x, (+), (min), double(n),"
           " loop (s = 0) while s < n do s + 1);");
  REQUIRE(p.ok);
  auto &args = static_cast<const Call &>(p.body()).args;
  CHECK(static_cast<const Lambda &>(*args[0]).params.size() == 1);
  CHECK((static_cast<const Lambda &>(*args[1]).params[0].kind == Pattern::Tuple));
  CHECK(static_cast<const Lambda &>(*args[2]).params.size() == 2);
  CHECK((static_cast<const OpSection &>(*args[3]).op == BinOp::Add));
  CHECK((args[4]->kind == ExprKind::Var));
  CHECK((static_cast<const Convert &>(*args[5]).to == ScalarKind::Double));
  CHECK((static_cast<const Loop &>(*args[6]).form == Loop::While));
}

TEST_CASE("syntax errors are positioned and several are reported") {
  Parsed p("export int f(int x) = x +;\ndef int g(int y) = y * ;\n");
  CHECK_FALSE(p.ok);
  std::string e = p.errors.str();
  CHECK(contains(e, "test.arr:1:26: error: expected an expression but found ';'"));
  CHECK(contains(e, "test.arr:2:24: error:"));
  CHECK(contains(e, "\n                         ^\n"));
}

TEST_CASE("expected ')' but found 'in'") {
  Parsed p("def int f(int x) = g(x in x);");
  CHECK_FALSE(p.ok);
  CHECK(contains(p.errors.str(), "but found 'in'"));
}

TEST_CASE("hostile input never crashes") {
  std::string nul("def int f() = 1;\0\0\xff\xfe", 20);
  CHECK_FALSE(Parsed(nul).ok);
  CHECK_FALSE(Parsed(std::string(100000, '(')).ok);
  CHECK_FALSE(Parsed(std::string(100000, '[')).ok);
  CHECK_FALSE(Parsed("def int f() = " + std::string(100000, '-') + "1;").ok);
  CHECK_FALSE(Parsed("/* never closed").ok);
  CHECK_FALSE(Parsed("import \"x").ok);
  CHECK(Parsed("").ok);
  CHECK(Parsed("// only a comment").ok);
  std::string chain = "def int f() = 1";
  for (int i = 0; i < 5000; ++i)
    chain += "+1";
  Parsed deep(chain + ";");
  CHECK_FALSE(deep.ok);
  CHECK(contains(deep.errors.str(), "nested too deeply"));
}

TEST_CASE("module names are C++ identifiers") {
  CHECK(moduleNameFromPath("dir/my-lib.arr") == "my_lib");
  CHECK(moduleNameFromPath("9lives.arr") == "_9lives");
  CHECK(moduleNameFromPath("new.arr") == "new_");
  CHECK(moduleNameFromPath("dot.arr") == "dot");
}
