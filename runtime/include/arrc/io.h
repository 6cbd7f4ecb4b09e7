// arrc runtime: Arr literal syntax for values (used by `arrc run`, handy in
// tests and user programs).
//
//   Node n = arrc::io::parse("[[1.0, 2.0], [3.0, 4.0]]");
//   auto A = arrc::io::to_array<double, 2>(ctx, n);
//   arrc::io::print(std::cout, A);            // [[1.0, 2.0], [3.0, 4.0]]
//
// Syntax: `true`/`false`; integers `42`, `-7`, `42L` (long); floating point
// `1.5`, `1e-3`, `1.5f` (float), `nan`, `inf`, `-inf`; tuples `(a, b)`;
// arrays `[a, b, ...]` nested for higher ranks (rectangular). Comments `//`
// and `/* */` and whitespace are skipped.
//
// Printing: doubles with the fewest digits that read back to the same value
// and always a `.` or an exponent (`11.0`, `0.1`, `1e+20`), floats likewise
// with the suffix `f`, longs with `L`, bools `true`/`false`.
#pragma once

#include <arrc/array.h>
#include <arrc/context.h>
#include <arrc/error.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <limits>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
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
    if (word("nan") || word("inf")) {
      n.kind = Node::Float;
      n.text = t + s_.substr(p_ - 3, 3);
      if (peek() == 'f') {
        n.suffix = 'f';
        ++p_;
      }
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

template <class T>
struct is_tuple : std::false_type {};
template <class... A>
struct is_tuple<std::tuple<A...>> : std::true_type {};

template <class T>
struct is_array : std::false_type {};
template <class T, int D>
struct is_array<arrc::Array<T, D>> : std::true_type {};

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
    if constexpr (std::is_same_v<T, float>) return std::strtof(n.text.c_str(), nullptr);
    else return std::strtod(n.text.c_str(), nullptr);
  }
}

// ---------------------------------------------------------------- arrays
namespace detail_io {
// Shape of a rank-D array node (rectangular); leaves collected in row-major order.
template <int D>
void array_shape(const Node& n, int axis, std::array<int64_t, D>& shape, bool& first,
                 std::vector<const Node*>& leaves) {
  if (axis == D) {
    leaves.push_back(&n);
    return;
  }
  if (n.kind != Node::Array)
    mismatch(n, "an array of rank " + std::to_string(D - axis));
  int64_t len = static_cast<int64_t>(n.elems.size());
  if (first) {
    shape[axis] = len;
    if (len == 0)
      for (int k = axis + 1; k < D; ++k) shape[k] = 0;
  } else if (shape[axis] != len) {
    throw ParseError("at offset " + std::to_string(n.pos) + ": irregular array: " +
                     std::to_string(len) + " elements where the first row of axis " +
                     std::to_string(axis) + " has " + std::to_string(shape[axis]));
  }
  if (len == 0) {
    if (first) first = false;
    return;
  }
  for (const Node& e : n.elems) array_shape<D>(e, axis + 1, shape, first, leaves);
  if (axis == D - 1) first = false;
}
}  // namespace detail_io

template <class T, int D>
std::pair<std::vector<const Node*>, std::array<int64_t, D>> array_leaves(const Node& n) {
  std::array<int64_t, D> shape{};
  bool first = true;
  std::vector<const Node*> leaves;
  detail_io::array_shape<D>(n, 0, shape, first, leaves);
  return {leaves, shape};
}

template <class T, int D>
arrc::Array<T, D> to_array(Context& ctx, const Node& n) {
  auto [leaves, shape] = array_leaves<T, D>(n);
  std::vector<T> data;
  data.reserve(leaves.size());
  for (const Node* l : leaves) data.push_back(to_scalar<T>(*l));
  return arrc::Array<T, D>::from(ctx, data, shape);
}

// An array of tuples (C++: a std::tuple of arrays, possibly nested) from `[(a, b), ...]`.
namespace detail_io {
template <class T>
struct soa;
template <class E, int D>
struct soa<arrc::Array<E, D>> {
  static constexpr int rank = D;
  static arrc::Array<E, D> build(Context& ctx, const std::vector<const Node*>& leaves,
                                 const std::array<int64_t, D>& shape) {
    std::vector<E> data;
    data.reserve(leaves.size());
    for (const Node* l : leaves) data.push_back(to_scalar<E>(*l));
    return arrc::Array<E, D>::from(ctx, data, shape);
  }
};
template <class A, class... R>
struct soa<std::tuple<A, R...>> {
  static constexpr int rank = soa<A>::rank;
  using type = std::tuple<A, R...>;
  template <size_t... I>
  static type build_i(Context& ctx, const std::vector<const Node*>& leaves,
                      const std::array<int64_t, rank>& shape, std::index_sequence<I...>) {
    constexpr size_t K = sizeof...(R) + 1;
    for (const Node* l : leaves)
      if (l->kind != Node::Tuple || l->elems.size() != K)
        mismatch(*l, "a tuple of " + std::to_string(K) + " elements");
    auto component = [&](size_t i) {
      std::vector<const Node*> c;
      c.reserve(leaves.size());
      for (const Node* l : leaves) c.push_back(&l->elems[i]);
      return c;
    };
    return type(soa<std::tuple_element_t<I, type>>::build(ctx, component(I), shape)...);
  }
  static type build(Context& ctx, const std::vector<const Node*>& leaves,
                    const std::array<int64_t, rank>& shape) {
    return build_i(ctx, leaves, shape, std::index_sequence_for<A, R...>{});
  }
};
}  // namespace detail_io

template <class Tup>
Tup to_soa(Context& ctx, const Node& n) {
  constexpr int D = detail_io::soa<Tup>::rank;
  auto [leaves, shape] = array_leaves<int, D>(n);
  return detail_io::soa<Tup>::build(ctx, leaves, shape);
}

// Checks that n is a tuple of k elements and returns element i.
inline const Node& tuple_elem(const Node& n, size_t k, size_t i) {
  if (n.kind != Node::Tuple || n.elems.size() != k)
    detail_io::mismatch(n, "a tuple of " + std::to_string(k) + " elements");
  return n.elems[i];
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

namespace detail_io {
template <int D, class F>
void print_nested(std::ostream& os, const std::array<int64_t, D>& shape, int axis, int64_t& flat,
                  const F& elem) {
  os << '[';
  for (int64_t i = 0; i < shape[axis]; ++i) {
    if (i) os << ", ";
    if (axis == D - 1) elem(flat++);
    else print_nested<D>(os, shape, axis + 1, flat, elem);
  }
  os << ']';
}
template <class T>
struct soa_print;
template <class E, int D>
struct soa_print<arrc::Array<E, D>> {
  struct Data {
    std::vector<E> v;
  };
  static std::array<int64_t, D> shape(const arrc::Array<E, D>& a) { return a.shape(); }
  static Data load(const arrc::Array<E, D>& a) { return {a.to_vector()}; }
  static void elem(std::ostream& os, const Data& d, int64_t i) {
    os << format_scalar<E>(d.v[static_cast<size_t>(i)]);
  }
};
template <class... A>
struct soa_print<std::tuple<A...>> {
  using type = std::tuple<A...>;
  using Data = std::tuple<typename soa_print<A>::Data...>;
  static auto shape(const type& t) { return soa_print<std::tuple_element_t<0, type>>::shape(std::get<0>(t)); }
  template <size_t... I>
  static Data load_i(const type& t, std::index_sequence<I...>) {
    return Data(soa_print<A>::load(std::get<I>(t))...);
  }
  static Data load(const type& t) { return load_i(t, std::index_sequence_for<A...>{}); }
  template <size_t... I>
  static void elem_i(std::ostream& os, const Data& d, int64_t i, std::index_sequence<I...>) {
    os << '(';
    ((os << (I ? ", " : ""), soa_print<A>::elem(os, std::get<I>(d), i)), ...);
    os << ')';
  }
  static void elem(std::ostream& os, const Data& d, int64_t i) {
    elem_i(os, d, i, std::index_sequence_for<A...>{});
  }
};
}  // namespace detail_io

template <class T>
void print(std::ostream& os, const T& v);

template <class T, int D>
void print_array(std::ostream& os, const arrc::Array<T, D>& a) {
  std::vector<T> v = a.to_vector();
  int64_t flat = 0;
  detail_io::print_nested<D>(os, a.shape(), 0, flat,
                             [&](int64_t i) { os << format_scalar<T>(v[static_cast<size_t>(i)]); });
}

// Prints an array of tuples (C++: a tuple of arrays) as `[(a, b), ...]`.
template <class Tup>
void print_soa(std::ostream& os, const Tup& t) {
  using P = detail_io::soa_print<Tup>;
  auto shape = P::shape(t);
  auto data = P::load(t);
  constexpr int D = std::tuple_size_v<decltype(shape)>;
  int64_t flat = 0;
  detail_io::print_nested<D>(os, shape, 0, flat, [&](int64_t i) { P::elem(os, data, i); });
}

namespace detail_io {
template <class Tup, size_t... I>
void print_tuple(std::ostream& os, const Tup& t, std::index_sequence<I...>) {
  os << '(';
  ((os << (I ? ", " : ""), print(os, std::get<I>(t))), ...);
  os << ')';
}
}  // namespace detail_io

// Scalars, arrays and tuples (a tuple is printed as an Arr tuple; use
// print_soa for an array of tuples).
template <class T>
void print(std::ostream& os, const T& v) {
  if constexpr (detail_io::is_array<T>::value) {
    print_array(os, v);
  } else if constexpr (detail_io::is_tuple<T>::value) {
    detail_io::print_tuple(os, v, std::make_index_sequence<std::tuple_size_v<T>>{});
  } else {
    os << format_scalar<T>(v);
  }
}

}  // namespace io
}  // namespace arrc
