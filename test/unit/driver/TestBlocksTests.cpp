// driver/TestBlocks.cpp: blocks, keys, continuation lines, positions of
// errors, gen: items, size expressions.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "TestBlocks.h"

#include <stdexcept>

using namespace arrc::driver;
using arrc::io::Node;

namespace {
std::vector<Block> parse(const std::string &src, std::vector<BlockError> &errors) {
  errors.clear();
  return parseBlocks(src, errors);
}
} // namespace

TEST_CASE("a test block: cases, tolerance, tags, entry, where it ends") {
  std::vector<BlockError> errors;
  auto blocks = parse("// header\n"
                      "// == test\n"
                      "// tags: slow, gpu\n"
                      "// tolerance: 1e-6\n"
                      "// entry: f g\n"
                      "// in:  [1, 2] 3\n"
                      "// out: [4,\n"
                      "//       5]\n"
                      "// in:  []\n"
                      "// error: empty\n"
                      "//\n"
                      "// prose after the block: not a key line\n"
                      "export int f(int x) = x;\n",
                      errors);
  REQUIRE(errors.empty());
  REQUIRE(blocks.size() == 1);
  const Block &b = blocks[0];
  CHECK(b.kind == Block::Test);
  CHECK(b.line == 2);
  CHECK(b.lastLine == 10);
  CHECK(b.tags == std::vector<std::string>{"slow", "gpu"});
  CHECK(b.entries == std::vector<std::string>{"f", "g"});
  CHECK(b.hasTolerance);
  CHECK(b.tolerance == doctest::Approx(1e-6));
  REQUIRE(b.cases.size() == 2);
  CHECK(b.cases[0].line == 6);
  CHECK(b.cases[0].col == 9);
  CHECK(b.cases[0].args.size() == 2);
  CHECK(b.cases[0].expect == TestCase::Expect::Value);
  CHECK(arrc::io::to_text(b.cases[0].expectedValue) == "[4, 5]");
  CHECK(b.cases[1].args.empty() == false);
  CHECK(b.cases[1].expect == TestCase::Expect::Error);
  CHECK(b.cases[1].expected == "empty");
}

TEST_CASE("an input continues on lines that are not keys; an empty in: has no arguments") {
  std::vector<BlockError> errors;
  auto blocks = parse("// == test\n// in: 1 2\n//     3\n// out: 6\n// in:\n// out: 0\n", errors);
  REQUIRE(errors.empty());
  REQUIRE(blocks[0].cases.size() == 2);
  CHECK(blocks[0].cases[0].args.size() == 3);
  CHECK(blocks[0].cases[0].input == "1 2 3");
  CHECK(blocks[0].cases[1].args.empty());
}

TEST_CASE("several blocks back to back, and an indented comment") {
  std::vector<BlockError> errors;
  auto blocks = parse("  // == test\n  // in: 1\n  // out: 1\n// == bench\n// in: 2\n", errors);
  REQUIRE(errors.empty());
  REQUIRE(blocks.size() == 2);
  CHECK(blocks[0].kind == Block::Test);
  CHECK(blocks[1].kind == Block::Bench);
  CHECK(blocks[1].cases.size() == 1);
  CHECK(blocks[1].cases[0].expect == TestCase::Expect::Nothing);
}

TEST_CASE("prose ends a block; keys left outside a block are errors") {
  std::vector<BlockError> errors;
  auto blocks = parse("// == test\n// in: 1\n// out: 2\n// Doubles x (a doc comment).\n"
                      "// Note: no block here.\nexport int f(int x) = 2 * x;\n",
                      errors);
  CHECK(errors.empty());
  REQUIRE(blocks.size() == 1);
  CHECK(blocks[0].lastLine == 3);
  CHECK(blocks[0].cases.size() == 1);

  parse("// == test\n// in: 1\n// out: 1\n//\n// in: 2\n// out: 2\n", errors);
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].line == 5);
  CHECK(errors[0].message.find("`in:` outside a block") != std::string::npos);
  CHECK(errors[1].line == 6);

  // a value continues on a line that starts like a value, or while a bracket is open
  blocks = parse("// == test\n// in: [true,\n// false] 1\n//  -2\n// out: 0\n", errors);
  CHECK(errors.empty());
  REQUIRE(blocks[0].cases.size() == 1);
  CHECK(blocks[0].cases[0].args.size() == 3);
}

TEST_CASE("errors name the line and column") {
  std::vector<BlockError> errors;
  parse("// == test\n// in: [1, 2\n// out: 1\n", errors);
  REQUIRE(!errors.empty());
  CHECK(errors[0].line == 2);
  CHECK(errors[0].message.find("unclosed bracket") != std::string::npos);

  parse("// == test\n// in: 1\n// bogus: 2\n// out: 1\n", errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].line == 3);
  CHECK(errors[0].col == 4);
  CHECK(errors[0].message.find("unknown key `bogus:`") != std::string::npos);

  parse("// == test\n// in: 1 [2, x]\n// out: 1\n", errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].line == 2);
  CHECK(errors[0].col == 14);  // the x

  parse("// == test\n// in: 1\n// in: 2\n// out: 2\n", errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("without `out:`") != std::string::npos);

  parse("// == tests\n// in: 1\n", errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("`// == test` or `// == bench`") != std::string::npos);

  parse("// == bench\n// out: 1\n// gen: [n]\n", errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("unknown key `out:` in a bench block") != std::string::npos);

  parse("//   arrc run f.arr -e f 1  ==> 2\n", errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("old `arrc run") != std::string::npos);
}

TEST_CASE("bench blocks: sizes, gen items, bytes") {
  std::vector<BlockError> errors;
  auto blocks = parse("// == bench\n"
                      "// sizes: n=10^6, m = n / 10\n"
                      "// gen: [n] [m, n]:0..n-1 2.5f n =[1, 2] (1, 2.0) []\n"
                      "// bytes: 16*n\n",
                      errors);
  REQUIRE(errors.empty());
  const Block &b = blocks[0];
  REQUIRE(b.sizes.size() == 2);
  CHECK(b.sizes[1].first == "m");
  CHECK(b.sizes[1].second == "n / 10");
  CHECK(b.bytes == "16*n");
  REQUIRE(b.gens.size() == 1);
  const auto &a = b.gens[0].args;
  REQUIRE(a.size() == 7);
  CHECK(a[0].kind == GenArg::Random);
  CHECK(a[0].dims == std::vector<std::string>{"n"});
  CHECK(!a[0].hasRange);
  CHECK(a[1].dims == std::vector<std::string>{"m", "n"});
  CHECK(a[1].hasRange);
  CHECK(a[1].lo == "0");
  CHECK(a[1].hi == "n-1");
  CHECK(a[2].kind == GenArg::Scalar);
  CHECK(a[2].text == "2.5f");
  CHECK(a[3].kind == GenArg::Scalar);
  CHECK(a[4].kind == GenArg::Literal);
  CHECK(arrc::io::to_text(a[4].literal) == "[1, 2]");
  CHECK(a[5].kind == GenArg::Literal);
  CHECK(a[6].kind == GenArg::Random);
  CHECK(a[6].dims.empty());
}

TEST_CASE("size expressions") {
  std::map<std::string, double> env{{"n", 1000}};
  CHECK(evalSize("10^7", env) == 1e7);
  CHECK(evalSize("2^3^2", env) == 512);  // right-associative
  CHECK(evalSize("1e6", env) == 1e6);
  CHECK(evalSize("16*n + 4", env) == 16004);
  CHECK(evalSize("-(n - 1) % 7", env) == doctest::Approx(-5));
  CHECK(evalSize("n/8", env) == 125);
  CHECK_THROWS_WITH_AS(evalSize("k", env), doctest::Contains("unknown size `k`"), std::runtime_error);
  CHECK_THROWS_AS(evalSize("1 +", env), std::runtime_error);
  CHECK_THROWS_AS(evalSize("(1", env), std::runtime_error);
  CHECK_THROWS_AS(evalSize("n / 0", env), std::runtime_error);
  std::string name, expr;
  CHECK(splitSizeBinding("n=10^7", name, expr));
  CHECK(name == "n");
  CHECK(expr == "10^7");
  CHECK(!splitSizeBinding("10", name, expr));
  CHECK(!splitSizeBinding("1n=3", name, expr));
}

TEST_CASE("values compare with a tolerance; integers exactly") {
  using arrc::io::compare;
  using arrc::io::parse;
  CHECK(compare(parse("[1.0, 2.0000000001]"), parse("[1.0, 2.0]")).empty());
  CHECK(!compare(parse("[1.0, 2.001]"), parse("[1.0, 2.0]")).empty());
  CHECK(compare(parse("0.30000001f"), parse("0.3f")).empty());
  CHECK(compare(parse("3.0"), parse("3")).empty());
  CHECK(compare(parse("nan"), parse("nan")).empty());
  CHECK(!compare(parse("inf"), parse("-inf")).empty());
  // floats' non-finite values read back as they print (format_float)
  CHECK(arrc::io::format_float(std::numeric_limits<float>::infinity()) == "inff");
  CHECK(compare(parse("[inff, -inff, nanf]"),
                parse("[" + arrc::io::format_float(std::numeric_limits<float>::infinity()) + ", " +
                      arrc::io::format_float(-std::numeric_limits<float>::infinity()) + ", nanf]"))
            .empty());
  CHECK(!compare(parse("inff"), parse("-inff")).empty());
  CHECK(compare(parse("[1, 2]"), parse("[1, 3]")) == "at [1]: expected 3, got 2");
  CHECK(compare(parse("([1], true)"), parse("([1], false)")) == "at .1: expected false, got true");
  CHECK(!compare(parse("[1, 2]"), parse("[1]")).empty());
  arrc::io::Tolerance loose;
  loose.double_tol = 0.1;
  CHECK(compare(parse("1.05"), parse("1.0"), loose).empty());
}

TEST_CASE("argument numbers follow the literal rules of programs") {
  using arrc::io::parse;
  using arrc::io::to_scalar;
  CHECK_THROWS_WITH_AS(to_scalar<int32_t>(parse("2147483648")), doctest::Contains("out of range for int"),
                       arrc::io::ParseError);
  CHECK(to_scalar<int32_t>(parse("-2147483648")) == INT32_MIN);
  CHECK_THROWS_WITH_AS(to_scalar<float>(parse("1e40f")), doctest::Contains("out of range for float"),
                       arrc::io::ParseError);
  CHECK_THROWS_WITH_AS(to_scalar<double>(parse("1e400")), doctest::Contains("out of range for double"),
                       arrc::io::ParseError);
  CHECK(to_scalar<float>(parse("3.4e38f")) == 3.4e38f);
  CHECK(to_scalar<float>(parse("1e-50f")) == 0.0f); // underflow rounds, as in programs
  CHECK(std::isinf(to_scalar<double>(parse("-inf"))));
  CHECK(std::isnan(to_scalar<float>(parse("nanf"))));
}
