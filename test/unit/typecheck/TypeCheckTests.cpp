// Unit tests of the type checker: the type representation, unification and
// instantiation, and checking of small hand-built ASTs.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "arrc/TypeCheck.h"

#include <sstream>

using arrc::arrayOf;
using arrc::BinOp;
using arrc::Call;
using arrc::Comprehension;
using arrc::Convert;
using arrc::Diagnostics;
using arrc::ExprP;
using arrc::FunDecl;
using arrc::FunDeclP;
using arrc::IntLit;
using arrc::FloatLit;
using arrc::isElementType;
using arrc::isIntrinsic;
using arrc::intrinsicNames;
using arrc::Lambda;
using arrc::Module;
using arrc::Param;
using arrc::Pattern;
using arrc::Program;
using arrc::Qualifier;
using arrc::Range;
using arrc::ScalarKind;
using arrc::SourceManager;
using arrc::Span;
using arrc::Binary;
using arrc::Type;
using arrc::TypeP;
using arrc::VarRef;
static std::string tstr(const TypeP &t) { return arrc::toString(t); }

namespace arrc::tc_test {
struct Unifier;
Unifier *newUnifier();
void deleteUnifier(Unifier *);
TypeP fresh(Unifier *, char kind, bool allowArray, const std::string &name);
bool unify(Unifier *, const TypeP &, const TypeP &);
TypeP resolve(Unifier *, const TypeP &);
TypeP signature(Unifier *, const std::string &intrinsic);
} // namespace arrc::tc_test

namespace {

const TypeP I = Type::scalarOf(ScalarKind::Int);
const TypeP L = Type::scalarOf(ScalarKind::Long);
const TypeP D = Type::scalarOf(ScalarKind::Double);
const TypeP B = Type::scalarOf(ScalarKind::Bool);

struct U {
  arrc::tc_test::Unifier *u = arrc::tc_test::newUnifier();
  ~U() { arrc::tc_test::deleteUnifier(u); }
  TypeP var(char k = 'a', bool rows = false, std::string n = "") { return arrc::tc_test::fresh(u, k, rows, n); }
  bool unify(const TypeP &a, const TypeP &b) { return arrc::tc_test::unify(u, a, b); }
  std::string str(const TypeP &t) { return tstr(arrc::tc_test::resolve(u, t)); }
};

// ------------------------------------------------------------ AST builders
Span sp(int line = 1, int c = 1) { return Span{0, {line, c}, {line, c + 1}}; }

ExprP var(const std::string &n) {
  auto v = std::make_shared<VarRef>();
  v->name = n;
  v->span = sp();
  return v;
}
ExprP ilit(int64_t x, ScalarKind k = ScalarKind::Int) {
  auto v = std::make_shared<IntLit>();
  v->value = x;
  v->scalar = k;
  v->span = sp();
  return v;
}
ExprP flit(double x) {
  auto v = std::make_shared<FloatLit>();
  v->value = x;
  v->text = std::to_string(x);
  v->span = sp();
  return v;
}
ExprP bin(BinOp op, ExprP a, ExprP b) {
  auto v = std::make_shared<Binary>();
  v->op = op;
  v->lhs = a;
  v->rhs = b;
  v->span = sp();
  return v;
}
ExprP call(const std::string &f, std::vector<ExprP> args) {
  auto v = std::make_shared<Call>();
  v->callee = var(f);
  v->args = std::move(args);
  v->span = sp();
  return v;
}
Pattern pvar(const std::string &n) {
  Pattern p;
  p.kind = Pattern::Var;
  p.name = n;
  p.span = sp();
  return p;
}
Qualifier bind(const std::string &n, ExprP src) {
  Qualifier q;
  q.kind = Qualifier::Bind;
  q.pattern = pvar(n);
  q.expr = src;
  q.span = sp();
  return q;
}
ExprP comp(ExprP head, std::vector<std::vector<Qualifier>> branches) {
  auto c = std::make_shared<Comprehension>();
  c->head = head;
  c->branches = std::move(branches);
  c->span = sp();
  return c;
}
ExprP range(ExprP lo, ExprP hi) {
  auto r = std::make_shared<Range>();
  r->lo = lo;
  r->hi = hi;
  r->span = sp();
  return r;
}
ExprP lambda(std::vector<std::string> ps, ExprP body) {
  auto l = std::make_shared<Lambda>();
  for (auto &p : ps)
    l->params.push_back(pvar(p));
  l->body = body;
  l->span = sp();
  return l;
}
FunDeclP fun(bool exported, const std::string &name, TypeP result,
             std::vector<std::pair<TypeP, std::string>> params, ExprP body,
             std::vector<std::string> tparams = {}) {
  auto f = std::make_shared<FunDecl>();
  f->exported = exported;
  f->name = name;
  f->result = result;
  for (auto &p : params)
    f->params.push_back(Param{p.first, p.second, sp()});
  f->body = body;
  f->typeParams = std::move(tparams);
  f->span = f->nameSpan = sp();
  return f;
}

struct Run {
  SourceManager sm;
  std::ostringstream diag;
  Diagnostics diags{sm, diag};
  Program prog;
  bool ok = false;
  Run(std::vector<FunDeclP> fns, std::vector<FunDeclP> stdlib = {}) {
    sm.add("t.arr", std::string(200, ' ') + "\n" + std::string(200, ' ') + "\n");
    Module m;
    m.path = "t.arr";
    m.name = "t";
    m.file = 0;
    m.functions = std::move(fns);
    prog.modules.push_back(std::move(m));
    if (!stdlib.empty()) {
      Module s;
      s.isStdlib = true;
      s.file = 0;
      s.functions = std::move(stdlib);
      prog.modules.push_back(std::move(s));
    }
    ok = arrc::typeCheck(prog, diags);
  }
  std::string typed() {
    std::ostringstream o;
    arrc::printTyped(prog, sm, o);
    return o.str();
  }
};

} // namespace

TEST_CASE("array types merge element arrays and know their elements") {
  CHECK(tstr(arrayOf(D, 1)) == "double[[*]]");
  CHECK(tstr(arrayOf(arrayOf(D, 1), 1)) == "double[[*,*]]");
  CHECK(tstr(arrayOf(arrayOf(I, 2), 1)) == "int[[*,*,*]]");
  CHECK(isElementType(D));
  CHECK(isElementType(Type::tuple({I, Type::tuple({D, B})})));
  CHECK_FALSE(isElementType(arrayOf(D, 1)));
  CHECK_FALSE(isElementType(Type::tuple({I, arrayOf(D, 1)})));
  CHECK_FALSE(isElementType(Type::func({D}, D)));
}

TEST_CASE("intrinsics are the single source of truth") {
  CHECK(isIntrinsic("map"));
  CHECK(isIntrinsic("sum"));
  CHECK(isIntrinsic("transpose"));
  CHECK(isIntrinsic("sqrt"));
  CHECK_FALSE(isIntrinsic("dot"));
  CHECK_FALSE(isIntrinsic("count"));
  CHECK(intrinsicNames().size() >= 40);
}

TEST_CASE("unification binds variables and respects their kinds") {
  U u;
  TypeP a = u.var();
  CHECK(u.unify(Type::array(a, 1), arrayOf(D, 1)));
  CHECK(u.str(a) == "double");
  TypeP n = u.var('n');
  CHECK_FALSE(u.unify(n, B));
  CHECK(u.unify(n, L));
  CHECK(u.str(n) == "long");
  TypeP i = u.var('i');
  CHECK_FALSE(u.unify(i, D));
  TypeP f = u.var('f');
  CHECK_FALSE(u.unify(f, I));
  CHECK(u.unify(f, D));
}

TEST_CASE("element variables stand for rows only where allowed") {
  U u;
  TypeP a = u.var('a', false);
  CHECK_FALSE(u.unify(Type::array(a, 1), arrayOf(D, 2)));
  TypeP r = u.var('a', true);
  CHECK(u.unify(Type::array(r, 1), arrayOf(D, 2)));
  CHECK(u.str(r) == "double[[*]]");
  CHECK(u.str(Type::array(r, 1)) == "double[[*,*]]");
}

TEST_CASE("occurs check and structural mismatch") {
  U u;
  TypeP a = u.var('a', true);
  CHECK_FALSE(u.unify(a, Type::array(a, 1)));
  CHECK_FALSE(u.unify(Type::tuple({I, D}), Type::tuple({I, D, B})));
  CHECK_FALSE(u.unify(Type::func({I}, I), Type::func({I, I}, I)));
  CHECK(u.unify(Type::func({I, I}, I), Type::func({I, I}, I)));
}

TEST_CASE("intrinsic signatures instantiate with fresh variables") {
  U u;
  TypeP s = arrc::tc_test::signature(u.u, "reduce");
  REQUIRE((s != nullptr));
  REQUIRE((s->kind == Type::Func));
  CHECK(s->elems.size() == 3);
  CHECK(u.unify(s->elems[2], arrayOf(D, 1)));
  CHECK(u.str(s->elem) == "double");
  CHECK(u.str(s->elems[0]) == "(double, double) -> double");
  TypeP s2 = arrc::tc_test::signature(u.u, "reduce");
  CHECK(u.unify(s2->elems[1], I)); // fresh variables each time
  CHECK(u.str(s2->elem) == "int");
}

TEST_CASE("dot product type-checks") {
  // export double dot(double[[*]] a, double[[*]] b) = sum([x * y | x <- a | y <- b]);
  auto body = call("sum", {comp(bin(BinOp::Mul, var("x"), var("y")),
                                {{bind("x", var("a"))}, {bind("y", var("b"))}})});
  Run r({fun(true, "dot", D, {{arrayOf(D, 1), "a"}, {arrayOf(D, 1), "b"}}, body)});
  CHECK(r.ok);
  CHECK(r.diag.str() == "");
  REQUIRE(r.prog.instances.size() == 1);
  CHECK(tstr(r.prog.instances[0]->body->type) == "double");
  std::string t = r.typed();
  CHECK(t.find("Comprehension : double[[*]]") != std::string::npos);
  CHECK(t.find("Var sum [intrinsic] : (double[[*]]) -> double") != std::string::npos);
}

TEST_CASE("mixed scalar types need an explicit conversion") {
  auto body = bin(BinOp::Add, var("x"), var("i"));
  Run r({fun(true, "f", D, {{D, "x"}, {I, "i"}}, body)});
  CHECK_FALSE(r.ok);
  CHECK(r.diag.str().find("cannot add 'double' and 'int'; convert explicitly, e.g. double(i)") !=
        std::string::npos);
}

TEST_CASE("nested comprehensions add a rank") {
  // [[double(i + k) | k <- [0..<n]] | i <- [0..<m]]
  auto conv = std::make_shared<Convert>();
  conv->to = ScalarKind::Double;
  conv->operand = bin(BinOp::Add, var("i"), var("k"));
  conv->span = sp();
  auto inner = comp(conv, {{bind("k", range(ilit(0), var("n")))}});
  auto outer = comp(inner, {{bind("i", range(ilit(0), var("m")))}});
  Run r({fun(true, "f", arrayOf(D, 2), {{I, "m"}, {I, "n"}}, outer)});
  CHECK(r.ok);
  CHECK(r.diag.str() == "");
  CHECK(tstr(r.prog.instances[0]->body->type) == "double[[*,*]]");
}

TEST_CASE("an inner size depending on the outer variable is an error") {
  auto inner = comp(var("k"), {{bind("k", range(ilit(0), var("i")))}});
  auto outer = comp(inner, {{bind("i", range(ilit(0), var("m")))}});
  Run r({fun(true, "f", arrayOf(I, 2), {{I, "m"}}, outer)});
  CHECK_FALSE(r.ok);
  CHECK(r.diag.str().find("different lengths") != std::string::npos);
}

TEST_CASE("lambda parameters are inferred from map's array") {
  auto body = call("map", {lambda({"x"}, bin(BinOp::Mul, var("x"), flit(2.0))), var("xs")});
  Run r({fun(true, "f", arrayOf(D, 1), {{arrayOf(D, 1), "xs"}}, body)});
  CHECK(r.ok);
  CHECK(r.typed().find("Param x : double") != std::string::npos);
}

TEST_CASE("generic functions are instantiated once per type list") {
  // <T> def T[[*]] twice(T[[*]] xs) = xs ++ xs;  export int[[*]] f(int[[*]] a) = twice(twice(a));
  auto T = Type::named("T");
  auto g = fun(false, "twice", Type::array(T, 1), {{Type::array(T, 1), "xs"}},
               bin(BinOp::Concat, var("xs"), var("xs")), {"T"});
  auto f = fun(true, "f", arrayOf(I, 1), {{arrayOf(I, 1), "a"}},
               call("twice", {call("twice", {var("a")})}));
  Run r({f, g});
  CHECK(r.ok);
  REQUIRE(r.prog.instances.size() == 2);
  CHECK(r.prog.instances[0]->name == "twice<int>");
  CHECK(r.prog.instances[0]->instanceOf == "twice");
  CHECK(r.prog.instances[0]->typeParams.empty());
  CHECK(tstr(r.prog.instances[0]->params[0].type) == "int[[*]]");
  auto &c = static_cast<Call &>(*r.prog.instances[1]->body);
  auto &callee = static_cast<VarRef &>(*c.callee);
  CHECK((callee.ref == VarRef::Ref::Function));
  CHECK((callee.function == r.prog.instances[0].get()));
}

TEST_CASE("errors in an instantiation are reported at the call site") {
  auto T = Type::named("T");
  auto g = fun(false, "neg", T, {{T, "x"}}, bin(BinOp::Sub, ilit(0), var("x")), {"T"});
  auto f = fun(true, "f", D, {{D, "a"}}, call("neg", {var("a")}));
  Run r({f}, {g});
  CHECK_FALSE(r.ok);
  CHECK(r.diag.str().find("in the call of 'neg' with T = double") != std::string::npos);
  CHECK(r.diag.str().find("note: in 'neg<double>' here") != std::string::npos);
}

TEST_CASE("recursion is an error") {
  auto f = fun(true, "f", I, {{I, "x"}}, call("g", {var("x")}));
  auto g = fun(false, "g", I, {{I, "x"}}, call("f", {var("x")}));
  Run r({f, g});
  CHECK_FALSE(r.ok);
  CHECK(r.diag.str().find("recursion is not allowed") != std::string::npos);
}

TEST_CASE("ill-typed input does not cascade") {
  // unknown name inside arithmetic inside a call: one error only
  auto body = call("sum", {comp(bin(BinOp::Mul, var("nope"), flit(1.0)), {{bind("x", var("a"))}})});
  Run r({fun(true, "f", D, {{arrayOf(D, 1), "a"}}, body)});
  CHECK_FALSE(r.ok);
  CHECK(r.diags.errorCount() == 1);
}
