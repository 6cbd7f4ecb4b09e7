// Names in generated code (docs/codegen.md, "Names"). No user identifier
// reaches the C++ or OpenCL C output unchanged unless it is safe there:
//  - internal names (every IR variable, kernel, fused producer) start with
//    arrc's own prefix `arrc_` and a number that makes them unique; the
//    user's name only follows as a decoration, so no keyword, macro or
//    built-in of C, C++, POSIX or OpenCL can capture them;
//  - exported C++ names (the module's namespace, export functions and their
//    parameters) stay as written when that is safe, else they are spelled
//    `arrc_u_<name>` (exportedName below).
#include "Generator.h"

#include <algorithm>
#include <cstring>

namespace arrc::cg {

namespace {
#include "ReservedNames.inc"

bool inSorted(const char *const *begin, const char *const *end, const std::string &name) {
  return std::binary_search(begin, end, name.c_str(),
                            [](const char *a, const char *b) { return std::strcmp(a, b) < 0; });
}

// Names the generated header uses unqualified inside the module's namespace
// (an export or parameter of that name would hide them) and `detail`, the
// header's nested namespace.
const char *const kHeaderNames[] = {"detail",   "int16_t",  "int32_t",   "int64_t",  "int8_t",
                                    "intptr_t", "ptrdiff_t", "size_t",   "uint16_t", "uint32_t",
                                    "uint64_t", "uint8_t",   "uintptr_t"};

bool isIdentifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// Reserved by the C++ standard for any use (so possibly a macro): a double
// underscore anywhere, or an underscore followed by a capital letter first.
bool reservedForm(const std::string &s) {
  return s.find("__") != std::string::npos ||
         (s.size() >= 2 && s[0] == '_' && std::isupper(static_cast<unsigned char>(s[1])));
}

bool arrcPrefix(const std::string &s) {
  return s.compare(0, 5, "arrc_") == 0 || s.compare(0, 5, "ARRC_") == 0;
}

std::string mangled(const std::string &name) {
  if (!name.empty() && name[0] != '_' && name.find("__") == std::string::npos) return "arrc_u_" + name;
  std::string body = "0";
  for (char c : name) body += c == '_' ? std::string("_0") : std::string(1, c);
  return "arrc_u_" + body;
}
} // namespace

bool cppReserved(const std::string &name) {
  return inSorted(std::begin(kReservedCpp), std::end(kReservedCpp), name);
}

std::string exportedName(const std::string &name, NameRole role) {
  std::string n = isIdentifier(name) ? name : sanitize(name);
  bool unsafe = !isIdentifier(n) || reservedForm(n) || arrcPrefix(n) || cppReserved(n) ||
                inSorted(std::begin(kHeaderNames), std::end(kHeaderNames), n);
  if (role == NameRole::Namespace)
    unsafe = unsafe || n == "std" || n == "arrc" ||
             inSorted(std::begin(kGlobalCpp), std::end(kGlobalCpp), n);
  if (role == NameRole::Parameter) unsafe = unsafe || n == "ctx";
  return unsafe ? mangled(n) : n;
}

std::string decoration(const std::string &hint) {
  std::string r;
  for (char c : hint) {
    bool word = std::isalnum(static_cast<unsigned char>(c));
    if (word) r += c;
    else if (!r.empty() && r.back() != '_') r += '_';
    if (r.size() >= 24) break;
  }
  while (!r.empty() && r.back() == '_') r.pop_back();
  return r;
}

std::string localName(int id, const std::string &hint) {
  std::string d = decoration(hint);
  return "arrc_" + std::to_string(id) + (d.empty() ? "" : "_" + d);
}

std::string kernelName(size_t function, const std::string &kind, int counter, const std::string &fnHint,
                       const std::string &outHint) {
  std::string r = "arrc_k" + std::to_string(function) + "_" + kind + std::to_string(counter);
  for (const std::string *h : {&fnHint, &outHint}) {
    std::string d = decoration(*h);
    if (!d.empty()) r += "_" + d;
  }
  return r;
}

std::string fusedName(size_t index, const std::string &fnHint, const std::string &what) {
  std::string d = decoration(fnHint);
  return "arrc_fused" + std::to_string(index) + (d.empty() ? "" : "_" + d) + "_" + what;
}

} // namespace arrc::cg
