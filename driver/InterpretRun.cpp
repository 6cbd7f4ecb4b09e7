// `arrc run --interpret`: one export evaluated by the IR interpreter
// (lowering/include/arrc/Interpret.h) instead of the compiled program. See
// InterpretRun.h.
#include "InterpretRun.h"

#include "Run.h"
#include "arrc/IRBuilder.h"
#include "arrc/Interpret.h"

#include <arrc/diagnostic.h>
#include <arrc/literal.h>

#include <functional>
#include <iostream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace arrc::driver {
namespace {

using io::Node;

struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void bad(const Node &n, const std::string &msg) {
  throw BadInput("at offset " + std::to_string(n.pos) + ": " + msg);
}

ir::Value scalarOf(const Node &n, ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool: return ir::Value::boolean(io::to_scalar<bool>(n));
  case ScalarKind::Int: return ir::Value::scalarInt(io::to_scalar<int32_t>(n), k);
  case ScalarKind::Long: return ir::Value::scalarInt(io::to_scalar<int64_t>(n), k);
  case ScalarKind::Float: return ir::Value::scalarFloat(io::to_scalar<float>(n), k);
  case ScalarKind::Double: return ir::Value::scalarFloat(io::to_scalar<double>(n), k);
  }
  return {};
}

// The leaves of a rectangular nested array literal of `rank` axes, row-major.
void arrayLeaves(const Node &n, int rank, int axis, std::vector<int64_t> &shape,
                 std::vector<const Node *> &leaves) {
  if (n.kind != Node::Array) bad(n, "expected an array of rank " + std::to_string(rank) + ", found " + n.kind_name());
  int64_t len = static_cast<int64_t>(n.elems.size());
  if (shape[static_cast<size_t>(axis)] < 0) shape[static_cast<size_t>(axis)] = len;
  else if (shape[static_cast<size_t>(axis)] != len)
    bad(n, "the array is not rectangular (rows of " + std::to_string(shape[static_cast<size_t>(axis)]) +
               " and " + std::to_string(len) + " elements)");
  for (const Node &e : n.elems) {
    if (axis + 1 < rank) arrayLeaves(e, rank, axis + 1, shape, leaves);
    else leaves.push_back(&e);
  }
}

// The flattened values of a literal of source type t (tuples component by
// component, an array of tuples as one array per component), appended to out.
void flatten(const TypeP &t, const Node &n, std::vector<ir::Value> &out) {
  if (t->kind == Type::Scalar) {
    out.push_back(scalarOf(n, t->scalar));
    return;
  }
  if (t->kind == Type::Tuple) {
    if (n.kind != Node::Tuple || n.elems.size() != t->elems.size())
      bad(n, "expected a tuple of " + std::to_string(t->elems.size()) + " components");
    for (size_t i = 0; i < t->elems.size(); ++i) flatten(t->elems[i], n.elems[i], out);
    return;
  }
  if (t->kind != Type::Array) throw BadInput("unsupported parameter type " + toString(t));
  std::vector<int64_t> shape(static_cast<size_t>(t->rank), -1);
  std::vector<const Node *> leaves;
  arrayLeaves(n, t->rank, 0, shape, leaves);
  for (auto &s : shape)
    if (s < 0) s = 0; // an empty outer axis: the inner extents are 0
  // Components of the element type, each one array.
  std::vector<std::pair<TypeP, std::vector<size_t>>> comps; // scalar type, path into tuples
  std::function<void(const TypeP &, std::vector<size_t>)> walk = [&](const TypeP &e, std::vector<size_t> path) {
    if (e->kind == Type::Tuple) {
      for (size_t i = 0; i < e->elems.size(); ++i) {
        auto p = path;
        p.push_back(i);
        walk(e->elems[i], p);
      }
    } else {
      comps.push_back({e, path});
    }
  };
  walk(t->elem, {});
  for (auto &c : comps) {
    ScalarKind k = c.first->scalar;
    std::vector<int64_t> ints;
    std::vector<double> floats;
    for (const Node *leaf : leaves) {
      const Node *x = leaf;
      const TypeP *tt = &t->elem;
      for (size_t i : c.second) {
        if (x->kind != Node::Tuple || x->elems.size() != (*tt)->elems.size())
          bad(*x, "expected a tuple of " + std::to_string((*tt)->elems.size()) + " components");
        x = &x->elems[i];
        tt = &(*tt)->elems[i];
      }
      ir::Value v = scalarOf(*x, k);
      if (v.isFloat()) floats.push_back(v.f);
      else ints.push_back(v.i);
    }
    out.push_back(ir::isFloatKind(k) ? ir::Value::arrayFloat(floats, shape, k) : ir::Value::arrayInt(ints, shape, k));
  }
}

std::string scalarText(const ir::Value &v) {
  switch (v.type.elem) {
  case ScalarKind::Bool: return v.i ? "true" : "false";
  case ScalarKind::Int: return std::to_string(static_cast<int32_t>(v.i));
  case ScalarKind::Long: return std::to_string(v.i) + "L";
  case ScalarKind::Float: return io::format_float(static_cast<float>(v.f));
  case ScalarKind::Double: return io::format_double(v.f);
  }
  return "?";
}

// The element at flat row-major position i of a value of rank >= 1.
ir::Value elementAt(const ir::Value &a, int64_t i) {
  std::vector<int64_t> idx(a.shape.size());
  for (size_t k = a.shape.size(); k-- > 0;) {
    idx[k] = a.shape[k] ? i % a.shape[k] : 0;
    i = a.shape[k] ? i / a.shape[k] : 0;
  }
  ir::Value e;
  e.type = ir::scalarT(a.type.elem);
  int64_t o = a.offset(idx);
  if (a.isFloat()) e.f = (*a.fbuf)[static_cast<size_t>(o)];
  else e.i = (*a.ibuf)[static_cast<size_t>(o)];
  return e;
}

// Prints the result of source type t from the flattened values (as the
// compiled program's harness does: arrc::io::print / print_soa).
void print(std::ostream &os, const TypeP &t, const std::vector<ir::Value> &vals, size_t &pos) {
  if (t->kind == Type::Scalar) {
    os << scalarText(vals.at(pos++));
    return;
  }
  if (t->kind == Type::Tuple) {
    os << '(';
    for (size_t i = 0; i < t->elems.size(); ++i) {
      if (i) os << ", ";
      print(os, t->elems[i], vals, pos);
    }
    os << ')';
    return;
  }
  // An array: its element's components are consecutive values.
  size_t count = 0;
  std::function<void(const TypeP &)> countLeaves = [&](const TypeP &e) {
    if (e->kind == Type::Tuple)
      for (auto &c : e->elems) countLeaves(c);
    else ++count;
  };
  countLeaves(t->elem);
  std::vector<const ir::Value *> comps;
  for (size_t c = 0; c < count; ++c) comps.push_back(&vals.at(pos + c));
  pos += count;
  const std::vector<int64_t> &shape = comps[0]->shape;
  int64_t flat = 0;
  std::function<void(const TypeP &, size_t &, int64_t)> elem = [&](const TypeP &e, size_t &c, int64_t i) {
    if (e->kind == Type::Tuple) {
      os << '(';
      for (size_t k = 0; k < e->elems.size(); ++k) {
        if (k) os << ", ";
        elem(e->elems[k], c, i);
      }
      os << ')';
    } else {
      os << scalarText(elementAt(*comps[c++], i));
    }
  };
  std::function<void(size_t)> nest = [&](size_t axis) {
    os << '[';
    for (int64_t j = 0; j < shape[axis]; ++j) {
      if (j) os << ", ";
      if (axis + 1 == shape.size()) {
        size_t c = 0;
        elem(t->elem, c, flat++);
      } else {
        nest(axis + 1);
      }
    }
    os << ']';
  };
  nest(0);
}

} // namespace

int interpretModule(const ir::Module &m, const RunRequest &req) {
  const ir::Function *f = chooseEntry(m, req.entry, req.input, "arrc run");
  if (!f) return 2;
  std::vector<Node> nodes;
  try {
    if (!req.args.empty()) {
      for (size_t i = 0; i < req.args.size(); ++i) {
        try {
          nodes.push_back(io::parse(req.args[i]));
        } catch (const io::ParseError &e) {
          std::cerr << "arrc run: error: argument " << (i + 1) << ": " << e.what() << "\n";
          return 2;
        }
      }
    } else {
      std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
      nodes = io::parse_all(text);
    }
  } catch (const io::ParseError &e) {
    std::cerr << "arrc run: error: " << e.what() << "\n";
    return 2;
  }
  if (nodes.size() != f->paramTypes.size()) {
    std::cerr << "arrc run: error: " << f->name << " takes " << f->paramTypes.size() << " argument"
              << (f->paramTypes.size() == 1 ? "" : "s") << ", got " << nodes.size() << "\n";
    return 2;
  }
  std::vector<ir::Value> args;
  for (size_t i = 0; i < nodes.size(); ++i) {
    try {
      flatten(f->paramTypes[i], nodes[i], args);
    } catch (const std::exception &e) {
      std::cerr << "arrc run: error: argument " << (i + 1) << ": " << e.what() << "\n";
      return 2;
    }
  }
  std::vector<ir::Value> results;
  try {
    results = ir::interpret(m, *f, args);
  } catch (const ir::RuntimeError &e) {
    // "internal: ..." is the interpreter finding malformed IR (an unchecked
    // read out of range...): a compiler bug, not the program's error.
    if (std::string(e.what()).find("internal: ") != std::string::npos) {
      std::cerr << "arrc run: error: the interpreter failed: " << e.what() << "\n";
      return 3;
    }
    std::cerr << diagnostic(e.what(), req.input);
    return 1;
  } catch (const std::bad_alloc &) {
    std::cerr << "arrc run: error: out of memory in the interpreter\n";
    return 1;
  } catch (const std::exception &e) {
    std::cerr << "arrc run: error: the interpreter failed: " << e.what() << "\n";
    return 3;
  }
  std::ostringstream out;
  size_t pos = 0;
  print(out, f->resultType, results, pos);
  std::cout << out.str() << std::endl;
  return 0;
}

} // namespace arrc::driver
