// arrc runtime: Arr literal syntax for values (used by `arrc run`, handy in
// tests and user programs).
//
//   Node n = arrc::io::parse("[[1.0, 2.0], [3.0, 4.0]]");
//   auto A = arrc::io::to_array<double, 2>(ctx, n);
//   arrc::io::print(std::cout, A);            // [[1.0, 2.0], [3.0, 4.0]]
//
// The syntax, the parser and the number formatting are in <arrc/literal.h>.
//
// Printing: doubles with the fewest digits that read back to the same value
// and always a `.` or an exponent (`11.0`, `0.1`, `1e+20`), floats likewise
// with the suffix `f`, longs with `L`, bools `true`/`false`.
#pragma once

#include <arrc/array.h>
#include <arrc/context.h>
#include <arrc/error.h>
#include <arrc/literal.h>

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace arrc {
namespace io {

namespace detail_io {
template <class T>
struct is_tuple : std::false_type {};
template <class... A>
struct is_tuple<std::tuple<A...>> : std::true_type {};

template <class T>
struct is_array : std::false_type {};
template <class T, int D>
struct is_array<arrc::Array<T, D>> : std::true_type {};

}  // namespace detail_io

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
