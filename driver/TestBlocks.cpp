// Reading test and benchmark blocks out of comments. See TestBlocks.h and
// docs/testing.md for the syntax.
#include "TestBlocks.h"

#include <cctype>
#include <cmath>
#include <stdexcept>

namespace arrc::driver {
namespace {

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// A source line seen as a `//` comment: its text after `//` and that text's column.
struct CommentLine {
  bool isComment = false;
  std::string body; // trimmed
  int col = 0;      // 1-based column of body[0]
};

CommentLine commentOf(const std::string &line) {
  CommentLine c;
  size_t b = line.find_first_not_of(" \t");
  if (b == std::string::npos || line.compare(b, 2, "//") != 0) return c;
  c.isComment = true;
  std::string rest = line.substr(b + 2);
  size_t r = rest.find_first_not_of(" \t\r");
  if (r == std::string::npos) return c;
  c.body = trim(rest);
  c.col = static_cast<int>(b + 2 + r + 1);
  return c;
}

// Net open brackets and parentheses in s.
int depthChange(const std::string &s) {
  int d = 0;
  for (char ch : s) {
    if (ch == '[' || ch == '(') ++d;
    else if (ch == ']' || ch == ')') --d;
  }
  return d;
}

// A value spread over one or more comment lines, joined with spaces.
struct Value {
  std::string text;
  struct Piece {
    size_t offset;
    int line, col;
  };
  std::vector<Piece> pieces;
  void add(const std::string &t, int line, int col) {
    if (!text.empty()) text += ' ';
    pieces.push_back({text.size(), line, col});
    text += t;
  }
  // line:col of a character offset in text
  void position(size_t offset, int &line, int &col) const {
    line = pieces.empty() ? 0 : pieces[0].line;
    col = pieces.empty() ? 0 : pieces[0].col;
    for (auto &p : pieces)
      if (p.offset <= offset) {
        line = p.line;
        col = p.col + static_cast<int>(offset - p.offset);
      }
  }
};

// "at offset N: message" (io::ParseError) -> N and the message.
size_t parseErrorOffset(const std::string &what, std::string &message) {
  message = what;
  if (what.rfind("at offset ", 0) != 0) return 0;
  size_t colon = what.find(": ");
  if (colon == std::string::npos) return 0;
  message = what.substr(colon + 2);
  return static_cast<size_t>(std::stoul(what.substr(10, colon - 10)));
}

std::vector<std::string> words(const std::string &s) {
  std::vector<std::string> r;
  std::string cur;
  for (char ch : s) {
    if (std::isspace(static_cast<unsigned char>(ch)) || ch == ',') {
      if (!cur.empty()) r.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) r.push_back(cur);
  return r;
}

// Splits at whitespace outside brackets and parentheses.
std::vector<std::pair<size_t, std::string>> items(const std::string &s) {
  std::vector<std::pair<size_t, std::string>> r;
  int depth = 0;
  size_t start = std::string::npos;
  for (size_t i = 0; i <= s.size(); ++i) {
    char ch = i < s.size() ? s[i] : ' ';
    if (ch == '[' || ch == '(') ++depth;
    if (ch == ']' || ch == ')') --depth;
    bool space = std::isspace(static_cast<unsigned char>(ch));
    if (!space && start == std::string::npos) start = i;
    if (space && depth <= 0 && start != std::string::npos) {
      r.push_back({start, s.substr(start, i - start)});
      start = std::string::npos;
    }
  }
  return r;
}

// Splits at commas outside parentheses.
std::vector<std::string> commaList(const std::string &s) {
  std::vector<std::string> r;
  int depth = 0;
  std::string cur;
  for (char ch : s) {
    if (ch == '(') ++depth;
    if (ch == ')') --depth;
    if (ch == ',' && depth == 0) {
      r.push_back(trim(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  r.push_back(trim(cur));
  return r;
}

// "name:" at the start of a block line.
bool startsWithKey(const std::string &body) {
  size_t k = 0;
  while (k < body.size() && (std::isalnum(static_cast<unsigned char>(body[k])) || body[k] == '_')) ++k;
  return k > 0 && k < body.size() && body[k] == ':';
}

// The start of a value continued from the line before: a bracket, a
// number, a literal word, or `=` (a gen: literal).
bool looksLikeValue(const std::string &body) {
  if (body.empty()) return false;
  if (std::string("[]()-+.,=").find(body[0]) != std::string::npos ||
      std::isdigit(static_cast<unsigned char>(body[0])))
    return true;
  for (const char *w : {"true", "false", "nan", "inf"})
    if (body.rfind(w, 0) == 0) return true;
  return false;
}

class BlockParser {
public:
  BlockParser(const std::string &source, std::vector<BlockError> &errors) : errors_(errors) {
    size_t start = 0;
    while (start <= source.size()) {
      size_t nl = source.find('\n', start);
      if (nl == std::string::npos) nl = source.size();
      lines_.push_back(source.substr(start, nl - start));
      start = nl + 1;
    }
  }

  std::vector<Block> run() {
    std::vector<Block> blocks;
    size_t i = 0;
    while (i < lines_.size()) {
      CommentLine c = commentOf(lines_[i]);
      if (c.isComment && c.body.rfind("arrc run ", 0) == 0 &&
          (c.body.find("==>") != std::string::npos ||
           (i + 1 < lines_.size() && commentOf(lines_[i + 1]).body.rfind("==>", 0) == 0)))
        error(static_cast<int>(i + 1), c.col,
              "an old `arrc run ... ==> value` line: `arrc test` reads `// == test` blocks "
              "(scripts/migrate_run_lines.py converts these lines)");
      if (!c.isComment || c.body.compare(0, 2, "==") != 0 || c.body.compare(0, 3, "==>") == 0) {
        ++i;
        continue;
      }
      Block b;
      b.line = static_cast<int>(i + 1);
      std::string kind = trim(c.body.substr(2));
      bool ok = true;
      if (kind == "test") b.kind = Block::Test;
      else if (kind == "bench") b.kind = Block::Bench;
      else {
        error(b.line, c.col, "a block starts with `// == test` or `// == bench`, not `// " + c.body + "`");
        ok = false;
      }
      ++i;
      while (i < lines_.size()) {
        CommentLine item = commentOf(lines_[i]);
        if (!item.isComment || item.body.empty() || item.body.compare(0, 2, "==") == 0) break;
        // prose (a line that is not `key:`, or a capitalised `Note:`) ends
        // the block, so a doc comment may follow it directly
        if (!startsWithKey(item.body) || std::isupper(static_cast<unsigned char>(item.body[0]))) break;
        if (ok) i = parseItem(b, i, item);
        else ++i;
      }
      b.lastLine = static_cast<int>(i);
      // keys in the rest of this comment are cases that no block holds
      for (size_t k = i; k < lines_.size(); ++k) {
        CommentLine rest = commentOf(lines_[k]);
        if (!rest.isComment || rest.body.compare(0, 2, "==") == 0) break;
        for (const char *key : {"in:", "out:", "error:", "gen:"})
          if (rest.body.rfind(key, 0) == 0)
            error(static_cast<int>(k + 1), rest.col,
                  std::string("`") + key + "` outside a block: the block above ended at line " +
                      std::to_string(i) + " (a block ends at an empty `//` line or at a line that is "
                      "not `key: value`)");
      }
      if (!ok) continue;
      finish(b);
      blocks.push_back(std::move(b));
    }
    return blocks;
  }

private:
  void error(int line, int col, const std::string &message) { errors_.push_back({line, col, message}); }

  // Reads the item at line i (and its continuation lines); returns the next line.
  size_t parseItem(Block &b, size_t i, const CommentLine &c) {
    int line = static_cast<int>(i + 1);
    size_t colon = c.body.find(':');
    std::string key = colon == std::string::npos ? "" : c.body.substr(0, colon);
    bool isKey = !key.empty();
    for (char ch : key) isKey = isKey && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
    static const char *const testKeys[] = {"in", "out", "error", "tags", "tolerance", "entry"};
    static const char *const benchKeys[] = {"in", "gen", "sizes", "bytes", "tags", "entry"};
    bool known = false;
    for (const char *k : b.kind == Block::Test ? testKeys : benchKeys) known = known || key == k;
    if (!isKey || !known) {
      std::string allowed = b.kind == Block::Test ? "in:, out:, error:, tags:, tolerance:, entry:"
                                                  : "in:, gen:, sizes:, bytes:, tags:, entry:";
      error(line, c.col,
            (isKey ? "unknown key `" + key + ":`" : "expected `key: value`") + " in a " +
                (b.kind == Block::Test ? "test" : "bench") + " block (allowed: " + allowed +
                "; an empty `//` line ends the block)");
      return i + 1;
    }
    std::string first = c.body.substr(colon + 1);
    size_t lead = first.find_first_not_of(" \t");
    int valueCol = c.col + static_cast<int>(colon + 1 + (lead == std::string::npos ? first.size() : lead));
    Value v;
    std::string t = trim(first);
    if (!t.empty()) v.add(t, line, valueCol);
    ++i;
    // in:, out: and gen: values continue on the next comment lines that are
    // not `key:` lines (a value never starts with a name and a colon)
    if (key == "in" || key == "out" || key == "gen") {
      int depth = depthChange(t);
      while (i < lines_.size()) {
        CommentLine more = commentOf(lines_[i]);
        if (!more.isComment || more.body.empty() || more.body.compare(0, 2, "==") == 0 ||
            startsWithKey(more.body) || (depth <= 0 && !looksLikeValue(more.body)))
          break;
        v.add(more.body, static_cast<int>(i + 1), more.col);
        depth += depthChange(more.body);
        ++i;
      }
      if (depth > 0) error(line, valueCol, "unclosed bracket in the `" + key + ":` value");
    }
    if (key == "in") readInput(b, v, line, valueCol);
    else if (key == "out") readOutput(b, v, line, valueCol);
    else if (key == "error") readError(b, t, line, valueCol);
    else if (key == "tags") for (auto &w : words(t)) b.tags.push_back(w);
    else if (key == "entry") {
      for (auto &w : words(t)) b.entries.push_back(w);
      if (words(t).empty()) error(line, valueCol, "`entry:` needs the name of an export");
    } else if (key == "tolerance") {
      char *end = nullptr;
      double tol = std::strtod(t.c_str(), &end);
      if (t.empty() || *end != '\0' || !(tol >= 0))
        error(line, valueCol, "`tolerance:` needs a non-negative number, e.g. 1e-6");
      b.hasTolerance = true;
      b.tolerance = tol;
    } else if (key == "sizes") readSizes(b, t, line, valueCol);
    else if (key == "gen") readGen(b, v, line, valueCol);
    else if (key == "bytes") {
      if (t.empty()) error(line, valueCol, "`bytes:` needs an expression, e.g. 16*n");
      b.bytes = t;
      b.bytesLine = line;
    }
    return i;
  }

  void readInput(Block &b, const Value &v, int line, int col) {
    if (b.kind == Block::Test && !b.cases.empty() && b.cases.back().expect == TestCase::Expect::Nothing)
      error(b.cases.back().line, b.cases.back().col, "`in:` without `out:` or `error:` after it");
    TestCase tc;
    tc.line = line;
    tc.col = col;
    tc.input = v.text;
    try {
      tc.args = io::parse_all(v.text);
    } catch (const io::ParseError &e) {
      std::string msg;
      size_t off = parseErrorOffset(e.what(), msg);
      int l, c;
      v.position(off, l, c);
      error(l, c, "input: " + msg);
    }
    b.cases.push_back(std::move(tc));
  }

  TestCase *pendingCase(Block &b, int line, int col, const char *key) {
    if (b.cases.empty() || b.cases.back().expect != TestCase::Expect::Nothing) {
      error(line, col, std::string("`") + key + ":` must follow an `in:` line");
      return nullptr;
    }
    return &b.cases.back();
  }

  void readOutput(Block &b, const Value &v, int line, int col) {
    TestCase *tc = pendingCase(b, line, col, "out");
    if (!tc) return;
    tc->expect = TestCase::Expect::Value;
    tc->expectLine = line;
    tc->expected = v.text;
    try {
      tc->expectedValue = io::parse(v.text);
    } catch (const io::ParseError &e) {
      std::string msg;
      size_t off = parseErrorOffset(e.what(), msg);
      int l, c;
      v.position(off, l, c);
      error(l, c, "expected value: " + msg);
    }
  }

  void readError(Block &b, const std::string &text, int line, int col) {
    TestCase *tc = pendingCase(b, line, col, "error");
    if (!tc) return;
    tc->expect = TestCase::Expect::Error;
    tc->expectLine = line;
    tc->expected = text;
  }

  void readSizes(Block &b, const std::string &text, int line, int col) {
    for (auto &part : commaList(text)) {
      std::string name, expr;
      if (!splitSizeBinding(part, name, expr)) {
        error(line, col, "`sizes:` takes NAME=EXPR, ... (e.g. n=10^6, m=100), not `" + part + "`");
        continue;
      }
      b.sizes.push_back({name, expr});
    }
  }

  void readGen(Block &b, const Value &v, int line, int col) {
    GenInput g;
    g.line = line;
    g.col = col;
    g.text = v.text;
    for (auto &[off, item] : items(v.text)) {
      int l, c;
      v.position(off, l, c);
      GenArg a;
      a.text = item;
      if (item[0] == '=') {
        a.kind = GenArg::Literal;
        try {
          a.literal = io::parse(item.substr(1));
        } catch (const io::ParseError &e) {
          std::string msg;
          size_t o = parseErrorOffset(e.what(), msg);
          v.position(off + 1 + o, l, c);
          error(l, c, "gen: literal: " + msg);
        }
      } else if (item[0] == '(') {
        a.kind = GenArg::Literal;
        try {
          a.literal = io::parse(item);
        } catch (const io::ParseError &e) {
          std::string msg;
          size_t o = parseErrorOffset(e.what(), msg);
          v.position(off + o, l, c);
          error(l, c, "gen: tuple: " + msg);
        }
      } else if (item[0] == '[') {
        a.kind = GenArg::Random;
        size_t close = item.find(']');
        if (close == std::string::npos) {
          error(l, c, "gen: unclosed `[` in `" + item + "`");
          continue;
        }
        std::string inside = trim(item.substr(1, close - 1));
        if (!inside.empty())  // `[]`: a random scalar
          for (auto &d : commaList(inside)) {
            if (d.empty()) error(l, c, "gen: empty extent in `" + item + "`");
            a.dims.push_back(d);
          }
        std::string rest = item.substr(close + 1);
        if (!rest.empty()) {
          size_t dots = rest.find("..");
          if (rest[0] != ':' || dots == std::string::npos || dots < 2 || dots + 2 >= rest.size()) {
            error(l, c, "gen: after `[...]` only a value range `:lo..hi` may follow, not `" + rest + "`");
            continue;
          }
          a.hasRange = true;
          a.lo = rest.substr(1, dots - 1);
          a.hi = rest.substr(dots + 2);
        }
      } else {
        a.kind = GenArg::Scalar;
      }
      g.args.push_back(std::move(a));
    }
    b.gens.push_back(std::move(g));
  }

  void finish(Block &b) {
    if (b.kind == Block::Test) {
      if (!b.cases.empty() && b.cases.back().expect == TestCase::Expect::Nothing)
        error(b.cases.back().line, b.cases.back().col, "`in:` without `out:` or `error:` after it");
      if (b.cases.empty()) error(b.line, 1, "a test block without any `in:` line");
    } else if (b.cases.empty() && b.gens.empty()) {
      error(b.line, 1, "a bench block without any `in:` or `gen:` line");
    }
  }

  std::vector<std::string> lines_;
  std::vector<BlockError> &errors_;
};

// Recursive descent over a size expression.
class SizeExpr {
public:
  SizeExpr(const std::string &s, const std::map<std::string, double> &sizes) : s_(s), sizes_(sizes) {}
  double parse() {
    double v = sum();
    skip();
    if (p_ != s_.size()) fail("unexpected `" + s_.substr(p_) + "`");
    return v;
  }

private:
  [[noreturn]] void fail(const std::string &m) {
    throw std::runtime_error("in the size expression `" + s_ + "`: " + m);
  }
  void skip() {
    while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) ++p_;
  }
  bool eat(char c) {
    skip();
    if (p_ < s_.size() && s_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  double sum() {
    double v = product();
    for (;;) {
      if (eat('+')) v += product();
      else if (eat('-')) v -= product();
      else return v;
    }
  }
  double product() {
    double v = power();
    for (;;) {
      if (eat('*')) v *= power();
      else if (eat('/')) {
        double d = power();
        if (d == 0) fail("division by zero");
        v /= d;
      } else if (eat('%')) {
        double d = power();
        if (d == 0) fail("division by zero");
        v = std::fmod(v, d);
      } else return v;
    }
  }
  double power() {
    double b = unary();
    if (eat('^')) return std::pow(b, power());
    return b;
  }
  double unary() {
    if (eat('-')) return -unary();
    if (eat('+')) return unary();
    return atom();
  }
  double atom() {
    skip();
    if (eat('(')) {
      double v = sum();
      if (!eat(')')) fail("missing `)`");
      return v;
    }
    if (p_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[p_])) || s_[p_] == '.')) {
      const char *begin = s_.c_str() + p_;
      char *end = nullptr;
      double v = std::strtod(begin, &end);
      p_ += static_cast<size_t>(end - begin);
      return v;
    }
    if (p_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[p_])) || s_[p_] == '_')) {
      size_t b = p_;
      while (p_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[p_])) || s_[p_] == '_')) ++p_;
      std::string name = s_.substr(b, p_ - b);
      auto it = sizes_.find(name);
      if (it == sizes_.end()) fail("unknown size `" + name + "` (give it with --size " + name + "=... or in `sizes:`)");
      return it->second;
    }
    fail(p_ < s_.size() ? "unexpected `" + std::string(1, s_[p_]) + "`" : "an operand is missing");
  }

  const std::string &s_;
  const std::map<std::string, double> &sizes_;
  size_t p_ = 0;
};

} // namespace

std::vector<Block> parseBlocks(const std::string &source, std::vector<BlockError> &errors) {
  return BlockParser(source, errors).run();
}

double evalSize(const std::string &expr, const std::map<std::string, double> &sizes) {
  return SizeExpr(expr, sizes).parse();
}

bool splitSizeBinding(const std::string &text, std::string &name, std::string &expr) {
  size_t eq = text.find('=');
  if (eq == std::string::npos) return false;
  name = trim(text.substr(0, eq));
  expr = trim(text.substr(eq + 1));
  if (name.empty() || expr.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  for (char ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') return false;
  return true;
}

} // namespace arrc::driver
