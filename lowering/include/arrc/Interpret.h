// A reference interpreter for the core IR (IR.h): evaluates an ir::Function on
// host values. Used by the lowering tests to check that lowering and the
// passes preserve meaning, and by codegen as the reference semantics.
#pragma once

#include "arrc/IR.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace arrc::ir {

// A scalar (type.rank == 0: `i` for bool/int/long, `f` for float/double) or a
// multiarray (buffer + shape + weights, as in the IR; views share the buffer).
struct Value {
  Type type;
  int64_t i = 0;
  double f = 0;
  std::shared_ptr<std::vector<int64_t>> ibuf; // bool/int/long elements
  std::shared_ptr<std::vector<double>> fbuf;  // float/double elements
  std::vector<int64_t> shape;
  std::vector<int64_t> weights;               // rank + 1 entries (last = offset)

  static Value scalarInt(int64_t v, ScalarKind k = ScalarKind::Int);
  static Value scalarFloat(double v, ScalarKind k = ScalarKind::Double);
  static Value boolean(bool b) { return scalarInt(b, ScalarKind::Bool); }
  // Contiguous row-major arrays.
  static Value arrayInt(std::vector<int64_t> data, std::vector<int64_t> shape,
                        ScalarKind k = ScalarKind::Int);
  static Value arrayFloat(std::vector<double> data, std::vector<int64_t> shape,
                          ScalarKind k = ScalarKind::Double);
  static Value zeros(Type t, std::vector<int64_t> shape);

  bool isFloat() const;
  int64_t count() const; // number of elements
  int64_t offset(const std::vector<int64_t> &idx) const;
  // Elements in row-major order (through the weights).
  std::vector<int64_t> ints() const;
  std::vector<double> floats() const;
  double asDouble() const { return isFloat() ? f : double(i); }
};

// A runtime error raised by a Check or a bounds-checked Read (or an internal
// error: an unchecked Read out of range, a malformed IR).
struct RuntimeError : std::runtime_error {
  RuntimeError(const std::string &msg, Check::Code code, int pos)
      : std::runtime_error(msg), code(code), pos(pos) {}
  Check::Code code;
  int pos; // Module::positions index or -1
};

// Evaluates `fn` of `module`; args are the flattened parameters (one Value per
// entry of fn.paramVars, in order). Returns the flattened results.
std::vector<Value> interpret(const Module &module, const Function &fn, const std::vector<Value> &args);
// Finds the function by name (throws std::runtime_error if absent).
std::vector<Value> interpret(const Module &module, const std::string &fn, const std::vector<Value> &args);

// Arr literal syntax: 3, 2.5, true, [1, 2, 3], [[1.0, 2.0], [3.0, 4.0]].
std::string formatValue(const Value &v);

} // namespace arrc::ir
