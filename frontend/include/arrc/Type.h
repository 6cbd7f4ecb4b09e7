// Types of Arr (LANGUAGE.md §2). One representation serves both the parser
// (types written in the source, where aliases and type parameters are still
// names) and the type checker (fully resolved types on every expression).
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace arrc {

enum class ScalarKind { Bool, Int, Long, Float, Double };

struct Type;
using TypeP = std::shared_ptr<const Type>;

struct Type {
  enum Kind {
    Scalar, // bool int long float double
    Tuple,  // (T1, T2, ...)   components in `elems`
    Array,  // elem[[*,...]]   element in `elem`, rank in `rank`
    Func,   // (T1, T2) -> R   parameters in `elems`, result in `elem`
    Named,  // a name not yet resolved: type alias or type parameter
    Var,    // a type parameter or inference variable (type checker only)
    Error   // the type of an ill-typed expression: never reported twice
  };
  Kind kind = Error;
  ScalarKind scalar = ScalarKind::Int;
  std::vector<TypeP> elems;
  TypeP elem;
  int rank = 0;
  std::string name;
  int id = 0; // Var: a unique id

  static TypeP scalarOf(ScalarKind k);
  static TypeP tuple(std::vector<TypeP> elems);
  static TypeP array(TypeP elem, int rank);
  static TypeP func(std::vector<TypeP> params, TypeP result);
  static TypeP named(std::string name);
  static TypeP var(std::string name, int id);
  static TypeP error();

  bool isScalar() const { return kind == Scalar; }
  bool isScalar(ScalarKind k) const { return kind == Scalar && scalar == k; }
  bool isNumeric() const { return kind == Scalar && scalar != ScalarKind::Bool; }
  bool isIntegral() const {
    return kind == Scalar && (scalar == ScalarKind::Int || scalar == ScalarKind::Long);
  }
  bool isFloating() const {
    return kind == Scalar && (scalar == ScalarKind::Float || scalar == ScalarKind::Double);
  }
  bool isArray() const { return kind == Array; }
  bool isError() const { return kind == Error; }
};

// Structural equality (Named and Var compare by name/id).
bool sameType(const TypeP &a, const TypeP &b);
// Arr syntax: "double[[*,*]]", "(int, bool)", "(double, double) -> double".
std::string toString(const TypeP &t);
std::string toString(ScalarKind k);

} // namespace arrc
