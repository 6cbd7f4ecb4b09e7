// Test and benchmark blocks: the comment blocks above an export that `arrc
// test` and `arrc bench` read (the syntax is in docs/testing.md):
//
//   // == test
//   // tags: slow
//   // tolerance: 1e-6
//   // in:  [1.0, 2.0] [3.0, 4.0]
//   // out: 11.0
//   // in:  [1.0] [3.0, 4.0]
//   // error: zip of arrays of unequal sizes
//   //
//   // == bench
//   // sizes: n=10^6
//   // gen:   [n] [n]
//   // bytes: 16*n
//   export double dot(double[[*]] a, double[[*]] b) = ...
//
// A block starts at a `// ==` line and ends at the first line that is not a
// comment or is an empty `//`; it belongs to the next export below it (or to
// the exports named by `entry:`).
#pragma once

#include <arrc/literal.h>

#include <map>
#include <string>
#include <vector>

namespace arrc::driver {

struct BlockError {
  int line = 0, col = 0;
  std::string message;
};

// One input set: the arguments as Arr literals, and for a test what must come out.
struct TestCase {
  int line = 0, col = 0;          // of the `in:` value
  std::string input;              // the arguments' text on one line
  std::vector<io::Node> args;
  enum class Expect { Nothing, Value, Error } expect = Expect::Nothing;
  int expectLine = 0;
  std::string expected;           // out: the value's text; error: the message to find
  io::Node expectedValue;
};

// One argument of a `gen:` line.
struct GenArg {
  // Scalar: a number, `true`/`false` or a size expression (`n/2`), read by the parameter's type
  // Literal: `=` and an Arr literal (`=[1, 2, 3]`, `=(1, 2.0)`)
  // Random: `[d0, d1, ...]` random data of that shape; `[n]:lo..hi` sets the value range
  enum Kind { Scalar, Literal, Random } kind = Scalar;
  std::string text;                  // as written
  io::Node literal;                  // Literal
  std::vector<std::string> dims;     // Random: one size expression per axis
  bool hasRange = false;             // Random: `:lo..hi` given
  std::string lo, hi;                // size expressions (may be floating point)
};

struct GenInput {
  int line = 0, col = 0;
  std::string text;
  std::vector<GenArg> args;
};

struct Block {
  enum Kind { Test, Bench } kind = Test;
  int line = 0, lastLine = 0;        // the `// ==` line and the block's last line
  std::vector<std::string> entries;  // `entry:`; empty: the next export below the block
  std::vector<std::string> tags;
  bool hasTolerance = false;
  double tolerance = 0;
  std::vector<TestCase> cases;       // `in:` (with `out:`/`error:` in a test block)
  // bench blocks
  std::vector<std::pair<std::string, std::string>> sizes;  // `sizes: n=10^6, m=100`, in order
  std::vector<GenInput> gens;
  std::string bytes;                 // `bytes:` expression ("" when not stated)
  int bytesLine = 0;
};

// Every block of a source file; malformed lines are reported in `errors`
// (the rest of the file is still read).
std::vector<Block> parseBlocks(const std::string &source, std::vector<BlockError> &errors);

// Size expressions: integers (`10^7`, `1e6`), names bound in `sizes`,
// + - * / % ^ and parentheses. Throws std::runtime_error with a message.
double evalSize(const std::string &expr, const std::map<std::string, double> &sizes);

// "n=10^7" -> ("n", "10^7"); false when it is not NAME=EXPR.
bool splitSizeBinding(const std::string &text, std::string &name, std::string &expr);

} // namespace arrc::driver
