// The intrinsic functions: the single source of truth for later stages.
//
// Signature mini-syntax (parsed by TypeCheck.cpp): scalars by name, tuples
// "(t, u)", arrays "t[[*]]", functions "(t, u) -> r". Type variables are one
// letter; the letter gives the kind of type it may stand for:
//   a b c : any element type (scalar or tuple; with rowPoly also an array,
//           which makes the intrinsic apply to the rows of a higher-rank array)
//   s     : any scalar (bool int long float double)
//   n     : a numeric scalar (int long float double)
//   i j   : an integer scalar (int long)
// An empty signature means a special rule in TypeCheck.cpp (see `doc`).
#include "Internal.h"

namespace arrc::tc {

const std::vector<IntrinsicInfo> &intrinsicTable() {
  static const std::vector<IntrinsicInfo> table = {
      {"map", "((a) -> b, a[[*]]) -> b[[*]]", true, ""},
      {"filter", "((a) -> bool, a[[*]]) -> a[[*]]", false, ""},
      {"zip", "", false, "(a1[[*]], ..., ak[[*]]) -> (a1, ..., ak)[[*]]   (k >= 2)"},
      {"unzip", "", false, "((a1, ..., ak)[[*]]) -> (a1[[*]], ..., ak[[*]])"},
      {"reduce", "((a, a) -> a, a, a[[*]]) -> a", false, ""},
      {"scan", "((a, a) -> a, a, a[[*]]) -> a[[*]]", false, ""},
      {"iota", "(i) -> i[[*]]", false, ""},
      {"replicate", "(i, a) -> a[[*]]", true, ""},
      {"length", "(a[[*]]) -> int", true, ""},
      {"concat", "(a[[*]], a[[*]]) -> a[[*]]", true, ""},
      {"expand", "((a) -> int, (a, int) -> b, a[[*]]) -> b[[*]]", false, ""},
      {"expand_reduce", "((a) -> int, (a, int) -> b, (b, b) -> b, b, a[[*]]) -> b[[*]]", false,
       ""},
      {"scatter", "(a[[*]], i[[*]], a[[*]]) -> a[[*]]", false, ""},
      {"gather", "(a[[*]], i[[*]]) -> a[[*]]", false, ""},
      {"hist", "((a, a) -> a, a, i, j[[*]], a[[*]]) -> a[[*]]", false, ""},
      {"sort", "(s[[*]]) -> s[[*]]", false, ""},
      {"sort_by", "((a) -> s, a[[*]]) -> a[[*]]", false, ""},
      {"reduce_by_key", "((a, a) -> a, a, s[[*]], a[[*]]) -> (s[[*]], a[[*]])", false, ""},
      {"sum", "(n[[*]]) -> n", false, ""},
      {"product", "(n[[*]]) -> n", false, ""},
      {"maximum", "(n[[*]]) -> n", false, ""},
      {"minimum", "(n[[*]]) -> n", false, ""},
      {"reverse", "(a[[*]]) -> a[[*]]", true, ""},
      {"transpose", "", false, "(a[[*,...,*]]) -> a[[*,...,*]]   (rank d >= 2, axes reversed)"},
      {"flatten", "", false, "(a[[*,...,*]]) -> a[[*]]   (rank d >= 2, row-major)"},
      {"unflatten", "(int, int, a[[*]]) -> a[[*,*]]", false, ""},
      {"segmented_scan", "((a, a) -> a, a, bool[[*]], a[[*]]) -> a[[*]]", false, ""},
      {"segmented_reduce", "((a, a) -> a, a, bool[[*]], a[[*]]) -> a[[*]]", false, ""},
      // math: on scalars and element-wise on arrays of any rank
      {"sqrt", "", false, "(f) -> f   f: float, double, or an array of them"},
      {"exp", "", false, "(f) -> f"},
      {"log", "", false, "(f) -> f"},
      {"sin", "", false, "(f) -> f"},
      {"cos", "", false, "(f) -> f"},
      {"tan", "", false, "(f) -> f"},
      {"erf", "", false, "(f) -> f"},
      {"floor", "", false, "(f) -> f"},
      {"ceil", "", false, "(f) -> f"},
      {"round", "", false, "(f) -> f   (halves away from zero)"},
      {"isnan", "", false, "(f) -> bool   (bool[[..]] for an array)"},
      {"pow", "", false, "(f, f) -> f"},
      {"atan2", "", false, "(f, f) -> f"},
      {"abs", "", false, "(n) -> n   n: a numeric scalar or an array of them"},
      {"min", "", false, "(n, n) -> n"},
      {"max", "", false, "(n, n) -> n"},
  };
  return table;
}

const IntrinsicInfo *findIntrinsic(const std::string &name) {
  for (auto &i : intrinsicTable())
    if (i.name == name)
      return &i;
  return nullptr;
}

} // namespace arrc::tc

namespace arrc {

bool isIntrinsic(const std::string &name) { return tc::findIntrinsic(name) != nullptr; }

const std::vector<std::string> &intrinsicNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (auto &i : tc::intrinsicTable())
      v.push_back(i.name);
    return v;
  }();
  return names;
}

std::string intrinsicSignature(const std::string &name) {
  const tc::IntrinsicInfo *i = tc::findIntrinsic(name);
  if (!i)
    return "";
  if (!i->signature.empty())
    return i->signature;
  // the doc of a special rule: the type, then (after two spaces) a remark
  size_t remark = i->doc.find("  ");
  return i->doc.substr(0, remark);
}

} // namespace arrc
