// Arrays and views: sections, transpose, reverse read and write through the
// weight vector; host transfers are row-major.
#include <doctest/doctest.h>

#include "common.h"

using namespace arrc;
using arrc_test::ctx;

namespace {
// host reference: element (i, j) of a 4x5 matrix
int64_t val(int64_t i, int64_t j) { return 100 * i + j; }
std::vector<int64_t> matrix(int64_t m, int64_t n) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) v.push_back(val(i, j));
  return v;
}
}  // namespace

TEST_CASE("array: from / to_vector / copy_to / shape / weights") {
  Context& c = ctx();
  auto A = Array<int64_t, 2>::from(c, matrix(4, 5), {4, 5});
  CHECK(A.shape(0) == 4);
  CHECK(A.shape(1) == 5);
  CHECK(A.size() == 20);
  CHECK(A.weight(0) == 5);
  CHECK(A.weight(1) == 1);
  CHECK(A.offset() == 0);
  CHECK(A.is_contiguous());
  CHECK(A.to_vector() == matrix(4, 5));
  std::vector<int64_t> h(20);
  A.copy_to(h.data());
  CHECK(h == matrix(4, 5));
  auto Z = Array<float, 3>::zeros(c, {2, 3, 4});
  CHECK(Z.to_vector() == std::vector<float>(24, 0.0f));
  auto E = Array<double, 2>::zeros(c, {0, 7});
  CHECK(E.size() == 0);
  CHECK(E.to_vector().empty());
  CHECK_THROWS_AS((Array<int32_t, 1>::from(c, std::vector<int32_t>{1, 2}, {3})), Error);
  auto B = Array<bool, 1>::from(c, std::vector<bool>{true, false, true});
  CHECK(B.to_vector() == std::vector<bool>{true, false, true});
}

// The test executable is built as C++20 (test/unit/runtime/CMakeLists.txt);
// user code in C++17 has the pointer and std::vector forms.
TEST_CASE("array: from a std::span") {
  Context& c = ctx();
  std::vector<int64_t> m = matrix(4, 5);
  std::span<const int64_t> sp(m);
  CHECK(Array<int64_t, 2>::from(c, sp, {4, 5}).to_vector() == m);
  CHECK(Array<int64_t, 1>::from(c, sp.subspan(5, 5)).to_vector() ==
        std::vector<int64_t>(m.begin() + 5, m.begin() + 10));
  CHECK_THROWS_AS((Array<int64_t, 2>::from(c, sp, {3, 5})), Error);
  bool flags[3] = {true, false, true};
  CHECK(Array<bool, 1>::from(c, std::span<const bool>(flags)).to_vector() ==
        std::vector<bool>{true, false, true});
}

TEST_CASE("array: sections, transpose and reverse read through the weights") {
  Context& c = ctx();
  auto A = Array<int64_t, 2>::from(c, matrix(4, 5), {4, 5});
  // row 2
  auto r2 = A.section<1>({Sel(2), Sel::all()});
  CHECK(r2.to_vector() == std::vector<int64_t>{200, 201, 202, 203, 204});
  CHECK(r2.buffer() == A.buffer());
  // column 3
  auto c3 = A.section<1>({Sel::all(), Sel(3)});
  CHECK(c3.to_vector() == std::vector<int64_t>{3, 103, 203, 303});
  CHECK(!c3.is_contiguous());
  // A[1:3, 4:0:-2] (last inclusive, negative step)
  auto S = A.section<2>({Sel::range(1, 3), Sel::range(4, 0, -2)});
  CHECK(S.shape(0) == 3);
  CHECK(S.shape(1) == 3);
  CHECK(S.to_vector() == std::vector<int64_t>{104, 102, 100, 204, 202, 200, 304, 302, 300});
  // empty triplet
  auto Em = A.section<2>({Sel::range(3, 1), Sel::all()});
  CHECK(Em.size() == 0);
  // transpose
  auto T = A.transpose();
  CHECK(T.shape(0) == 5);
  std::vector<int64_t> tref;
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 4; ++i) tref.push_back(val(i, j));
  CHECK(T.to_vector() == tref);
  // reverse axis 1, then section of the reversed view
  auto R = A.reverse(1);
  CHECK(R.section<1>({Sel(0), Sel::all()}).to_vector() == std::vector<int64_t>{4, 3, 2, 1, 0});
  auto RT = A.reverse(0).transpose();
  CHECK(RT.section<1>({Sel(1), Sel::all()}).to_vector() == std::vector<int64_t>{301, 201, 101, 1});
  // index() / slice()
  CHECK(A.index(1, 0).to_vector() == std::vector<int64_t>{0, 100, 200, 300});
  CHECK(A.slice(0, 3, 0, -3).section<1>({Sel::all(), Sel(1)}).to_vector() ==
        std::vector<int64_t>{301, 1});
  // contiguous copy of a view
  auto Sc = S.contiguous();
  CHECK(Sc.is_contiguous());
  CHECK(Sc.buffer() != A.buffer());
  CHECK(Sc.to_vector() == S.to_vector());
  // 3-D permute
  std::vector<int32_t> v3(24);
  for (int i = 0; i < 24; ++i) v3[i] = i;
  auto C3 = Array<int32_t, 3>::from(c, v3, {2, 3, 4});
  auto P = C3.permute({2, 0, 1});  // P[k][i][j] = C3[i][j][k]
  auto pv = P.to_vector();
  int idx = 0;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) CHECK(pv[idx++] == i * 12 + j * 4 + k);
}

TEST_CASE("array: out-of-range sections raise arrc::Error naming the position") {
  Context& c = ctx();
  auto A = Array<int64_t, 2>::from(c, matrix(4, 5), {4, 5});
  CHECK_THROWS_WITH_AS((A.section<1>({Sel(7), Sel::all()}, "m.arr:2:5")),
                       "m.arr:2:5: index 7 out of bounds for axis 0 of size 4", Error);
  CHECK_THROWS_WITH_AS((A.section<2>({Sel::all(), Sel::range(1, 5)}, "m.arr:3:1")),
                       "m.arr:3:1: section bound 5 out of range for axis 1 of size 5", Error);
  CHECK_THROWS_AS((A.section<2>({Sel(1), Sel::all()})), Error);  // wrong result rank
}

TEST_CASE("array: writes through views (copy_from, assign) land at the right elements") {
  Context& c = ctx();
  auto A = Array<int64_t, 2>::zeros(c, {4, 5});
  // write column 1
  std::vector<int64_t> col{1, 2, 3, 4};
  A.section<1>({Sel::all(), Sel(1)}).copy_from(col.data());
  // write the reversed row 3 (row 3 = 50..54 stored reversed)
  std::vector<int64_t> row{54, 53, 52, 51, 50};
  A.index(0, 3).reverse(0).copy_from(row.data());
  // assign the transpose of a 2x2 block into A[0:1, 2:3]
  auto B = Array<int64_t, 2>::from(c, std::vector<int64_t>{7, 8, 9, 10}, {2, 2});
  auto dst = A.section<2>({Sel::range(0, 1), Sel::range(2, 3)});
  dst.assign(B.transpose());
  std::vector<int64_t> ref = {0, 1, 7, 9, 0,  //
                              0, 2, 8, 10, 0, //
                              0, 3, 0, 0, 0,  //
                              50, 51, 52, 53, 54};
  CHECK(A.to_vector() == ref);
  CHECK_THROWS_AS((dst.assign(Array<int64_t, 2>::zeros(c, {3, 2}))), Error);
  // reshape keeps the buffer
  auto F = A.reshape<1>({20});
  CHECK(F.buffer() == A.buffer());
  CHECK(F.to_vector() == ref);
}
