// The type checker. See docs/types.md for the rules and their rationale.
//
// Structure: a declaration pass resolves every signature (aliases, type
// parameters); then every monomorphic function is checked once, in place.
// Calls of generic functions infer the type arguments by unification and
// check a fresh copy of the generic's body per type-argument list (template
// style); errors inside an instantiation are reported at the call site with a
// note pointing into the generic. Finally recursion is detected on the call
// graph and Program::instances is filled (callees before callers).
#include <cctype>
#include "Internal.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

namespace arrc {

TypeP arrayOf(const TypeP &elem, int rank) {
  if (elem && elem->kind == Type::Array)
    return Type::array(elem->elem, elem->rank + rank);
  return Type::array(elem, rank);
}

bool isElementType(const TypeP &t) {
  if (!t)
    return false;
  switch (t->kind) {
  case Type::Scalar:
  case Type::Error:
  case Type::Var:
    return true;
  case Type::Tuple:
    for (auto &e : t->elems)
      if (!isElementType(e))
        return false;
    return true;
  default:
    return false;
  }
}

namespace {

using namespace tc;

struct VarInfo {
  char kind = 'a'; // a: any, n: numeric, i: integral, f: floating
  bool allowArray = false;
  std::string name;
};

struct Note {
  Span span;
  std::string msg;
};
struct Captured {
  Span span;
  std::string msg;
  std::vector<Note> notes;
};

struct Binding {
  std::string name;
  TypeP type;
  Span span;
  bool used = false;
  bool isParam = false;
};

struct Sig {
  std::vector<TypeP> params;
  TypeP result;
  bool ok = true;
};

struct InstanceRec {
  FunDeclP decl;
  bool inProgress = false;
  bool failed = false;
};

struct Edge {
  FunDecl *to;
  Span span;
};

bool isErr(const TypeP &t) { return !t || t->kind == Type::Error; }

std::string q(const std::string &s) { return "'" + s + "'"; }
// Unresolved type variables ('t14) read as <any> in messages.
std::string qt(const TypeP &t) {
  std::string s = toString(t), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\'' && i + 2 < s.size() && s[i + 1] == 't' &&
        std::isdigit(static_cast<unsigned char>(s[i + 2]))) {
      size_t j = i + 2;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))
        ++j;
      out += "<any>";
      i = j - 1;
      continue;
    }
    out += s[i];
  }
  return "'" + out + "'";
}

std::string plural(size_t n, const char *word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string ordinalArg(size_t i) { return "argument " + std::to_string(i + 1); }

// The expression that yields the value of a (desugared) block.
const Expr *resultExpr(const Expr *e) {
  while (e && e->kind == ExprKind::LetIn)
    e = static_cast<const LetIn *>(e)->body.get();
  return e;
}

class Checker {
public:
  Checker(Program &p, Diagnostics &d) : prog_(p), diags_(d) {}

  bool run();

  // ---- exposed for the unit tests through the free functions below
  TypeP freshVar(char kind, bool allowArray, const std::string &name) {
    int id = nextVar_++;
    varInfo_[id] = VarInfo{kind, allowArray, name};
    return Type::var(name, id);
  }
  bool unify(const TypeP &a, const TypeP &b);
  TypeP zonk(const TypeP &t);
  TypeP parseSig(const std::string &s, std::map<char, TypeP> &vars, bool rowPoly);

private:
  Program &prog_;
  Diagnostics &diags_;

  // inference state
  int nextVar_ = 1;
  std::unordered_map<int, TypeP> subst_;
  std::unordered_map<int, VarInfo> varInfo_;

  // declarations
  std::map<const FunDecl *, Sig> sigs_;
  std::map<std::string, TypeP> aliasCache_; // "module:name"
  std::set<std::string> aliasInProgress_;

  // the function being checked
  FunDecl *curFn_ = nullptr;
  int curModule_ = 0;
  bool curStdlib_ = false;
  std::map<std::string, TypeP> curTParams_;
  std::vector<Binding> scope_;
  std::vector<Captured> *capture_ = nullptr;

  // instances and the call graph
  std::map<std::string, InstanceRec> instanceMap_;
  std::vector<const FunDecl *> instStack_;
  std::map<const FunDecl *, std::vector<Edge>> edges_;
  std::vector<FunDecl *> checked_; // monomorphic functions and instances, in order
  std::set<std::string> warned_;
  std::set<std::pair<const FunDecl *, std::string>> unknownReported_; // once per function
  std::set<std::pair<const FunDecl *, std::string>> failedAt_;        // generic, inner position

  // ---------------------------------------------------------------- reporting
  int fnErrors_ = 0;      // errors reported so far (for the unused-name warnings)
  int fnErrorsAtStart_ = 0;

  void error(const Span &span, const std::string &msg, std::vector<Note> notes = {}) {
    ++fnErrors_;
    if (capture_) {
      capture_->push_back({span, msg, std::move(notes)});
      return;
    }
    diags_.error(span, msg);
    for (auto &n : notes)
      diags_.note(n.span, n.msg);
  }
  void warn(const Span &span, const std::string &msg) {
    if (curStdlib_)
      return;
    std::string key = std::to_string(span.file) + ":" + std::to_string(span.begin.line) + ":" +
                      std::to_string(span.begin.col) + msg;
    if (!warned_.insert(key).second)
      return;
    diags_.warning(span, msg);
  }

  // ---------------------------------------------------------------- types
  TypeP shallow(TypeP t) {
    while (t && t->kind == Type::Var) {
      auto it = subst_.find(t->id);
      if (it == subst_.end())
        break;
      t = it->second;
    }
    return t;
  }
  bool occurs(int id, const TypeP &t);
  bool satisfies(const VarInfo &v, const TypeP &t);
  bool bindVar(const TypeP &v, const TypeP &t);
  bool hasVars(const TypeP &t);
  std::string describe(const TypeP &t);

  TypeP resolveTypeExpr(const TypeP &t, int module, const std::map<std::string, TypeP> &tparams,
                        const Span &span, bool allowFunc);
  const TypeAlias *findAlias(int module, const std::string &name, int &aliasModule);
  std::vector<int> visibleModules(int module);
  FunDecl *findFunction(int module, const std::string &name, const IntrinsicInfo **intr);

  // ---------------------------------------------------------------- scopes
  size_t mark() const { return scope_.size(); }
  void popTo(size_t m);
  void bindName(const std::string &name, const TypeP &t, const Span &span, bool isParam);
  void bindPattern(Pattern &p, TypeP t);
  Binding *findLocal(const std::string &name) {
    for (size_t i = scope_.size(); i-- > 0;)
      if (scope_[i].name == name)
        return &scope_[i];
    return nullptr;
  }

  // ---------------------------------------------------------------- declarations
  void declare();
  void checkBody(FunDecl &fn, const Sig &sig);
  FunDecl *instantiate(FunDecl *generic, const std::vector<TypeP> &typeArgs, const Span &callSpan);
  void recordCall(FunDecl *to, const Span &span) {
    if (curFn_)
      edges_[curFn_].push_back({to, span});
  }
  void checkRecursion();
  void collectInstances();
  void zonkTree(ExprP &e, bool &reported);
  void zonkPattern(Pattern &p);

  // ---------------------------------------------------------------- expressions
  TypeP check(ExprP &e, const TypeP &expected = nullptr, bool funcOk = false);
  TypeP checkExpr(ExprP &e, const TypeP &expected, bool funcOk);
  TypeP checkVar(VarRef &v, const TypeP &expected, bool funcOk);
  TypeP checkUnary(Unary &u);
  TypeP binaryType(BinOp op, TypeP lt, TypeP rt, const Span &span, const Expr *lhs,
                   const Expr *rhs);
  TypeP checkCall(ExprP &e, const TypeP &expected);
  bool checkArgs(Call &c, const std::vector<TypeP> &params, const std::string &fname,
                 bool lastFirst = false);
  TypeP callFunction(Call &c, VarRef &v, FunDecl *fn);
  TypeP callIntrinsic(Call &c, VarRef &v, const IntrinsicInfo &info);
  TypeP specialIntrinsic(const std::string &name, const std::vector<TypeP> &args,
                         const std::vector<Span> &spans, const Span &span,
                         std::vector<TypeP> &typeArgs);
  TypeP functionValue(VarRef &v, FunDecl *fn, const IntrinsicInfo *intr, const TypeP &expected,
                      bool funcOk);
  TypeP checkLambda(Lambda &l, const TypeP &expected, bool funcOk);
  TypeP checkOpSection(OpSection &o, const TypeP &expected, bool funcOk);
  TypeP checkConvert(Convert &c);
  TypeP checkIndexArgs(std::vector<IndexArg> &args, const TypeP &at, const Span &span,
                       const Expr &array);
  TypeP checkComprehension(Comprehension &c);
  bool expectIndex(ExprP &e, const char *what);
};

// =================================================================== types

bool Checker::occurs(int id, const TypeP &t0) {
  TypeP t = shallow(t0);
  if (!t)
    return false;
  if (t->kind == Type::Var)
    return t->id == id;
  if (t->elem && occurs(id, t->elem))
    return true;
  for (auto &e : t->elems)
    if (occurs(id, e))
      return true;
  return false;
}

bool Checker::satisfies(const VarInfo &v, const TypeP &t) {
  switch (v.kind) {
  case 's': return t->isScalar();
  case 'n': return t->isNumeric();
  case 'i': return t->isIntegral();
  case 'f': return t->isFloating();
  default:
    if (t->kind == Type::Array)
      return v.allowArray && isElementType(t->elem);
    if (t->kind == Type::Func || t->kind == Type::Named)
      return false;
    return isElementType(t) || t->kind == Type::Tuple;
  }
}

static char combineKinds(char a, char b) {
  if (a == b || b == 'a')
    return a;
  if (a == 'a')
    return b;
  if (a == 's')
    return b; // s + n = n, s + i = i, s + f = f
  if (b == 's')
    return a;
  if (a == 'n')
    return b; // n + i = i, n + f = f
  if (b == 'n')
    return a;
  return 0; // i + f
}

bool Checker::bindVar(const TypeP &v, const TypeP &t) {
  VarInfo &info = varInfo_[v->id];
  if (t->kind == Type::Var) {
    VarInfo &ti = varInfo_[t->id];
    char k = combineKinds(info.kind, ti.kind);
    if (!k)
      return false;
    ti.kind = k;
    ti.allowArray = ti.allowArray && info.allowArray;
    if (ti.name.empty())
      ti.name = info.name;
    subst_[v->id] = t;
    return true;
  }
  if (t->kind == Type::Error) {
    subst_[v->id] = t;
    return true;
  }
  if (occurs(v->id, t) || !satisfies(info, t))
    return false;
  subst_[v->id] = t;
  return true;
}

bool Checker::unify(const TypeP &a0, const TypeP &b0) {
  TypeP a = shallow(a0), b = shallow(b0);
  if (!a || !b)
    return false;
  if (a == b || a->kind == Type::Error || b->kind == Type::Error)
    return true;
  if (a->kind == Type::Var) {
    if (b->kind == Type::Var && a->id == b->id)
      return true;
    return bindVar(a, b);
  }
  if (b->kind == Type::Var)
    return bindVar(b, a);
  if (a->kind != b->kind)
    return false;
  switch (a->kind) {
  case Type::Scalar: return a->scalar == b->scalar;
  case Type::Array:
    if (a->rank == b->rank)
      return unify(a->elem, b->elem);
    if (a->rank < b->rank)
      return unify(a->elem, Type::array(b->elem, b->rank - a->rank));
    return unify(Type::array(a->elem, a->rank - b->rank), b->elem);
  case Type::Func:
    if (!unify(a->elem, b->elem))
      return false;
    [[fallthrough]];
  case Type::Tuple:
    if (a->elems.size() != b->elems.size())
      return false;
    for (size_t i = 0; i < a->elems.size(); ++i)
      if (!unify(a->elems[i], b->elems[i]))
        return false;
    return true;
  case Type::Named: return a->name == b->name;
  default: return false;
  }
}

TypeP Checker::zonk(const TypeP &t0) {
  TypeP t = shallow(t0);
  if (!t)
    return t;
  switch (t->kind) {
  case Type::Array: {
    TypeP e = zonk(t->elem);
    if (e == t->elem && e->kind != Type::Array)
      return t;
    return arrayOf(e, t->rank);
  }
  case Type::Tuple:
  case Type::Func: {
    bool changed = false;
    std::vector<TypeP> es;
    for (auto &e : t->elems) {
      es.push_back(zonk(e));
      changed |= es.back() != e;
    }
    TypeP r = t->elem ? zonk(t->elem) : nullptr;
    changed |= r != t->elem;
    if (!changed)
      return t;
    return t->kind == Type::Tuple ? Type::tuple(std::move(es)) : Type::func(std::move(es), r);
  }
  default: return t;
  }
}

bool Checker::hasVars(const TypeP &t0) {
  TypeP t = zonk(t0);
  if (!t)
    return false;
  if (t->kind == Type::Var)
    return true;
  if (t->elem && hasVars(t->elem))
    return true;
  for (auto &e : t->elems)
    if (hasVars(e))
      return true;
  return false;
}

// Like toString, with unresolved inference variables described by their kind.
std::string Checker::describe(const TypeP &t0) {
  TypeP t = zonk(t0);
  if (!t)
    return "<none>";
  switch (t->kind) {
  case Type::Var: {
    auto &v = varInfo_[t->id];
    switch (v.kind) {
    case 'n': return "<numeric>";
    case 's': return "<scalar>";
    case 'i': return "<int or long>";
    case 'f': return "<float or double>";
    default: return v.name.empty() || (v.name.size() == 1 && islower(v.name[0])) ? "<any>" : v.name;
    }
  }
  case Type::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < t->elems.size(); ++i)
      s += (i ? ", " : "") + describe(t->elems[i]);
    return s + ")";
  }
  case Type::Array: {
    std::string s = describe(t->elem) + "[[";
    for (int i = 0; i < t->rank; ++i)
      s += i ? ",*" : "*";
    return s + "]]";
  }
  case Type::Func: {
    std::string s = "(";
    for (size_t i = 0; i < t->elems.size(); ++i)
      s += (i ? ", " : "") + describe(t->elems[i]);
    return s + ") -> " + describe(t->elem);
  }
  default: return toString(t);
  }
}

// Signature mini-syntax of Intrinsics.cpp.
TypeP Checker::parseSig(const std::string &s, std::map<char, TypeP> &vars, bool rowPoly) {
  size_t p = 0;
  std::function<TypeP()> parseType;
  auto skip = [&] {
    while (p < s.size() && s[p] == ' ')
      ++p;
  };
  auto eat = [&](const char *tok) {
    skip();
    size_t n = std::char_traits<char>::length(tok);
    if (s.compare(p, n, tok) == 0) {
      p += n;
      return true;
    }
    return false;
  };
  auto parseSuffix = [&](TypeP t) {
    while (eat("[[")) {
      int rank = 1;
      eat("*");
      while (eat(",")) {
        eat("*");
        ++rank;
      }
      eat("]]");
      t = Type::array(t, rank);
    }
    return t;
  };
  parseType = [&]() -> TypeP {
    skip();
    TypeP t;
    if (eat("(")) {
      std::vector<TypeP> es;
      if (!eat(")")) {
        do
          es.push_back(parseType());
        while (eat(","));
        eat(")");
      }
      if (eat("->"))
        return Type::func(es, parseType());
      t = es.size() == 1 ? es[0] : Type::tuple(es);
    } else {
      size_t b = p;
      while (p < s.size() && isalpha(static_cast<unsigned char>(s[p])))
        ++p;
      std::string w = s.substr(b, p - b);
      if (w == "bool") t = Type::scalarOf(ScalarKind::Bool);
      else if (w == "int") t = Type::scalarOf(ScalarKind::Int);
      else if (w == "long") t = Type::scalarOf(ScalarKind::Long);
      else if (w == "float") t = Type::scalarOf(ScalarKind::Float);
      else if (w == "double") t = Type::scalarOf(ScalarKind::Double);
      else {
        char c = w.empty() ? 'a' : w[0];
        auto it = vars.find(c);
        if (it == vars.end()) {
          char kind = c == 'n' ? 'n' : c == 's' ? 's' : (c == 'i' || c == 'j') ? 'i' : c == 'f' ? 'f' : 'a';
          it = vars.emplace(c, freshVar(kind, rowPoly && kind == 'a', std::string(1, c))).first;
        }
        t = it->second;
      }
    }
    return parseSuffix(t);
  };
  return parseType();
}

// =================================================================== names

std::vector<int> Checker::visibleModules(int module) {
  std::vector<int> v;
  auto add = [&](int m) {
    if (m >= 0 && m < static_cast<int>(prog_.modules.size()) &&
        std::find(v.begin(), v.end(), m) == v.end())
      v.push_back(m);
  };
  add(module);
  if (module >= 0 && module < static_cast<int>(prog_.modules.size()))
    for (auto &imp : prog_.modules[module].imports)
      add(imp.module);
  return v;
}

FunDecl *Checker::findFunction(int module, const std::string &name, const IntrinsicInfo **intr) {
  *intr = nullptr;
  for (int m : visibleModules(module))
    for (auto &f : prog_.modules[m].functions)
      if (f->name == name)
        return f.get();
  if ((*intr = findIntrinsic(name)))
    return nullptr;
  for (size_t m = 0; m < prog_.modules.size(); ++m)
    if (prog_.modules[m].isStdlib)
      for (auto &f : prog_.modules[m].functions)
        if (f->name == name)
          return f.get();
  return nullptr;
}

const TypeAlias *Checker::findAlias(int module, const std::string &name, int &aliasModule) {
  std::vector<int> mods = visibleModules(module);
  for (size_t m = 0; m < prog_.modules.size(); ++m)
    if (prog_.modules[m].isStdlib && std::find(mods.begin(), mods.end(), (int)m) == mods.end())
      mods.push_back(static_cast<int>(m));
  for (int m : mods)
    for (auto &a : prog_.modules[m].aliases)
      if (a.name == name) {
        aliasModule = m;
        return &a;
      }
  return nullptr;
}

TypeP Checker::resolveTypeExpr(const TypeP &t, int module,
                               const std::map<std::string, TypeP> &tparams, const Span &span,
                               bool allowFunc) {
  if (!t)
    return Type::error();
  switch (t->kind) {
  case Type::Scalar:
  case Type::Var:
  case Type::Error:
    return t;
  case Type::Named: {
    auto it = tparams.find(t->name);
    if (it != tparams.end())
      return it->second;
    int am = -1;
    const TypeAlias *a = findAlias(module, t->name, am);
    if (!a) {
      error(span, "unknown type " + q(t->name));
      return Type::error();
    }
    std::string key = std::to_string(am) + ":" + a->name;
    auto c = aliasCache_.find(key);
    if (c != aliasCache_.end())
      return c->second;
    if (aliasInProgress_.count(key)) {
      error(a->span, "type alias " + q(a->name) + " refers to itself");
      aliasCache_[key] = Type::error();
      return Type::error();
    }
    aliasInProgress_.insert(key);
    TypeP r = resolveTypeExpr(a->type, am, {}, a->span.valid() ? a->span : span, false);
    aliasInProgress_.erase(key);
    if (!aliasCache_.count(key)) // a cycle may already have stored Error
      aliasCache_[key] = r;
    return aliasCache_[key];
  }
  case Type::Tuple: {
    std::vector<TypeP> es;
    for (auto &e : t->elems) {
      es.push_back(resolveTypeExpr(e, module, tparams, span, false));
      if (isErr(es.back()))
        return Type::error();
    }
    return Type::tuple(es);
  }
  case Type::Array: {
    TypeP e = resolveTypeExpr(t->elem, module, tparams, span, false);
    if (isErr(e))
      return e;
    if (e->kind != Type::Array && !isElementType(e)) {
      error(span, "an array element cannot have type " + qt(e) +
                      "; elements are scalars or tuples of scalars");
      return Type::error();
    }
    if (t->rank < 1) {
      error(span, "an array type needs a rank of at least 1");
      return Type::error();
    }
    return arrayOf(e, t->rank);
  }
  case Type::Func: {
    if (!allowFunc) {
      error(span, "a function type " + qt(t) +
                      " can only be the type of a function parameter");
      return Type::error();
    }
    std::vector<TypeP> ps;
    for (auto &e : t->elems) {
      ps.push_back(resolveTypeExpr(e, module, tparams, span, false));
      if (isErr(ps.back()))
        return Type::error();
    }
    TypeP r = resolveTypeExpr(t->elem, module, tparams, span, false);
    if (isErr(r))
      return r;
    return Type::func(ps, r);
  }
  }
  return Type::error();
}

// =================================================================== scopes

void Checker::popTo(size_t m) {
  for (size_t i = scope_.size(); i-- > m;) {
    auto &b = scope_[i];
    if (!b.used && !b.name.empty() && b.name[0] != '_' && fnErrors_ == fnErrorsAtStart_)
      warn(b.span, std::string(b.isParam ? "unused parameter " : "unused variable ") + q(b.name) +
                       " (prefix it with '_' to silence this)");
  }
  scope_.resize(m);
}

void Checker::bindName(const std::string &name, const TypeP &t, const Span &span, bool isParam) {
  if (name.empty() || name == "_")
    return;
  if (name[0] != '_' && findLocal(name))
    warn(span, q(name) + " shadows an earlier binding of the same name");
  scope_.push_back(Binding{name, t, span, false, isParam});
}

void Checker::bindPattern(Pattern &p, TypeP t) {
  t = zonk(t);
  p.type = t;
  switch (p.kind) {
  case Pattern::Var: bindName(p.name, t, p.span, false); return;
  case Pattern::Wildcard: return;
  case Pattern::Tuple: {
    if (!isErr(t) && t->kind == Type::Var) {
      std::vector<TypeP> vs;
      for (size_t i = 0; i < p.elems.size(); ++i)
        vs.push_back(freshVar('a', true, ""));
      if (unify(t, Type::tuple(vs)))
        t = zonk(t);
      p.type = t;
    }
    bool ok = isErr(t) || (t->kind == Type::Tuple && t->elems.size() == p.elems.size());
    if (!ok)
      error(p.span, "a tuple pattern of " + plural(p.elems.size(), "component") +
                        " cannot match a value of type " + qt(t));
    for (size_t i = 0; i < p.elems.size(); ++i)
      bindPattern(p.elems[i], ok && !isErr(t) ? t->elems[i] : Type::error());
    return;
  }
  }
}

// =================================================================== declarations

void Checker::declare() {
  for (size_t m = 0; m < prog_.modules.size(); ++m) {
    Module &mod = prog_.modules[m];
    curModule_ = static_cast<int>(m);
    curStdlib_ = mod.isStdlib;
    std::set<std::string> names;
    std::set<std::string> typeNames;
    for (auto &a : mod.aliases) {
      if (!typeNames.insert(a.name).second) {
        error(a.span, "type " + q(a.name) + " is already defined in this module");
        continue;
      }
      resolveTypeExpr(Type::named(a.name), curModule_, {}, a.span, false);
    }
    for (auto &fp : mod.functions) {
      FunDecl &fn = *fp;
      fn.module = static_cast<int>(m);
      if (!names.insert(fn.name).second)
        error(fn.nameSpan, q(fn.name) + " is already defined in this module");
      Sig sig;
      std::map<std::string, TypeP> tp;
      for (auto &n : fn.typeParams)
        tp[n] = freshVar('a', false, n);
      std::set<std::string> pnames;
      for (auto &p : fn.params) {
        TypeP t = resolveTypeExpr(p.type, curModule_, tp, p.span, true);
        sig.ok &= !isErr(t);
        sig.params.push_back(t);
        if (!pnames.insert(p.name).second)
          error(p.span, "duplicate parameter " + q(p.name));
        if (fn.exported && !isErr(t) && t->kind == Type::Func) {
          error(p.span, "exported function " + q(fn.name) + " cannot take a function parameter (" +
                            q(p.name) + " has type " + qt(t) +
                            "); only internal 'def' functions can");
          sig.ok = false;
        }
      }
      sig.result = resolveTypeExpr(fn.result, curModule_, tp, fn.span, false);
      sig.ok &= !isErr(sig.result);
      if (fn.exported && !fn.typeParams.empty()) {
        error(fn.nameSpan, "exported function " + q(fn.name) +
                               " cannot have type parameters; export a wrapper per type");
        sig.ok = false;
      }
      if (fn.typeParams.empty()) {
        for (size_t i = 0; i < fn.params.size(); ++i)
          fn.params[i].type = sig.params[i];
        fn.result = sig.result;
      }
      sigs_[&fn] = sig;
    }
  }
}

void Checker::checkBody(FunDecl &fn, const Sig &sig) {
  scope_.clear();
  int savedStart = fnErrorsAtStart_;
  fnErrorsAtStart_ = fnErrors_;
  for (size_t i = 0; i < fn.params.size(); ++i)
    bindName(fn.params[i].name, sig.params[i], fn.params[i].span, true);
  for (auto &b : scope_)
    b.isParam = true;
  if (!fn.body) {
    popTo(0);
    return;
  }
  TypeP bt = check(fn.body, sig.result);
  popTo(0);
  if (!isErr(bt) && !isErr(sig.result) && !unify(sig.result, bt)) {
    const Expr *r = resultExpr(fn.body.get());
    error(r ? r->span : fn.span, "the body of " + q(fn.instanceOf.empty() ? fn.name : fn.instanceOf) +
                                     " has type " + qt(zonk(bt)) +
                                     " but its declared result type is " + qt(sig.result));
  }
  // An error already reported in this body explains any type left open.
  bool reported = fnErrors_ > fnErrorsAtStart_;
  zonkTree(fn.body, reported);
  fnErrorsAtStart_ = savedStart;
}

void Checker::zonkPattern(Pattern &p) {
  p.type = zonk(p.type);
  for (auto &e : p.elems)
    zonkPattern(e);
}

void Checker::zonkTree(ExprP &e, bool &reported) {
  if (!e)
    return;
  if (e->type) {
    e->type = zonk(e->type);
    if (!reported && hasVars(e->type)) {
      reported = true;
      error(e->span, "cannot infer the type of this expression (it is " + describe(e->type) +
                         "); add a conversion or use the value where its type is known");
    }
  }
  switch (e->kind) {
  case ExprKind::Var:
    for (auto &t : static_cast<VarRef &>(*e).typeArgs)
      t = zonk(t);
    break;
  case ExprKind::LetIn: zonkPattern(static_cast<LetIn &>(*e).pattern); break;
  case ExprKind::Lambda:
    for (auto &p : static_cast<Lambda &>(*e).params)
      zonkPattern(p);
    break;
  case ExprKind::Loop: zonkPattern(static_cast<Loop &>(*e).pattern); break;
  case ExprKind::Comprehension:
    for (auto &b : static_cast<Comprehension &>(*e).branches)
      for (auto &qq : b)
        zonkPattern(qq.pattern);
    break;
  default: break;
  }
  forEachChild(*e, [&](ExprP &c) { zonkTree(c, reported); });
}

static std::string typeArgList(const std::vector<TypeP> &ts) {
  std::string s = "<";
  for (size_t i = 0; i < ts.size(); ++i)
    s += (i ? ", " : "") + toString(ts[i]);
  return s + ">";
}

FunDecl *Checker::instantiate(FunDecl *generic, const std::vector<TypeP> &typeArgs,
                              const Span &callSpan) {
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(generic)) + typeArgList(typeArgs);
  std::string instName = generic->name + typeArgList(typeArgs);
  auto it = instanceMap_.find(key);
  if (it != instanceMap_.end()) {
    if (it->second.inProgress) {
      error(callSpan, "recursion is not allowed: " + q(generic->name) + " calls itself");
      it->second.failed = true;
      return nullptr;
    }
    if (it->second.failed)
      return nullptr;
    recordCall(it->second.decl.get(), callSpan);
    return it->second.decl.get();
  }
  if (std::find(instStack_.begin(), instStack_.end(), generic) != instStack_.end()) {
    error(callSpan, "recursion is not allowed: " + q(generic->name) +
                        " calls itself (here with type arguments " + typeArgList(typeArgs) + ")");
    return nullptr;
  }
  auto inst = std::make_shared<FunDecl>(*generic);
  inst->name = instName;
  inst->typeParams.clear();
  inst->instanceOf = generic->name;
  inst->typeArgs = typeArgs;
  inst->body = cloneExpr(generic->body);
  std::map<std::string, TypeP> tp;
  for (size_t i = 0; i < generic->typeParams.size() && i < typeArgs.size(); ++i)
    tp[generic->typeParams[i]] = typeArgs[i];

  // Save the caller's context.
  FunDecl *sFn = curFn_;
  int sModule = curModule_;
  bool sStdlib = curStdlib_;
  auto sTParams = std::move(curTParams_);
  auto sScope = std::move(scope_);
  auto *sCapture = capture_;
  std::vector<Captured> errors;

  curFn_ = inst.get();
  curModule_ = generic->module;
  curStdlib_ = generic->module >= 0 && prog_.modules[generic->module].isStdlib;
  curTParams_ = tp;
  scope_.clear();
  capture_ = &errors;

  Sig sig;
  for (auto &p : inst->params) {
    p.type = resolveTypeExpr(p.type, curModule_, tp, p.span, true);
    sig.params.push_back(p.type);
  }
  inst->result = resolveTypeExpr(inst->result, curModule_, tp, inst->span, false);
  sig.result = inst->result;
  sigs_[inst.get()] = sig;

  InstanceRec &rec = instanceMap_[key];
  rec.decl = inst;
  rec.inProgress = true;
  instStack_.push_back(generic);
  checkBody(*inst, sig);
  instStack_.pop_back();
  rec.inProgress = false;

  curFn_ = sFn;
  curModule_ = sModule;
  curStdlib_ = sStdlib;
  curTParams_ = std::move(sTParams);
  scope_ = std::move(sScope);
  capture_ = sCapture;

  if (!errors.empty() || rec.failed) {
    rec.failed = true;
    std::string where;
    if (!errors.empty())
      where = std::to_string(errors.front().span.file) + ":" +
              std::to_string(errors.front().span.begin.line) + ":" +
              std::to_string(errors.front().span.begin.col);
    if (!errors.empty() && !failedAt_.insert({generic, where}).second) {
      ++fnErrors_; // the same spot failed for another instantiation: one root cause
    } else if (!errors.empty()) {
      std::string with;
      for (size_t i = 0; i < generic->typeParams.size() && i < typeArgs.size(); ++i)
        with += (i ? ", " : "") + generic->typeParams[i] + " = " + toString(typeArgs[i]);
      auto &first = errors.front();
      std::vector<Note> notes;
      notes.push_back({first.span, "in " + q(instName) + " here"});
      for (auto &n : first.notes)
        notes.push_back(n);
      error(callSpan, "in the call of " + q(generic->name) + " with " + with + ": " + first.msg,
            notes);
    }
    return nullptr;
  }
  checked_.push_back(inst.get());
  recordCall(inst.get(), callSpan);
  return inst.get();
}

void Checker::checkRecursion() {
  std::map<const FunDecl *, int> color; // 0 white, 1 gray, 2 black
  std::vector<const FunDecl *> stack;
  auto display = [](const FunDecl *f) { return f->instanceOf.empty() ? f->name : f->instanceOf; };
  std::function<void(const FunDecl *)> dfs = [&](const FunDecl *f) {
    color[f] = 1;
    stack.push_back(f);
    for (auto &e : edges_[f]) {
      if (color[e.to] == 1) {
        std::string msg = "recursion is not allowed: ";
        if (e.to == f) {
          msg += q(display(f)) + " calls itself";
        } else {
          auto it = std::find(stack.begin(), stack.end(), e.to);
          std::string chain;
          for (; it != stack.end(); ++it)
            chain += q(display(*it)) + " calls ";
          msg += chain + q(display(e.to));
        }
        bool saved = curStdlib_;
        curStdlib_ = false;
        diags_.error(e.span, msg);
        curStdlib_ = saved;
      } else if (color[e.to] == 0) {
        dfs(e.to);
      }
    }
    stack.pop_back();
    color[f] = 2;
  };
  for (auto *f : checked_)
    if (color[f] == 0)
      dfs(f);
}

void Checker::collectInstances() {
  prog_.instances.clear();
  std::set<const FunDecl *> seen;
  std::map<const FunDecl *, FunDeclP> owner;
  for (auto &m : prog_.modules)
    for (auto &f : m.functions)
      owner[f.get()] = f;
  for (auto &kv : instanceMap_)
    if (kv.second.decl)
      owner[kv.second.decl.get()] = kv.second.decl;
  std::function<void(const FunDecl *)> visit = [&](const FunDecl *f) {
    if (!seen.insert(f).second)
      return;
    for (auto &e : edges_[f])
      visit(e.to);
    prog_.instances.push_back(owner[f]);
  };
  if (prog_.modules.empty())
    return;
  for (auto &f : prog_.modules[0].functions)
    if (f->typeParams.empty() && f->exported)
      visit(f.get());
  for (auto &f : prog_.modules[0].functions)
    if (f->typeParams.empty())
      visit(f.get());
}

bool Checker::run() {
  int before = diags_.errorCount();
  declare();
  for (size_t m = 0; m < prog_.modules.size(); ++m) {
    for (auto &fp : prog_.modules[m].functions) {
      if (!fp->typeParams.empty())
        continue;
      Sig &sig = sigs_[fp.get()];
      if (!sig.ok)
        continue;
      curFn_ = fp.get();
      curModule_ = static_cast<int>(m);
      curStdlib_ = prog_.modules[m].isStdlib;
      curTParams_.clear();
      checked_.push_back(fp.get());
      checkBody(*fp, sig);
    }
  }
  curFn_ = nullptr;
  checkRecursion();
  collectInstances();
  return diags_.errorCount() == before;
}

// =================================================================== expressions

TypeP Checker::check(ExprP &e, const TypeP &expected, bool funcOk) {
  if (!e)
    return Type::error();
  TypeP t = checkExpr(e, expected, funcOk);
  if (!t)
    t = Type::error();
  t = zonk(t);
  e->type = t;
  return t;
}

bool Checker::expectIndex(ExprP &e, const char *what) {
  TypeP t = check(e);
  if (isErr(t))
    return false;
  if (!t->isIntegral()) {
    error(e->span, std::string(what) + " has type " + qt(t) + " but int or long was expected");
    return false;
  }
  return true;
}

static std::string nameOf(const Expr &e, const char *fallback) {
  if (e.kind == ExprKind::Var)
    return q(static_cast<const VarRef &>(e).name);
  return fallback;
}

TypeP Checker::checkExpr(ExprP &ep, const TypeP &expected, bool funcOk) {
  Expr &e = *ep;
  const TypeP boolT = Type::scalarOf(ScalarKind::Bool), intT = Type::scalarOf(ScalarKind::Int);
  switch (e.kind) {
  case ExprKind::IntLit: return Type::scalarOf(static_cast<IntLit &>(e).scalar);
  case ExprKind::FloatLit: return Type::scalarOf(static_cast<FloatLit &>(e).scalar);
  case ExprKind::BoolLit: return boolT;
  case ExprKind::Var: return checkVar(static_cast<VarRef &>(e), expected, funcOk);
  case ExprKind::Unary: return checkUnary(static_cast<Unary &>(e));
  case ExprKind::Binary: {
    auto &b = static_cast<Binary &>(e);
    TypeP lt = check(b.lhs), rt = check(b.rhs);
    return binaryType(b.op, lt, rt, b.span, b.lhs.get(), b.rhs.get());
  }
  case ExprKind::If: {
    auto &i = static_cast<If &>(e);
    TypeP ct = check(i.cond);
    if (!isErr(ct) && !unify(boolT, ct))
      error(i.cond->span, "the condition of 'if' has type " + qt(ct) + " but bool was expected");
    TypeP a = check(i.then, expected);
    TypeP b = check(i.els, isErr(a) ? expected : a);
    if (isErr(a) || isErr(b))
      return Type::error();
    if (!unify(a, b)) {
      error(i.els->span, "the branches of 'if' have different types: 'then' has " + qt(a) +
                             " and 'else' has " + qt(zonk(b)));
      return Type::error();
    }
    return a;
  }
  case ExprKind::LetIn: {
    auto &l = static_cast<LetIn &>(e);
    TypeP vt = check(l.value);
    size_t m = mark();
    bindPattern(l.pattern, vt);
    TypeP bt = check(l.body, expected);
    popTo(m);
    return bt;
  }
  case ExprKind::Tuple: {
    auto &t = static_cast<TupleExpr &>(e);
    std::vector<TypeP> es;
    const TypeP ex = zonk(expected);
    bool bad = false;
    for (size_t i = 0; i < t.elems.size(); ++i) {
      TypeP et = ex && ex->kind == Type::Tuple && ex->elems.size() == t.elems.size()
                     ? ex->elems[i]
                     : nullptr;
      es.push_back(check(t.elems[i], et));
      bad |= isErr(es.back());
    }
    return bad ? Type::error() : Type::tuple(es);
  }
  case ExprKind::Project: {
    auto &p = static_cast<Project &>(e);
    TypeP t = check(p.tuple);
    if (isErr(t))
      return t;
    if (t->kind != Type::Tuple) {
      error(p.span, "'." + std::to_string(p.index) + "' needs a tuple, but " +
                        nameOf(*p.tuple, "this value") + " has type " + qt(t));
      return Type::error();
    }
    if (p.index < 0 || p.index >= static_cast<int>(t->elems.size())) {
      error(p.span, "component ." + std::to_string(p.index) + " is out of range for type " +
                        qt(t) + " (components are numbered from 0 to " +
                        std::to_string(t->elems.size() - 1) + ")");
      return Type::error();
    }
    return t->elems[p.index];
  }
  case ExprKind::Call: return checkCall(ep, expected);
  case ExprKind::Convert: return checkConvert(static_cast<Convert &>(e));
  case ExprKind::Lambda: return checkLambda(static_cast<Lambda &>(e), expected, funcOk);
  case ExprKind::OpSection: return checkOpSection(static_cast<OpSection &>(e), expected, funcOk);
  case ExprKind::Loop: {
    auto &l = static_cast<Loop &>(e);
    TypeP st = check(l.init, expected);
    if (l.form == Loop::For && l.bound) {
      TypeP bt = check(l.bound);
      if (!isErr(bt) && !unify(intT, bt))
        error(l.bound->span,
              "the bound of a 'for' loop has type " + qt(bt) + " but int was expected");
    }
    size_t m = mark();
    bindPattern(l.pattern, st);
    if (l.form == Loop::For)
      bindName(l.indexName, intT, l.indexSpan, false);
    if (l.form == Loop::While && l.cond) {
      TypeP ct = check(l.cond);
      if (!isErr(ct) && !unify(boolT, ct))
        error(l.cond->span,
              "the condition of a 'while' loop has type " + qt(ct) + " but bool was expected");
    }
    TypeP bt = check(l.body, st);
    popTo(m);
    if (isErr(st) || isErr(bt))
      return Type::error();
    if (!unify(st, bt)) {
      const Expr *r = resultExpr(l.body.get());
      error(r ? r->span : l.body->span, "the loop body has type " + qt(bt) +
                                            " but the loop state has type " + qt(zonk(st)));
      return Type::error();
    }
    return st;
  }
  case ExprKind::Range: {
    auto &r = static_cast<Range &>(e);
    TypeP a = check(r.lo), b = check(r.hi);
    if (isErr(a) || isErr(b))
      return Type::error();
    if (!a->isIntegral() || !b->isIntegral()) {
      const Expr &bad = a->isIntegral() ? *r.hi : *r.lo;
      error(bad.span, "a range bound has type " + qt(a->isIntegral() ? b : a) +
                          " but int or long was expected");
      return Type::error();
    }
    if (a->scalar != b->scalar) {
      error(r.span, "the bounds of a range have different types " + qt(a) + " and " + qt(b) +
                        "; convert explicitly, e.g. long(n)");
      return Type::error();
    }
    return Type::array(a, 1);
  }
  case ExprKind::ArrayLit: {
    auto &a = static_cast<ArrayLit &>(e);
    TypeP ex = zonk(expected);
    if (a.elems.empty()) {
      if (ex && ex->kind == Type::Array)
        return ex;
      return Type::array(freshVar('a', true, ""), 1);
    }
    TypeP exElem = ex && ex->kind == Type::Array
                       ? (ex->rank == 1 ? ex->elem : Type::array(ex->elem, ex->rank - 1))
                       : nullptr;
    TypeP first = check(a.elems[0], exElem);
    bool bad = isErr(first);
    for (size_t i = 1; i < a.elems.size(); ++i) {
      TypeP t = check(a.elems[i], bad ? exElem : first);
      if (isErr(t) || bad) {
        bad = true;
        continue;
      }
      if (!unify(first, t)) {
        error(a.elems[i]->span, "element " + std::to_string(i) + " of the array literal has type " +
                                    qt(t) + " but the first element has type " + qt(zonk(first)));
        bad = true;
      }
    }
    if (bad)
      return Type::error();
    first = zonk(first);
    if (first->kind == Type::Array) {
      // Nested literals must be rectangular.
      std::function<bool(const Expr &, const Expr &)> same = [&](const Expr &x, const Expr &y) {
        if (x.kind != ExprKind::ArrayLit || y.kind != ExprKind::ArrayLit)
          return true;
        auto &xa = static_cast<const ArrayLit &>(x), &ya = static_cast<const ArrayLit &>(y);
        if (xa.elems.size() != ya.elems.size()) {
          error(y.span, "the array literal is not rectangular: this row has " +
                            plural(ya.elems.size(), "element") + " but the first has " +
                            std::to_string(xa.elems.size()));
          return false;
        }
        for (size_t i = 0; i < xa.elems.size(); ++i)
          if (!same(*xa.elems[i], *ya.elems[i]))
            return false;
        return true;
      };
      for (size_t i = 1; i < a.elems.size(); ++i)
        if (!same(*a.elems[0], *a.elems[i]))
          return Type::error();
    } else if (!isElementType(first)) {
      error(a.span, "an array element cannot have type " + qt(first) +
                        "; elements are scalars or tuples of scalars");
      return Type::error();
    }
    return arrayOf(first, 1);
  }
  case ExprKind::New: {
    auto &n = static_cast<New &>(e);
    TypeP el = resolveTypeExpr(n.elemType, curModule_, curTParams_, n.span, false);
    bool bad = isErr(el);
    if (!bad && !isElementType(el)) {
      error(n.span, "'new' needs a scalar or tuple element type, not " + qt(el));
      bad = true;
    }
    n.elemType = bad ? n.elemType : el;
    for (auto &d : n.dims)
      bad |= !expectIndex(d, "an array dimension");
    if (n.dims.empty()) {
      error(n.span, "'new' needs at least one dimension");
      bad = true;
    }
    return bad ? Type::error() : arrayOf(el, static_cast<int>(n.dims.size()));
  }
  case ExprKind::Index: {
    auto &x = static_cast<Index &>(e);
    TypeP at = check(x.array);
    return checkIndexArgs(x.args, at, x.span, *x.array);
  }
  case ExprKind::With: {
    auto &w = static_cast<With &>(e);
    TypeP at = check(w.array);
    TypeP slot = checkIndexArgs(w.args, at, w.span, *w.array);
    TypeP vt = check(w.value, isErr(slot) ? nullptr : slot);
    if (isErr(slot) || isErr(vt))
      return Type::error();
    if (!unify(slot, vt)) {
      error(w.value->span, "the value stored by 'with' has type " + qt(vt) + " but " +
                               std::string(slot->kind == Type::Array ? "the section of "
                                                                     : "an element of ") +
                               nameOf(*w.array, "the array") + " has type " + qt(slot));
      return Type::error();
    }
    return at;
  }
  case ExprKind::Size: {
    auto &s = static_cast<Size &>(e);
    TypeP at = check(s.array);
    bool ok = expectIndex(s.axis, "the axis of 'size'");
    if (isErr(at))
      return intT;
    if (at->kind != Type::Array) {
      error(s.array->span, "'size' needs an array, but " + nameOf(*s.array, "this value") +
                               " has type " + qt(at));
      return Type::error();
    }
    if (ok && s.axis->kind == ExprKind::IntLit) {
      int64_t k = static_cast<IntLit &>(*s.axis).value;
      if (k < 0 || k >= at->rank) {
        error(s.axis->span, "axis " + std::to_string(k) + " is out of range for " +
                                nameOf(*s.array, "an array") + " of rank " +
                                std::to_string(at->rank) + " (axes are 0 to " +
                                std::to_string(at->rank - 1) + ")");
        return Type::error();
      }
    }
    return intT;
  }
  case ExprKind::Rank: {
    auto &r = static_cast<Rank &>(e);
    TypeP at = check(r.array);
    if (!isErr(at) && at->kind != Type::Array) {
      error(r.array->span, "'rank' needs an array, but " + nameOf(*r.array, "this value") +
                               " has type " + qt(at));
      return Type::error();
    }
    return intT;
  }
  case ExprKind::Comprehension: return checkComprehension(static_cast<Comprehension &>(e));
  }
  return Type::error();
}

TypeP Checker::checkIndexArgs(std::vector<IndexArg> &args, const TypeP &at, const Span &span,
                              const Expr &array) {
  bool ok = true;
  int kept = 0;
  for (auto &a : args) {
    switch (a.kind) {
    case IndexArg::Single: ok &= expectIndex(a.index, "an index"); break;
    case IndexArg::Triplet:
      ++kept;
      if (a.first)
        ok &= expectIndex(a.first, "the first index of a section");
      if (a.last)
        ok &= expectIndex(a.last, "the last index of a section");
      if (a.step)
        ok &= expectIndex(a.step, "the step of a section");
      break;
    case IndexArg::All: ++kept; break;
    }
  }
  if (isErr(at))
    return Type::error();
  if (at->kind != Type::Array) {
    error(array.span, "cannot index " + nameOf(array, "a value") + " of type " + qt(at) +
                          "; it is not an array");
    return Type::error();
  }
  if (static_cast<int>(args.size()) != at->rank) {
    error(span, nameOf(array, "the array") + " has rank " + std::to_string(at->rank) +
                    " but the subscript list has " + std::to_string(args.size()) +
                    (args.size() == 1 ? " entry" : " entries") +
                    "; it needs exactly one per axis");
    return Type::error();
  }
  if (!ok)
    return Type::error();
  return kept == 0 ? at->elem : Type::array(at->elem, kept);
}

TypeP Checker::checkVar(VarRef &v, const TypeP &expected, bool funcOk) {
  if (Binding *b = findLocal(v.name)) {
    b->used = true;
    v.ref = b->isParam ? VarRef::Ref::Param : VarRef::Ref::Local;
    if (!isErr(b->type) && b->type->kind == Type::Func && !funcOk) {
      error(v.span, "function parameter " + q(v.name) +
                        " can only be called or passed as an argument");
      return Type::error();
    }
    return b->type;
  }
  if (curTParams_.count(v.name)) {
    error(v.span, "type parameter " + q(v.name) + " is not a value; to convert, write " + v.name +
                      "(e)");
    return Type::error();
  }
  const IntrinsicInfo *intr = nullptr;
  FunDecl *fn = findFunction(curModule_, v.name, &intr);
  if (fn || intr)
    return functionValue(v, fn, intr, expected, funcOk);
  if (unknownReported_.insert({curFn_, v.name}).second)
    error(v.span, "unknown name " + q(v.name));
  else
    ++fnErrors_;
  return Type::error();
}

TypeP Checker::functionValue(VarRef &v, FunDecl *fn, const IntrinsicInfo *intr,
                             const TypeP &expected0, bool funcOk) {
  if (!funcOk) {
    error(v.span, "function " + q(v.name) + " can only be called or passed as an argument");
    return Type::error();
  }
  TypeP expected = zonk(expected0);
  bool known = expected && expected->kind == Type::Func;
  if (fn) {
    Sig &sig = sigs_[fn];
    if (!sig.ok)
      return Type::error();
    if (fn->typeParams.empty()) {
      v.ref = VarRef::Ref::Function;
      v.function = fn;
      recordCall(fn, v.span);
      return Type::func(sig.params, sig.result);
    }
    if (!known) {
      error(v.span, "cannot tell which instance of generic function " + q(v.name) +
                        " is meant here; pass it where a function type is expected");
      return Type::error();
    }
    std::map<std::string, TypeP> tp;
    std::vector<TypeP> vars;
    for (auto &n : fn->typeParams)
      vars.push_back(tp[n] = freshVar('a', false, n));
    std::vector<TypeP> ps;
    for (auto &p : fn->params)
      ps.push_back(resolveTypeExpr(p.type, fn->module, tp, p.span, true));
    TypeP r = resolveTypeExpr(fn->result, fn->module, tp, fn->span, false);
    TypeP ft = Type::func(ps, r);
    if (!unify(ft, expected)) {
      error(v.span, "function " + q(v.name) + " has type " + describe(ft) + " but " +
                        describe(expected) + " was expected");
      return Type::error();
    }
    std::vector<TypeP> targs;
    for (auto &x : vars) {
      targs.push_back(zonk(x));
      if (hasVars(targs.back())) {
        error(v.span, "cannot infer type parameter " + q(x->name) + " of " + q(v.name));
        return Type::error();
      }
    }
    FunDecl *inst = instantiate(fn, targs, v.span);
    if (!inst)
      return Type::error();
    v.ref = VarRef::Ref::Function;
    v.function = inst;
    v.typeArgs = targs;
    return Type::func(sigs_[inst].params, sigs_[inst].result);
  }
  // An intrinsic used as a function value: apply it to the expected parameter types.
  if (!known || hasVars(Type::tuple(expected->elems))) {
    error(v.span, "cannot tell the type of intrinsic " + q(v.name) +
                      " here; pass it where a function type is expected");
    return Type::error();
  }
  v.ref = VarRef::Ref::Intrinsic;
  std::vector<TypeP> targs;
  TypeP r;
  if (intr->signature.empty()) {
    std::vector<Span> spans(expected->elems.size(), v.span);
    r = specialIntrinsic(intr->name, expected->elems, spans, v.span, targs);
  } else {
    std::map<char, TypeP> vars;
    TypeP sig = parseSig(intr->signature, vars, intr->rowPoly);
    bool ok = sig->elems.size() == expected->elems.size();
    for (auto &p : sig->elems)
      ok &= zonk(p)->kind != Type::Func;
    for (size_t i = 0; ok && i < sig->elems.size(); ++i)
      ok &= unify(sig->elems[i], expected->elems[i]);
    if (!ok) {
      error(v.span, "intrinsic " + q(v.name) + " cannot be used as a function of type " +
                        qt(expected));
      return Type::error();
    }
    r = zonk(sig->elem);
    for (auto &kv : vars)
      targs.push_back(zonk(kv.second));
  }
  if (isErr(r))
    return r;
  v.typeArgs = targs;
  return Type::func(expected->elems, r);
}

TypeP Checker::checkUnary(Unary &u) {
  TypeP t = check(u.operand);
  if (isErr(t))
    return t;
  TypeP el = t->kind == Type::Array ? t->elem : t;
  bool ok = false;
  const char *need = "";
  switch (u.op) {
  case UnOp::Neg: ok = el->isNumeric(); need = "a numeric"; break;
  case UnOp::Not: ok = el->isScalar(ScalarKind::Bool); need = "a bool"; break;
  case UnOp::BitNot: ok = el->isIntegral(); need = "an int or long"; break;
  }
  if (!ok) {
    error(u.span, std::string("operator '") + spelling(u.op) + "' needs " + need +
                      " operand (or an array of them), but it has type " + qt(t));
    return Type::error();
  }
  return t;
}

static int numericRank(ScalarKind k) {
  switch (k) {
  case ScalarKind::Int: return 1;
  case ScalarKind::Long: return 2;
  case ScalarKind::Float: return 3;
  case ScalarKind::Double: return 4;
  default: return 0;
  }
}

static std::string exprHint(const Expr *e) {
  if (!e)
    return "...";
  if (e->kind == ExprKind::Var)
    return static_cast<const VarRef *>(e)->name;
  if (e->kind == ExprKind::IntLit)
    return std::to_string(static_cast<const IntLit *>(e)->value);
  if (e->kind == ExprKind::FloatLit)
    return static_cast<const FloatLit *>(e)->text.empty()
               ? std::to_string(static_cast<const FloatLit *>(e)->value)
               : static_cast<const FloatLit *>(e)->text;
  return "...";
}

TypeP Checker::binaryType(BinOp op, TypeP lt, TypeP rt, const Span &span, const Expr *lhs,
                          const Expr *rhs) {
  if (isErr(lt) || isErr(rt))
    return Type::error();
  std::string sop = std::string("'") + spelling(op) + "'";
  if (op == BinOp::Concat) {
    if (lt->kind != Type::Array || rt->kind != Type::Array || !unify(lt, rt)) {
      error(span, "'++' needs two arrays of the same type, but the operands have types " +
                      qt(lt) + " and " + qt(zonk(rt)));
      return Type::error();
    }
    return lt;
  }
  // Unresolved lambda parameters: make both sides agree.
  if (lt->kind == Type::Var || rt->kind == Type::Var) {
    if (!unify(lt, rt)) {
      error(span, "operator " + sop + " cannot be applied to " + describe(lt) + " and " +
                      describe(rt));
      return Type::error();
    }
    lt = rt = zonk(lt);
    if (lt->kind == Type::Var) {
      bool cmp = op == BinOp::Eq || op == BinOp::Ne || op == BinOp::Lt || op == BinOp::Le ||
                 op == BinOp::Gt || op == BinOp::Ge;
      return cmp ? Type::scalarOf(ScalarKind::Bool) : lt;
    }
  }
  int lr = lt->kind == Type::Array ? lt->rank : 0, rr = rt->kind == Type::Array ? rt->rank : 0;
  TypeP le = lr ? lt->elem : lt, re = rr ? rt->elem : rt;
  if (lr && rr && lr != rr) {
    error(span, "element-wise " + sop + " needs arrays of equal rank, but the operands have types " +
                    qt(lt) + " and " + qt(rt));
    return Type::error();
  }
  int rank = std::max(lr, rr);
  if (le->kind != Type::Scalar || re->kind != Type::Scalar) {
    error(span, "operator " + sop + " cannot be applied to " + qt(lt) + " and " + qt(rt) +
                    "; it works on scalars and arrays of scalars");
    return Type::error();
  }
  ScalarKind a = le->scalar, b = re->scalar;
  auto mismatch = [&](const char *verb) {
    const Expr *conv = numericRank(a) < numericRank(b) ? lhs : rhs;
    ScalarKind to = numericRank(a) < numericRank(b) ? b : a;
    std::string msg = std::string(verb) + " " + qt(le) + " and " + qt(re) +
                      "; convert explicitly, e.g. " + toString(to) + "(" + exprHint(conv) + ")";
    if (conv && conv->kind == ExprKind::IntLit && to != ScalarKind::Bool) {
      std::string v = exprHint(conv);
      msg = std::string(verb) + " " + qt(le) + " and " + qt(re) + "; write the literal as " +
            (to == ScalarKind::Long ? v + "L" : to == ScalarKind::Double ? v + ".0" : v + ".0f");
    }
    error(span, msg);
    return Type::error();
  };
  TypeP result;
  switch (op) {
  case BinOp::Add:
  case BinOp::Sub:
  case BinOp::Mul:
  case BinOp::Div:
  case BinOp::Mod: {
    bool isMod = op == BinOp::Mod;
    auto good = [&](ScalarKind k) {
      return isMod ? (k == ScalarKind::Int || k == ScalarKind::Long) : k != ScalarKind::Bool;
    };
    if (!good(a) || !good(b)) {
      error(span, "operator " + sop + " needs " + (isMod ? "int or long" : "numeric") +
                      " operands, but they have types " + qt(lt) + " and " + qt(rt));
      return Type::error();
    }
    if (a != b) {
      const char *verb = op == BinOp::Add   ? "cannot add"
                         : op == BinOp::Sub ? "cannot subtract"
                         : op == BinOp::Mul ? "cannot multiply"
                         : op == BinOp::Div ? "cannot divide"
                                            : "cannot take the remainder of";
      return mismatch(verb);
    }
    result = le;
    break;
  }
  case BinOp::Eq:
  case BinOp::Ne:
  case BinOp::Lt:
  case BinOp::Le:
  case BinOp::Gt:
  case BinOp::Ge: {
    bool ordered = op != BinOp::Eq && op != BinOp::Ne;
    if (ordered && (a == ScalarKind::Bool || b == ScalarKind::Bool)) {
      error(span, "operator " + sop + " needs numeric operands, but they have types " + qt(lt) +
                      " and " + qt(rt));
      return Type::error();
    }
    if (a != b)
      return mismatch("cannot compare");
    result = Type::scalarOf(ScalarKind::Bool);
    break;
  }
  case BinOp::And:
  case BinOp::Or:
    if (a != ScalarKind::Bool || b != ScalarKind::Bool) {
      error(span, "operator " + sop + " needs bool operands, but they have types " + qt(lt) +
                      " and " + qt(rt));
      return Type::error();
    }
    result = le;
    break;
  case BinOp::BitAnd:
  case BinOp::BitOr:
  case BinOp::BitXor:
    if (numericRank(a) > 2 || numericRank(b) > 2) {
      error(span, "operator " + sop + " needs int, long or bool operands, but they have types " +
                      qt(lt) + " and " + qt(rt));
      return Type::error();
    }
    if (a != b)
      return mismatch(("cannot apply " + sop + " to").c_str());
    result = le;
    break;
  case BinOp::Shl:
  case BinOp::Shr:
    if (!le->isIntegral() || !re->isIntegral()) {
      error(span, "operator " + sop + " needs int or long operands, but they have types " +
                      qt(lt) + " and " + qt(rt));
      return Type::error();
    }
    result = le;
    break;
  case BinOp::Concat: break;
  }
  return rank ? Type::array(result, rank) : result;
}

TypeP Checker::checkConvert(Convert &c) {
  TypeP t = check(c.operand);
  if (isErr(t))
    return t;
  TypeP el = t->kind == Type::Array ? t->elem : t;
  if (el->kind != Type::Scalar) {
    error(c.span, "cannot convert a value of type " + qt(t) + " to " + toString(c.to));
    return Type::error();
  }
  TypeP to = Type::scalarOf(c.to);
  return t->kind == Type::Array ? Type::array(to, t->rank) : to;
}

// Non-function arguments are checked first (they fix the type variables),
// then function arguments (lambdas get their parameter types from them).
// Intrinsics check their arguments last to first: the array argument decides
// the element type, so a wrong neutral element is the one reported.
bool Checker::checkArgs(Call &c, const std::vector<TypeP> &params, const std::string &fname,
                        bool lastFirst) {
  if (c.args.size() != params.size()) {
    error(c.span, q(fname) + " takes " + plural(params.size(), "argument") + " but " +
                      std::to_string(c.args.size()) + (c.args.size() == 1 ? " was" : " were") +
                      " given");
    return false;
  }
  bool ok = true;
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t k = 0; k < params.size(); ++k) {
      size_t i = lastFirst ? params.size() - 1 - k : k;
      TypeP p = zonk(params[i]);
      bool isFun = p && p->kind == Type::Func;
      if (isFun != (pass == 1))
        continue;
      if (!ok && pass == 1) // a function argument would only repeat the error
        continue;
      TypeP t = check(c.args[i], p, isFun);
      if (isErr(t)) {
        ok = false;
        continue;
      }
      if (!unify(p, t)) {
        std::string extra;
        TypeP pz = zonk(p), tz = zonk(t);
        if (pz->kind == Type::Array && tz->kind == Type::Array && pz->rank < tz->rank)
          extra = " (a rank-" + std::to_string(pz->rank) + " array)";
        std::string hint;
        if (c.args[i]->kind == ExprKind::IntLit && pz->isFloating())
          hint = pz->isScalar(ScalarKind::Double) ? "; write a double literal, e.g. 0.0"
                                                  : "; write a float literal, e.g. 0.0f";
        else if (c.args[i]->kind == ExprKind::IntLit && pz->isScalar(ScalarKind::Long))
          hint = "; write a long literal, e.g. 0L";
        else if (pz->isScalar() && tz->isScalar())
          hint = "; convert explicitly, e.g. " + toString(pz) + "(...)";
        error(c.args[i]->span, ordinalArg(i) + " of " + q(fname) + " has type " + qt(tz) +
                                   " but " + describe(pz) + extra + " was expected" + hint);
        ok = false;
      }
    }
  }
  return ok;
}

TypeP Checker::checkCall(ExprP &ep, const TypeP &expected) {
  (void)expected;
  auto &c = static_cast<Call &>(*ep);
  if (c.callee && c.callee->kind == ExprKind::Var) {
    auto &v = static_cast<VarRef &>(*c.callee);
    if (Binding *b = findLocal(v.name)) {
      b->used = true;
      v.ref = b->isParam ? VarRef::Ref::Param : VarRef::Ref::Local;
      v.type = zonk(b->type);
      if (isErr(v.type))
        return Type::error();
      if (v.type->kind != Type::Func) {
        error(v.span, q(v.name) + " is not a function; it has type " + qt(v.type));
        return Type::error();
      }
      if (!checkArgs(c, v.type->elems, v.name))
        return Type::error();
      return v.type->elem;
    }
    auto tp = curTParams_.find(v.name);
    if (tp != curTParams_.end()) {
      // T(e) with T a type parameter bound to a scalar: a conversion.
      TypeP to = tp->second;
      if (c.args.size() != 1 || to->kind != Type::Scalar) {
        error(c.span, c.args.size() != 1
                          ? "a conversion " + v.name + "(e) takes exactly one argument"
                          : "conversion " + v.name + "(e) needs " + v.name +
                                " to be a scalar type, but here it is " + qt(to));
        return Type::error();
      }
      auto conv = std::make_shared<Convert>();
      conv->span = c.span;
      conv->to = to->scalar;
      conv->operand = c.args[0];
      ep = conv;
      return checkConvert(*conv);
    }
    const IntrinsicInfo *intr = nullptr;
    FunDecl *fn = findFunction(curModule_, v.name, &intr);
    if (fn)
      return callFunction(c, v, fn);
    if (intr)
      return callIntrinsic(c, v, *intr);
    if (unknownReported_.insert({curFn_, v.name}).second)
      error(v.span, "unknown function " + q(v.name));
    else
      ++fnErrors_;
    v.type = Type::error();
    return Type::error();
  }
  TypeP ct = check(c.callee, nullptr, true);
  if (isErr(ct))
    return ct;
  if (ct->kind != Type::Func) {
    error(c.callee->span, "cannot call a value of type " + qt(ct));
    return Type::error();
  }
  if (!checkArgs(c, ct->elems, "the function"))
    return Type::error();
  return ct->elem;
}

TypeP Checker::callFunction(Call &c, VarRef &v, FunDecl *fn) {
  Sig &sig = sigs_[fn];
  if (!sig.ok) {
    v.type = Type::error();
    return Type::error();
  }
  if (fn->typeParams.empty()) {
    v.ref = VarRef::Ref::Function;
    v.function = fn;
    v.type = Type::func(sig.params, sig.result);
    recordCall(fn, v.span);
    if (!checkArgs(c, sig.params, fn->name))
      return Type::error();
    return sig.result;
  }
  std::map<std::string, TypeP> tp;
  std::vector<TypeP> vars;
  for (auto &n : fn->typeParams)
    vars.push_back(tp[n] = freshVar('a', false, n));
  std::vector<TypeP> ps;
  for (auto &p : fn->params)
    ps.push_back(resolveTypeExpr(p.type, fn->module, tp, p.span, true));
  if (!checkArgs(c, ps, fn->name))
    return Type::error();
  std::vector<TypeP> targs;
  for (auto &x : vars) {
    targs.push_back(zonk(x));
    if (hasVars(targs.back())) {
      error(c.span, "cannot infer type parameter " + q(x->name) + " of " + q(fn->name) +
                        " from the arguments");
      return Type::error();
    }
  }
  FunDecl *inst = instantiate(fn, targs, c.span);
  if (!inst) {
    v.type = Type::error();
    return Type::error();
  }
  v.ref = VarRef::Ref::Function;
  v.function = inst;
  v.typeArgs = targs;
  v.type = Type::func(sigs_[inst].params, sigs_[inst].result);
  return sigs_[inst].result;
}

TypeP Checker::callIntrinsic(Call &c, VarRef &v, const IntrinsicInfo &info) {
  v.ref = VarRef::Ref::Intrinsic;
  if (info.signature.empty()) {
    std::vector<TypeP> ts;
    std::vector<Span> spans;
    bool bad = false;
    for (auto &a : c.args) {
      ts.push_back(check(a));
      spans.push_back(a->span);
      bad |= isErr(ts.back());
    }
    if (bad) {
      v.type = Type::error();
      return Type::error();
    }
    std::vector<TypeP> targs;
    TypeP r = specialIntrinsic(info.name, ts, spans, c.span, targs);
    v.typeArgs = targs;
    v.type = isErr(r) ? r : Type::func(ts, r);
    return r;
  }
  std::map<char, TypeP> vars;
  TypeP sig = parseSig(info.signature, vars, info.rowPoly);
  if (!checkArgs(c, sig->elems, info.name, true)) {
    v.type = Type::error();
    return Type::error();
  }
  TypeP r = zonk(sig->elem);
  // Element types must stay elements (e.g. zip of rows is not allowed).
  if (r->kind == Type::Array && !isElementType(r->elem)) {
    error(c.span, "the result of " + q(info.name) + " would be an array of " + qt(r->elem) +
                      "; array elements are scalars or tuples of scalars");
    return Type::error();
  }
  for (auto &kv : vars)
    v.typeArgs.push_back(zonk(kv.second));
  v.type = zonk(sig);
  return r;
}

TypeP Checker::specialIntrinsic(const std::string &name, const std::vector<TypeP> &args,
                                const std::vector<Span> &spans, const Span &span,
                                std::vector<TypeP> &typeArgs) {
  auto arity = [&](size_t n) {
    if (args.size() == n)
      return true;
    error(span, q(name) + " takes " + plural(n, "argument") + " but " +
                    std::to_string(args.size()) + (args.size() == 1 ? " was" : " were") +
                    " given");
    return false;
  };
  auto elemOf = [](const TypeP &t) { return t->kind == Type::Array ? t->elem : t; };
  if (name == "zip") {
    if (args.size() < 2) {
      error(span, "'zip' takes at least 2 arguments but " + std::to_string(args.size()) +
                      (args.size() == 1 ? " was" : " were") + " given");
      return Type::error();
    }
    std::vector<TypeP> es;
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i]->kind != Type::Array || args[i]->rank != 1) {
        error(spans[i], ordinalArg(i) + " of 'zip' has type " + qt(args[i]) +
                            " but a rank-1 array was expected");
        return Type::error();
      }
      es.push_back(args[i]->elem);
    }
    typeArgs = es;
    return Type::array(Type::tuple(es), 1);
  }
  if (name == "unzip") {
    if (!arity(1))
      return Type::error();
    TypeP t = args[0];
    if (t->kind != Type::Array || t->rank != 1 || t->elem->kind != Type::Tuple) {
      error(spans[0], "argument 1 of 'unzip' has type " + qt(t) +
                          " but a rank-1 array of tuples was expected");
      return Type::error();
    }
    std::vector<TypeP> rs;
    for (auto &e : t->elem->elems)
      rs.push_back(Type::array(e, 1));
    typeArgs = t->elem->elems;
    return Type::tuple(rs);
  }
  if (name == "transpose" || name == "flatten") {
    if (!arity(1))
      return Type::error();
    TypeP t = args[0];
    if (t->kind != Type::Array || t->rank < 2) {
      error(spans[0], "argument 1 of " + q(name) + " has type " + qt(t) +
                          " but an array of rank 2 or more was expected");
      return Type::error();
    }
    typeArgs = {t->elem};
    return name == "transpose" ? t : Type::array(t->elem, 1);
  }
  // math
  static const std::set<std::string> floatUnary = {"sqrt", "exp",   "log",  "sin",  "cos",
                                                   "tan",  "erf",   "floor", "ceil", "round",
                                                   "isnan"};
  static const std::set<std::string> floatBinary = {"pow", "atan2"};
  bool unary = floatUnary.count(name) || name == "abs";
  bool floating = floatUnary.count(name) || floatBinary.count(name);
  if (!arity(unary ? 1 : 2))
    return Type::error();
  for (size_t i = 0; i < args.size(); ++i) {
    TypeP el = elemOf(args[i]);
    bool ok = floating ? el->isFloating() : el->isNumeric();
    if (!ok) {
      std::string msg = ordinalArg(i) + " of " + q(name) + " has type " + qt(args[i]) + " but " +
                        (floating ? "float or double" : "a numeric type") +
                        " (or an array of them) was expected";
      if (floating && el->isIntegral())
        msg += "; convert explicitly, e.g. double(x)";
      error(spans[i], msg);
      return Type::error();
    }
  }
  if (unary) {
    typeArgs = {elemOf(args[0])};
    if (name == "isnan")
      return args[0]->kind == Type::Array ? Type::array(Type::scalarOf(ScalarKind::Bool),
                                                        args[0]->rank)
                                          : Type::scalarOf(ScalarKind::Bool);
    return args[0];
  }
  TypeP a = args[0], b = args[1];
  TypeP ea = elemOf(a), eb = elemOf(b);
  if (ea->scalar != eb->scalar) {
    ScalarKind to = numericRank(ea->scalar) > numericRank(eb->scalar) ? ea->scalar : eb->scalar;
    error(span, "the arguments of " + q(name) + " have different types " + qt(a) + " and " +
                    qt(b) + "; convert explicitly, e.g. " + toString(to) + "(x)");
    return Type::error();
  }
  if (a->kind == Type::Array && b->kind == Type::Array && a->rank != b->rank) {
    error(span, "element-wise " + q(name) + " needs arrays of equal rank, but the arguments have types " +
                    qt(a) + " and " + qt(b));
    return Type::error();
  }
  typeArgs = {ea};
  return a->kind == Type::Array ? a : b;
}

TypeP Checker::checkLambda(Lambda &l, const TypeP &expected0, bool funcOk) {
  TypeP expected = zonk(expected0);
  if (!funcOk || !expected || expected->kind != Type::Func) {
    error(l.span, "a lambda can only be passed as an argument where a function is expected");
    return Type::error();
  }
  if (l.params.size() != expected->elems.size()) {
    error(l.span, "this lambda takes " + plural(l.params.size(), "parameter") +
                      " but a function of type " + describe(expected) + " (" +
                      plural(expected->elems.size(), "parameter") + ") is expected here");
    return Type::error();
  }
  size_t m = mark();
  std::vector<TypeP> ps;
  for (size_t i = 0; i < l.params.size(); ++i) {
    bindPattern(l.params[i], expected->elems[i]);
    ps.push_back(expected->elems[i]);
  }
  for (size_t i = m; i < scope_.size(); ++i)
    scope_[i].isParam = true;
  TypeP bt = check(l.body, expected->elem);
  popTo(m);
  if (isErr(bt))
    return bt;
  if (!unify(expected->elem, bt)) {
    const Expr *r = resultExpr(l.body.get());
    error(r ? r->span : l.body->span, "the body of this lambda has type " + qt(bt) + " but " +
                                          describe(expected->elem) + " was expected");
    return Type::error();
  }
  return Type::func(ps, bt);
}

TypeP Checker::checkOpSection(OpSection &o, const TypeP &expected0, bool funcOk) {
  TypeP expected = zonk(expected0);
  std::string what = o.isBinOp ? std::string("(") + spelling(o.op) + ")" : "(" + o.function + ")";
  if (!funcOk || !expected || expected->kind != Type::Func) {
    error(o.span, "operator section " + what +
                      " can only be passed as an argument where a function is expected");
    return Type::error();
  }
  if (!o.isBinOp) {
    // (min), (max), (f): a function used as a value.
    VarRef v;
    v.name = o.function;
    v.span = o.span;
    if (findLocal(o.function))
      return checkVar(v, expected, true);
    const IntrinsicInfo *intr = nullptr;
    FunDecl *fn = findFunction(curModule_, o.function, &intr);
    if (!fn && !intr) {
      error(o.span, "unknown function " + q(o.function));
      return Type::error();
    }
    return functionValue(v, fn, intr, expected, true);
  }
  if (expected->elems.size() != 2) {
    error(o.span, "operator section " + what + " is a function of 2 parameters, but " +
                      describe(expected) + " is expected here");
    return Type::error();
  }
  TypeP r = binaryType(o.op, zonk(expected->elems[0]), zonk(expected->elems[1]), o.span, nullptr,
                       nullptr);
  if (isErr(r))
    return r;
  return Type::func({zonk(expected->elems[0]), zonk(expected->elems[1])}, r);
}

// ------------------------------------------------------------ comprehensions

static bool refersTo(const Expr *e, const std::set<std::string> &names) {
  if (!e)
    return false;
  if (e->kind == ExprKind::Var && names.count(static_cast<const VarRef *>(e)->name))
    return true;
  bool found = false;
  forEachChild(const_cast<Expr &>(*e), [&](ExprP &c) { found = found || refersTo(c.get(), names); });
  return found;
}

// True if the number of elements of the array expression e visibly depends
// on one of `names` (so rows built from it would have different lengths).
static bool sizeVaries(const Expr *e, const std::set<std::string> &names, std::string &culprit) {
  if (!e)
    return false;
  auto dep = [&](const Expr *x) {
    if (!x)
      return false;
    for (auto &n : names) {
      std::set<std::string> one{n};
      if (refersTo(x, one)) {
        culprit = n;
        return true;
      }
    }
    return false;
  };
  switch (e->kind) {
  case ExprKind::Range: {
    auto *r = static_cast<const Range *>(e);
    return dep(r->lo.get()) || dep(r->hi.get());
  }
  case ExprKind::Call: {
    auto *c = static_cast<const Call *>(e);
    if (c->callee->kind != ExprKind::Var)
      return false;
    auto &n = static_cast<const VarRef &>(*c->callee).name;
    if ((n == "iota" || n == "replicate") && !c->args.empty())
      return dep(c->args[0].get());
    if (n == "map" && c->args.size() == 2)
      return sizeVaries(c->args[1].get(), names, culprit);
    return false;
  }
  case ExprKind::Comprehension: {
    auto *c = static_cast<const Comprehension *>(e);
    for (auto &b : c->branches)
      for (auto &qq : b)
        if (qq.kind == Qualifier::Bind && sizeVaries(qq.expr.get(), names, culprit))
          return true;
    return false;
  }
  case ExprKind::Index: {
    auto *x = static_cast<const Index *>(e);
    for (auto &a : x->args)
      if (a.kind == IndexArg::Triplet &&
          (dep(a.first.get()) || dep(a.last.get()) || dep(a.step.get())))
        return true;
    return false;
  }
  case ExprKind::New: {
    for (auto &d : static_cast<const New *>(e)->dims)
      if (dep(d.get()))
        return true;
    return false;
  }
  default: return false;
  }
}

static void patternNames(const Pattern &p, std::set<std::string> &out) {
  if (p.kind == Pattern::Var)
    out.insert(p.name);
  for (auto &e : p.elems)
    patternNames(e, out);
}

TypeP Checker::checkComprehension(Comprehension &c) {
  size_t m = mark();
  std::vector<Binding> bound;
  std::set<std::string> names;
  bool bad = false;
  for (auto &branch : c.branches) {
    size_t bm = mark();
    for (size_t qi = 0; qi < branch.size(); ++qi) {
      Qualifier &qq = branch[qi];
      switch (qq.kind) {
      case Qualifier::Filter: {
        if (qi == 0) {
          error(qq.span.valid() ? qq.span : qq.expr->span,
                "a comprehension cannot start with a filter; put a generator 'x <- xs' first");
          bad = true;
        }
        TypeP t = check(qq.expr);
        if (!isErr(t) && !t->isScalar(ScalarKind::Bool)) {
          error(qq.expr->span, "a filter must have type bool, but this has type " + qt(t));
          bad = true;
        }
        break;
      }
      case Qualifier::Bind: {
        TypeP t = check(qq.expr);
        TypeP el = Type::error();
        if (isErr(t)) {
          bad = true;
        } else if (t->kind != Type::Array) {
          error(qq.expr->span, "a generator ranges over an array, but " +
                                   nameOf(*qq.expr, "this") + " has type " + qt(t));
          bad = true;
        } else {
          el = t->rank == 1 ? t->elem : Type::array(t->elem, t->rank - 1);
        }
        bindPattern(qq.pattern, el);
        patternNames(qq.pattern, names);
        break;
      }
      case Qualifier::Let: {
        TypeP t = check(qq.expr);
        bad |= isErr(t);
        bindPattern(qq.pattern, t);
        patternNames(qq.pattern, names);
        break;
      }
      }
    }
    for (size_t i = bm; i < scope_.size(); ++i)
      bound.push_back(scope_[i]);
    scope_.resize(bm);
  }
  std::set<std::string> seen;
  for (auto &b : bound) {
    if (!seen.insert(b.name).second && b.name[0] != '_')
      warn(b.span, q(b.name) + " is bound twice in this comprehension");
    scope_.push_back(b);
  }
  TypeP ht = check(c.head);
  popTo(m);
  if (bad || isErr(ht))
    return Type::error();
  if (ht->kind == Type::Func || (ht->kind != Type::Array && !isElementType(ht))) {
    error(c.head->span, "the head of a comprehension cannot have type " + qt(ht) +
                            "; array elements are scalars or tuples of scalars");
    return Type::error();
  }
  if (ht->kind == Type::Array) {
    std::string culprit;
    if (sizeVaries(c.head.get(), names, culprit)) {
      error(c.head->span, "the rows of this nested comprehension have different lengths: their size depends on " +
                              q(culprit) +
                              "; use one comprehension with two generators for a flat result");
      return Type::error();
    }
  }
  return arrayOf(ht, 1);
}

} // namespace

bool typeCheck(Program &program, Diagnostics &diags, const TypeCheckOptions &options) {
  if (options.warningsAsErrors)
    diags.setWarningsAsErrors(true);
  Checker c(program, diags);
  return c.run();
}

// Test hooks (declared in test/unit/typecheck): unification on a private checker.
namespace tc_test {
struct Unifier {
  Program prog;
  SourceManager sm;
  std::ostringstream out;
  Diagnostics diags{sm, out};
  Checker checker{prog, diags};
};
Unifier *newUnifier() { return new Unifier(); }
void deleteUnifier(Unifier *u) { delete u; }
TypeP fresh(Unifier *u, char kind, bool allowArray, const std::string &name) {
  return u->checker.freshVar(kind, allowArray, name);
}
bool unify(Unifier *u, const TypeP &a, const TypeP &b) { return u->checker.unify(a, b); }
TypeP resolve(Unifier *u, const TypeP &t) { return u->checker.zonk(t); }
TypeP signature(Unifier *u, const std::string &intrinsic) {
  auto *info = tc::findIntrinsic(intrinsic);
  if (!info || info->signature.empty())
    return nullptr;
  std::map<char, TypeP> vars;
  return u->checker.parseSig(info->signature, vars, info->rowPoly);
}
} // namespace tc_test

} // namespace arrc
