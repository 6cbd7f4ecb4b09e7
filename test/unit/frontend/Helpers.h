#pragma once
#include "arrc/Frontend.h"

#include <sstream>
#include <string>

// Parses `text` as one file; diagnostics go to `errors`.
struct Parsed {
  arrc::SourceManager sm;
  std::ostringstream errors;
  arrc::Module module;
  bool ok = false;
  explicit Parsed(const std::string &text, const std::string &path = "test.arr") {
    arrc::Diagnostics diag(sm, errors);
    int file = sm.add(path, text);
    ok = arrc::parseSource(sm, diag, file, module);
  }
  std::string ast() const {
    std::ostringstream o;
    arrc::printModuleAst(module, sm, o);
    return o.str();
  }
  // The body of the first function.
  const arrc::Expr &body(size_t i = 0) const { return *module.functions.at(i)->body; }
};

inline bool contains(const std::string &hay, const std::string &needle) {
  return hay.find(needle) != std::string::npos;
}
