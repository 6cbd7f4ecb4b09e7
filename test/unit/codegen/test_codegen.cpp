// Codegen from hand-built IR (no frontend): the kernels and the header text.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "arrc/Codegen.h"
#include "arrc/IRBuilder.h"

using namespace arrc;
using namespace arrc::ir;

namespace {
// export double[[*]] twice(double[[*]] xs) = [2.0 * x | x <- xs] (checked read)
ir::Module twiceModule() {
  ir::Module m;
  m.name = "twice_mod";
  int xs = m.newVar("xs", arrayT(ScalarKind::Double, 1));
  int i = m.newVar("i", scalarT(ScalarKind::Long));
  int out = m.newVar("ys", arrayT(ScalarKind::Double, 1));
  int pos = m.position("t.arr:1:40");
  auto map = std::make_shared<Map>();
  map->outs = {out};
  map->dims = {shapeExp(varExp(m, xs), 0)};
  map->index = {i};
  map->body.results = {binaryExp(BinOp::Mul, constFloat(2.0), readExp(varExp(m, xs), {varExp(m, i)}, pos))};
  ir::Function f;
  f.name = "twice";
  f.paramNames = {"xs"};
  f.paramTypes = {arrc::Type::array(arrc::Type::scalarOf(ScalarKind::Double), 1)};
  f.paramVars = {{xs}};
  f.resultType = f.paramTypes[0];
  f.body.stmts = {map};
  f.body.results = {varExp(m, out)};
  m.functions.push_back(f);
  return m;
}
} // namespace

TEST_CASE("map kernel: fp64 pragma, buffer + shape + weights, bounds check") {
  ir::Module m = twiceModule();
  std::string cl = emitOpenCL(m);
  CHECK(cl.find("#pragma OPENCL EXTENSION cl_khr_fp64 : enable") != std::string::npos);
  CHECK(cl.find("__kernel void arrc_k0_map0_twice_ys(") != std::string::npos);
  CHECK(cl.find("__global double *arrc_0_xs") != std::string::npos);
  CHECK(cl.find("long arrc_0_xs_n0") != std::string::npos);
  CHECK(cl.find("long arrc_0_xs_w1") != std::string::npos);
  CHECK(cl.find("arrc_in_bounds(arrc_err, 0, arrc_1_i, arrc_0_xs_n0, 0)") != std::string::npos);
  CHECK(cl.find("arrc_div_int") != std::string::npos); // helpers present
}

TEST_CASE("header: namespace, signature, positions, program, fp64 check") {
  ir::Module m = twiceModule();
  std::string h = emitHeader(m);
  CHECK(h.find("namespace twice_mod {") != std::string::npos);
  CHECK(h.find("inline arrc::Array<double, 1> twice(arrc::Context &ctx, const arrc::Array<double, 1> &xs)") !=
        std::string::npos);
  CHECK(h.find("\"t.arr:1:40\"") != std::string::npos);
  CHECK(h.find("static arrc::ProgramSource source(") != std::string::npos);
  CHECK(h.find("supports_fp64") != std::string::npos);
  CHECK(h.find("#ifndef ARRC_GENERATED_HELPERS_V6") != std::string::npos);
  CHECK(h.find("detail::check(ctx);") != std::string::npos);
}

TEST_CASE("C++ identifiers and types") {
  // Exported names stay as written when safe (docs/codegen.md, "Names")...
  CHECK(cppIdentifier("xs") == "xs");
  CHECK(cppIdentifier("dgemm_") == "dgemm_");
  CHECK(cppIdentifier("DGEMM") == "DGEMM");
  CHECK(cppIdentifier("_x") == "_x");
  CHECK(cppIdentifier("main") == "main");
  CHECK(cppNamespace("dot") == "dot");
  // ... else arrc_u_<name>: keywords, macros of the standard headers, names
  // the header uses, reserved forms, arrc's own prefix.
  CHECK(cppIdentifier("class") == "arrc_u_class");
  CHECK(cppIdentifier("NULL") == "arrc_u_NULL");
  CHECK(cppIdentifier("errno") == "arrc_u_errno");
  CHECK(cppIdentifier("stdout") == "arrc_u_stdout");
  CHECK(cppIdentifier("assert") == "arrc_u_assert");
  CHECK(cppIdentifier("M_PI_2") == "arrc_u_M_PI_2");
  CHECK(cppIdentifier("linux") == "arrc_u_linux");
  CHECK(cppIdentifier("detail") == "arrc_u_detail");
  CHECK(cppIdentifier("int64_t") == "arrc_u_int64_t");
  CHECK(cppIdentifier("arrc_x") == "arrc_u_arrc_x");
  CHECK(cppIdentifier("a__b") == "arrc_u_0a_0_0b");
  CHECK(cppIdentifier("_Foo") == "arrc_u_0_0Foo");
  CHECK(cppIdentifier("__") == "arrc_u_0_0_0");
  // A namespace also avoids the headers' global names (::time) and std, arrc.
  CHECK(cppNamespace("time") == "arrc_u_time");
  CHECK(cppNamespace("std") == "arrc_u_std");
  CHECK(cppIdentifier("time") == "time");
  auto d = arrc::Type::scalarOf(ScalarKind::Double);
  auto i = arrc::Type::scalarOf(ScalarKind::Int);
  CHECK(cppTypeOf(arrc::Type::tuple({i, d})) == "std::tuple<int32_t, double>");
  CHECK(cppTypeOf(arrc::Type::array(arrc::Type::tuple({i, d}), 2)) ==
        "std::tuple<arrc::Array<int32_t, 2>, arrc::Array<double, 2>>");
}

TEST_CASE("integer arithmetic wraps, division by zero is defined") {
  ir::Module m;
  m.name = "ar";
  int a = m.newVar("a", scalarT(ScalarKind::Int));
  int b = m.newVar("b", scalarT(ScalarKind::Int));
  ir::Function f;
  f.name = "f";
  f.paramNames = {"a", "b"};
  f.paramTypes = {arrc::Type::scalarOf(ScalarKind::Int), arrc::Type::scalarOf(ScalarKind::Int)};
  f.paramVars = {{a}, {b}};
  f.resultType = arrc::Type::scalarOf(ScalarKind::Int);
  f.body.results.push_back(binaryExp(BinOp::Add, binaryExp(BinOp::Div, varExp(m, a), varExp(m, b)), varExp(m, a)));
  m.functions.push_back(f);
  std::string h = emitHeader(m);
  CHECK(h.find("arrc::gen::wadd<int32_t>(arrc::gen::div<int32_t>(arrc_0_a, arrc_1_b), arrc_0_a)") != std::string::npos);
  CHECK(emitOpenCL(m).find("#pragma OPENCL EXTENSION cl_khr_fp64") == std::string::npos);
}

// The distributed overload (docs/distributed.md): the map runs over this
// rank's rows, reading its input through a window, the result stays
// distributed; the kernels are a program apart; all under ARRC_MPI.
TEST_CASE("distributed overload: a map over the rank's rows") {
  ir::Module m = twiceModule();
  std::string h = emitHeader(m);
  size_t mpi = h.find("#if defined(ARRC_MPI)");
  REQUIRE(mpi != std::string::npos);
  CHECK(h.find("#include <arrc/cluster.h>", mpi) != std::string::npos);
  CHECK(h.find("inline arrc::DistArray<double, 1> twice(arrc::Cluster &cl, const arrc::DistArray<double, 1> &xs)",
               mpi) != std::string::npos);
  CHECK(h.find("return cl.run(", mpi) != std::string::npos);               // error agreement
  CHECK(h.find("arrc::dist::follow(arrc_0_xs, int64_t(1)", mpi) != std::string::npos); // the rows of xs
  CHECK(h.find("arrc::dist::window(arrc_0_xs, *arrc_part", mpi) != std::string::npos);
  CHECK(h.find("arrc::dist::with_rows(cl, ", mpi) != std::string::npos);
  CHECK(h.find("_dist_twice_", mpi) != std::string::npos);  // its own program
  CHECK(h.find("__kernel void arrc_k0_map0_dist_twice") > mpi);
  CHECK(h.find("using dist::twice;", mpi) != std::string::npos);
  // the kernel computes with global indices: i = lo + i'
  CHECK(h.find("_lo) + (ulong)(arrc_", mpi) != std::string::npos);
}

TEST_CASE("distributed overload: what the planner does not know runs on whole arrays") {
  // an array result of an `if` that is not a variable: the whole export falls back
  ir::Module m = twiceModule();
  ir::Function &f = m.functions[0];
  int c = m.newVar("c", scalarT(ScalarKind::Bool));
  int r = m.newVar("r", arrayT(ScalarKind::Double, 1));
  auto let = std::make_shared<Let>();
  let->outs = {c};
  let->value = constBool(true);
  auto iff = std::make_shared<ir::If>();
  iff->outs = {r};
  iff->cond = varExp(m, c);
  iff->thenB.results = {f.body.results[0]};
  iff->elseB.results = {readExp(varExp(m, f.paramVars[0][0]), {constLong(0)})}; // not a variable
  f.body.stmts.push_back(let);
  f.body.stmts.push_back(iff);
  std::string h = emitHeader(m);
  size_t mpi = h.find("#if defined(ARRC_MPI)");
  REQUIRE(mpi != std::string::npos);
  CHECK(h.find("every rank runs the single-device code on whole arrays", mpi) != std::string::npos);
  CHECK(h.find("::twice_mod::twice(ctx, xs.gather())", mpi) != std::string::npos);
  CHECK(h.find("arrc::DistArray<double, 1>::replicated(cl, r)", mpi) != std::string::npos);
}
