// arrc runtime: Arr literal syntax for values, without any OpenCL: the
// parser, the number formatting and a comparison with a tolerance. Used by
// <arrc/io.h> (values to and from device arrays) and by the arrc driver
// (`arrc test` reads expected values with the same parser).
//
// Syntax: `true`/`false`; integers `42`, `-7`, `42L` (long); floating point
// `1.5`, `1e-3`, `1.5f` (float), `nan`, `inf`, `-inf`; tuples `(a, b)`;
// arrays `[a, b, ...]` nested for higher ranks (rectangular). Comments `//`
// and `/* */` and whitespace are skipped.
#pragma once

#include <arrc/error.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace arrc {
namespace io {

// A parsed literal.
struct Node {
  enum Kind { Int, Float, Bool, Tuple, Array } kind = Int;
  std::string text;  // Int/Float: the number as written (sign included, suffix removed)
  char suffix = 0;   // 'L' or 'f' when written
  bool b = false;    // Bool
  std::vector<Node> elems;  // Tuple / Array
  size_t pos = 0;    // offset in the input (for messages)

  const char* kind_name() const {
    switch (kind) {
      case Int: return "an integer";
      case Float: return "a floating-point number";
      case Bool: return "a boolean";
      case Tuple: return "a tuple";
      case Array: return "an array";
    }
    return "?";
  }
};

class ParseError : public Error {
public:
  explicit ParseError(const std::string& msg) : Error(msg) {}
};

namespace detail_io {

class Parser {
public:
  explicit Parser(const std::string& s) : s_(s) {}

  Node value() {
    skip();
    Node n;
    n.pos = p_;
    if (p_ >= s_.size()) fail("expected a value, found the end of the input");
    char c = s_[p_];
    if (c == '[' || c == '(') {
      char close = c == '[' ? ']' : ')';
      n.kind = c == '[' ? Node::Array : Node::Tuple;
      ++p_;
      skip();
      if (peek() == close) {
        ++p_;
        if (n.kind == Node::Tuple) fail("empty tuple", n.pos);
        return n;
      }
      for (;;) {
        n.elems.push_back(value());
        skip();
        if (peek() == ',') {
          ++p_;
          continue;
        }
        if (peek() == close) {
          ++p_;
          break;
        }
        fail(std::string("expected ',' or '") + close + "'");
      }
      if (n.kind == Node::Tuple && n.elems.size() == 1) return n.elems[0];  // (x) is x
      return n;
    }
    if (word("true")) {
      n.kind = Node::Bool;
      n.b = true;
      return n;
    }
    if (word("false")) {
      n.kind = Node::Bool;
      return n;
    }
    std::string t;
    if (c == '-' || c == '+') {
      if (c == '-') t += '-';
      ++p_;
      skip();
    }
    // nanf / inff: float's spelling, as results print (format_float)
    if (word("nanf") || word("inff")) {
      n.kind = Node::Float;
      n.text = t + s_.substr(p_ - 4, 3);
      n.suffix = 'f';
      return n;
    }
    if (word("nan") || word("inf")) {
      n.kind = Node::Float;
      n.text = t + s_.substr(p_ - 3, 3);
      return n;
    }
    size_t start = p_;
    bool isFloat = false;
    while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) ++p_;
    if (p_ < s_.size() && s_[p_] == '.') {
      isFloat = true;
      ++p_;
      while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) ++p_;
    }
    if (p_ < s_.size() && (s_[p_] == 'e' || s_[p_] == 'E') && p_ > start) {
      size_t save = p_;
      ++p_;
      if (p_ < s_.size() && (s_[p_] == '+' || s_[p_] == '-')) ++p_;
      if (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) {
        isFloat = true;
        while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) ++p_;
      } else {
        p_ = save;
      }
    }
    if (p_ == start || (p_ == start + 1 && s_[start] == '.'))
      fail("expected a value (a number, true, false, a tuple or an array)", start);
    t += s_.substr(start, p_ - start);
    n.text = t;
    n.kind = isFloat ? Node::Float : Node::Int;
    if (p_ < s_.size() && (s_[p_] == 'L' || s_[p_] == 'l') && !isFloat) {
      n.suffix = 'L';
      ++p_;
    } else if (p_ < s_.size() && (s_[p_] == 'f' || s_[p_] == 'F')) {
      n.suffix = 'f';
      n.kind = Node::Float;
      ++p_;
    }
    if (p_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[p_])) || s_[p_] == '_'))
      fail("unexpected character after a number");
    return n;
  }

  void skip() {
    for (;;) {
      while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) ++p_;
      if (s_.compare(p_, 2, "//") == 0) {
        while (p_ < s_.size() && s_[p_] != '\n') ++p_;
        continue;
      }
      if (s_.compare(p_, 2, "/*") == 0) {
        size_t e = s_.find("*/", p_ + 2);
        p_ = e == std::string::npos ? s_.size() : e + 2;
        continue;
      }
      break;
    }
  }
  bool at_end() {
    skip();
    return p_ >= s_.size();
  }
  [[noreturn]] void fail(const std::string& msg, size_t at = std::string::npos) const {
    if (at == std::string::npos) at = p_;
    throw ParseError("at offset " + std::to_string(at) + ": " + msg);
  }

private:
  char peek() const { return p_ < s_.size() ? s_[p_] : '\0'; }
  bool word(const char* w) {
    size_t n = std::char_traits<char>::length(w);
    if (s_.compare(p_, n, w) != 0) return false;
    if (p_ + n < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[p_ + n])) || s_[p_ + n] == '_'))
      return false;
    p_ += n;
    return true;
  }
  const std::string& s_;
  size_t p_ = 0;
};

[[noreturn]] inline void mismatch(const Node& n, const std::string& want) {
  throw ParseError("at offset " + std::to_string(n.pos) + ": expected " + want + ", found " +
                   n.kind_name());
}

}  // namespace detail_io

// Parses one value; the whole text must be that value.
inline Node parse(const std::string& text) {
  detail_io::Parser p(text);
  Node n = p.value();
  if (!p.at_end()) p.fail("unexpected text after the value");
  return n;
}

// Parses a sequence of values separated by whitespace (and optionally commas),
// e.g. the standard input of `arrc run`.
inline std::vector<Node> parse_all(const std::string& text) {
  detail_io::Parser p(text);
  std::vector<Node> r;
  while (!p.at_end()) r.push_back(p.value());
  return r;
}

// ---------------------------------------------------------------- scalars
template <class T>
T to_scalar(const Node& n) {
  if constexpr (std::is_same_v<T, bool>) {
    if (n.kind != Node::Bool) detail_io::mismatch(n, "a bool (true or false)");
    return n.b;
  } else if constexpr (std::is_integral_v<T>) {
    if (n.kind != Node::Int) detail_io::mismatch(n, sizeof(T) == 8 ? "a long" : "an int");
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(n.text.c_str(), &end, 10);
    if (errno == ERANGE || v < static_cast<long long>(std::numeric_limits<T>::min()) ||
        v > static_cast<long long>(std::numeric_limits<T>::max()))
      throw ParseError("at offset " + std::to_string(n.pos) + ": " + n.text + " is out of range for " +
                       (sizeof(T) == 8 ? "long" : "int"));
    return static_cast<T>(v);
  } else {
    static_assert(std::is_floating_point_v<T>, "unsupported scalar type");
    if (n.kind != Node::Float && n.kind != Node::Int)
      detail_io::mismatch(n, sizeof(T) == 4 ? "a float" : "a double");
    T v;
    if constexpr (std::is_same_v<T, float>) v = std::strtof(n.text.c_str(), nullptr);
    else v = std::strtod(n.text.c_str(), nullptr);
    // a number past the type's largest is an error, as such a literal is in a program
    if (std::isinf(v) && n.text.find("inf") == std::string::npos)
      throw ParseError("at offset " + std::to_string(n.pos) + ": " + n.text + " is out of range for " +
                       (sizeof(T) == 4 ? "float" : "double"));
    return v;
  }
}

// ---------------------------------------------------------------- printing
namespace detail_io {
// The fewest significant digits that read back to the same value; plain
// decimal notation for exponents -5..16 (-5..8 for floats), else scientific; always a '.' or 'e'.
inline std::string shortest(double v, int max_digits, bool as_float) {
  char buf[64];
  int p = 1;
  for (; p <= max_digits; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, v);
    if (as_float ? std::strtof(buf, nullptr) == static_cast<float>(v) : std::strtod(buf, nullptr) == v)
      break;
  }
  if (p > max_digits) p = max_digits;
  std::snprintf(buf, sizeof buf, "%.*e", p - 1, v);
  int e = std::atoi(std::strchr(buf, 'e') + 1);
  std::string s;
  if (e >= -5 && e < max_digits) {
    std::snprintf(buf, sizeof buf, "%.*f", std::max(0, p - 1 - e), v);
    s = buf;
  } else {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    s = buf;
  }
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}
}  // namespace detail_io

inline std::string format_double(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  return detail_io::shortest(v, 17, false);
}
inline std::string format_float(float v) {
  if (std::isnan(v)) return "nanf";
  if (std::isinf(v)) return v < 0 ? "-inff" : "inff";
  return detail_io::shortest(static_cast<double>(v), 9, true) + "f";
}

template <class T>
std::string format_scalar(const T& v) {
  if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
  else if constexpr (std::is_same_v<T, float>) return format_float(v);
  else if constexpr (std::is_same_v<T, double>) return format_double(v);
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 8) return std::to_string(v) + "L";
  else return std::to_string(v);
}

// The value written back in literal syntax (numbers as they were written).
inline std::string to_text(const Node& n) {
  switch (n.kind) {
    case Node::Int: return n.text + (n.suffix == 'L' ? "L" : "");
    case Node::Float: return n.text + (n.suffix == 'f' ? "f" : "");
    case Node::Bool: return n.b ? "true" : "false";
    case Node::Tuple:
    case Node::Array: {
      std::string s(1, n.kind == Node::Tuple ? '(' : '[');
      for (size_t i = 0; i < n.elems.size(); ++i) s += (i ? ", " : "") + to_text(n.elems[i]);
      return s + (n.kind == Node::Tuple ? ')' : ']');
    }
  }
  return "?";
}

// Relative tolerances for comparing floating-point numbers: |a - b| <=
// tol * max(1, |a|, |b|). `float_tol` applies where either side is written
// with the suffix f.
struct Tolerance {
  double double_tol = 1e-9;
  double float_tol = 1e-5;
};

namespace detail_io {
inline bool is_number(const Node& n) { return n.kind == Node::Int || n.kind == Node::Float; }

inline bool same_number(const Node& got, const Node& want, const Tolerance& tol) {
  if (got.kind == Node::Int && want.kind == Node::Int)
    return std::strtoll(got.text.c_str(), nullptr, 10) == std::strtoll(want.text.c_str(), nullptr, 10);
  double a = std::strtod(got.text.c_str(), nullptr), b = std::strtod(want.text.c_str(), nullptr);
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  double t = got.suffix == 'f' || want.suffix == 'f' ? tol.float_tol : tol.double_tol;
  return std::fabs(a - b) <= t * std::max({1.0, std::fabs(a), std::fabs(b)});
}

inline std::string compare_at(const Node& got, const Node& want, const Tolerance& tol,
                              const std::string& path) {
  std::string where = path.empty() ? "" : "at " + path + ": ";
  if (is_number(got) && is_number(want)) {
    if (same_number(got, want, tol)) return "";
    return where + "expected " + to_text(want) + ", got " + to_text(got);
  }
  if (got.kind != want.kind)
    return where + "expected " + want.kind_name() + " (" + to_text(want) + "), got " + got.kind_name() +
           " (" + to_text(got) + ")";
  if (got.kind == Node::Bool) {
    if (got.b == want.b) return "";
    return where + "expected " + to_text(want) + ", got " + to_text(got);
  }
  if (got.elems.size() != want.elems.size())
    return where + "expected " + std::string(got.kind == Node::Array ? "an array of " : "a tuple of ") +
           std::to_string(want.elems.size()) + " elements, got " + std::to_string(got.elems.size());
  for (size_t i = 0; i < got.elems.size(); ++i) {
    std::string sub = path + (got.kind == Node::Array ? "[" + std::to_string(i) + "]" : "." + std::to_string(i));
    std::string d = compare_at(got.elems[i], want.elems[i], tol, sub);
    if (!d.empty()) return d;
  }
  return "";
}
}  // namespace detail_io

// "" when `got` equals `want` (numbers within the tolerance; an integer and a
// floating-point number compare by value), else where and how they differ,
// e.g. "at [2]: expected 5, got 6".
inline std::string compare(const Node& got, const Node& want, const Tolerance& tol = {}) {
  return detail_io::compare_at(got, want, tol, "");
}

}  // namespace io
}  // namespace arrc
