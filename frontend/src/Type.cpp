#include "arrc/Type.h"

namespace arrc {

TypeP Type::scalarOf(ScalarKind k) {
  static const TypeP cache[] = {
      std::make_shared<Type>(Type{Scalar, ScalarKind::Bool, {}, nullptr, 0, "", 0}),
      std::make_shared<Type>(Type{Scalar, ScalarKind::Int, {}, nullptr, 0, "", 0}),
      std::make_shared<Type>(Type{Scalar, ScalarKind::Long, {}, nullptr, 0, "", 0}),
      std::make_shared<Type>(Type{Scalar, ScalarKind::Float, {}, nullptr, 0, "", 0}),
      std::make_shared<Type>(Type{Scalar, ScalarKind::Double, {}, nullptr, 0, "", 0}),
  };
  return cache[static_cast<int>(k)];
}

TypeP Type::tuple(std::vector<TypeP> elems) {
  auto t = std::make_shared<Type>();
  t->kind = Tuple;
  t->elems = std::move(elems);
  return t;
}

TypeP Type::array(TypeP elem, int rank) {
  auto t = std::make_shared<Type>();
  t->kind = Array;
  t->elem = std::move(elem);
  t->rank = rank;
  return t;
}

TypeP Type::func(std::vector<TypeP> params, TypeP result) {
  auto t = std::make_shared<Type>();
  t->kind = Func;
  t->elems = std::move(params);
  t->elem = std::move(result);
  return t;
}

TypeP Type::named(std::string name) {
  auto t = std::make_shared<Type>();
  t->kind = Named;
  t->name = std::move(name);
  return t;
}

TypeP Type::var(std::string name, int id) {
  auto t = std::make_shared<Type>();
  t->kind = Var;
  t->name = std::move(name);
  t->id = id;
  return t;
}

TypeP Type::error() {
  static const TypeP e = std::make_shared<Type>();
  return e;
}

bool sameType(const TypeP &a, const TypeP &b) {
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind)
    return false;
  switch (a->kind) {
  case Type::Scalar:
    return a->scalar == b->scalar;
  case Type::Array:
    return a->rank == b->rank && sameType(a->elem, b->elem);
  case Type::Func:
    if (!sameType(a->elem, b->elem))
      return false;
    [[fallthrough]];
  case Type::Tuple:
    if (a->elems.size() != b->elems.size())
      return false;
    for (size_t i = 0; i < a->elems.size(); ++i)
      if (!sameType(a->elems[i], b->elems[i]))
        return false;
    return true;
  case Type::Named:
    return a->name == b->name;
  case Type::Var:
    return a->id == b->id && a->name == b->name;
  case Type::Error:
    return true;
  }
  return false;
}

std::string toString(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool: return "bool";
  case ScalarKind::Int: return "int";
  case ScalarKind::Long: return "long";
  case ScalarKind::Float: return "float";
  case ScalarKind::Double: return "double";
  }
  return "?";
}

static std::string joined(const std::vector<TypeP> &ts) {
  std::string s;
  for (size_t i = 0; i < ts.size(); ++i)
    s += (i ? ", " : "") + toString(ts[i]);
  return s;
}

std::string toString(const TypeP &t) {
  if (!t)
    return "<none>";
  switch (t->kind) {
  case Type::Scalar: return toString(t->scalar);
  case Type::Tuple: return "(" + joined(t->elems) + ")";
  case Type::Array: {
    std::string s = toString(t->elem) + "[[";
    for (int i = 0; i < t->rank; ++i)
      s += i ? ",*" : "*";
    return s + "]]";
  }
  case Type::Func: return "(" + joined(t->elems) + ") -> " + toString(t->elem);
  case Type::Named: return t->name;
  case Type::Var: return t->name.empty() ? "'t" + std::to_string(t->id) : t->name;
  case Type::Error: return "<error>";
  }
  return "?";
}

} // namespace arrc
