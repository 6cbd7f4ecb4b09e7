// What generated code asks of the primitives (codegen/src/Soac*.cpp):
// record element types, operators with run-time arguments, store hooks
// writing records to separate arrays, every histogram schedule, and the
// expand walks (write, reduce, compaction) over skewed size distributions.
// Each against a sequential reference.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numeric>
#include <random>

#include "common.h"

using namespace arrc;
using arrc_test::ctx;

namespace {

const std::vector<int64_t> kSizes = {0, 1, 2, 33, 1025, 100003};

std::vector<int32_t> ints(int64_t n, uint32_t seed, int lo, int hi) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = d(rng);
  return v;
}

// (int i, double d) records.
ElemType rec_id() { return ElemType::record({ElemType::of<int32_t>(), ElemType::of<double>()}, "t_rec_id"); }
struct RecId {
  int32_t i;
  int32_t pad;
  double d;
};

// A producer of records from two buffers: f0 = a[i], f1 = b[i].
Fused rec_loader(const Array<int32_t, 1>& a, const Array<double, 1>& b) {
  Fused in;
  in.source = "T arrc_load(long i ARRC_PARAMS) { T r; r.f0 = ra[i]; r.f1 = rb[i]; return r; }\n";
  in.args.push_back(KernelArg::buffer("__global const int*", "ra", a.buffer()));
  in.args.push_back(KernelArg::buffer("__global const double*", "rb", b.buffer()));
  return in;
}
// The store hook writing records to two arrays.
void add_store(Fused& in, const Array<int32_t, 1>& oa, const Array<double, 1>& ob) {
  in.source += "inline void arrc_store(long i, T v ARRC_PARAMS) { oa[i] = v.f0; ob[i] = v.f1; }\n";
  in.args.push_back(KernelArg::buffer("__global int*", "oa", oa.buffer()));
  in.args.push_back(KernelArg::buffer("__global double*", "ob", ob.buffer()));
}

// argmin over records (value f1, index f0), ties to the smaller index:
// associative, commutative only by accident of the tie rule -- declared not.
Operator argmin_op() {
  Operator o = Operator::custom("arrc_amin(a, b)", "arrc_amin_ne()", false,
                                "inline T arrc_amin(T a, T b) {\n"
                                "  if (a.f0 < 0) return b;\n  if (b.f0 < 0) return a;\n"
                                "  return (b.f1 < a.f1 || (b.f1 == a.f1 && b.f0 < a.f0)) ? b : a;\n}\n"
                                "inline T arrc_amin_ne(void) { T r; r.f0 = -1; r.f1 = 0.0; return r; }\n");
  return o;
}
// Componentwise (+, +) over records, with per-member operators.
Operator plus_plus() {
  Operator o = Operator::custom("arrc_pp(a, b)", "arrc_pp_ne()", true,
                                "inline T arrc_pp(T a, T b) { T r; r.f0 = a.f0 + b.f0; r.f1 = a.f1 + b.f1; return r; }\n"
                                "inline T arrc_pp_ne(void) { T r; r.f0 = 0; r.f1 = 0.0; return r; }\n");
  o.fields = {Operator::make("a + b", "0", Operator::Add), Operator::make("a + b", "0.0", Operator::Add)};
  return o;
}

// CHECK(got == want), saying where they first differ.
template <class T>
void check_same(const std::vector<T>& got, const std::vector<T>& want) {
  size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  if (i == got.size() && i == want.size()) {
    CHECK(true);
    return;
  }
  std::string g = i < got.size() ? std::to_string(got[i]) : "(end)";
  std::string w = i < want.size() ? std::to_string(want[i]) : "(end)";
  CAPTURE(i);
  CAPTURE(g);
  CAPTURE(w);
  CAPTURE(got.size());
  CAPTURE(want.size());
  CHECK(false);
}

RecId read_rec(Context& c, const BufferPtr& b) {
  RecId r{};
  c.read(b->mem(), 0, sizeof r, &r);
  return r;
}

}  // namespace

TEST_CASE("fused: record element types are laid out as the device lays them out") {
  CHECK(rec_id().size == 16);
  CHECK(rec_id().alignment() == 8);
  ElemType t = ElemType::record({ElemType::of<bool>(), ElemType::of<float>(), ElemType::of<bool>()}, "t_bfb");
  CHECK(t.size == 12);
  CHECK(ElemType::record({ElemType::of<float>(), ElemType::of<float>(), ElemType::of<float>()}, "t_fff").size == 12);
  // the device agrees: a kernel writes sizeof(T) and offsetof(f1)
  Context& c = ctx();
  for (const ElemType& et : {rec_id(), t}) {
    auto out = c.alloc(2 * sizeof(int64_t));
    Fused none;
    ProgramSource src(std::string(kernel_prelude()) + et.prelude + "\n__kernel void k(__global long* o) { " +
                      et.name + " r; o[0] = sizeof(r); o[1] = (long)((__private char*)&r.f1 - (__private char*)&r); }\n");
    c.launch(c.kernel(src, "k"), NDRange(1), NDRange(), out);
    int64_t got[2];
    c.read(out->mem(), 0, sizeof got, got);
    CHECK(got[0] == static_cast<int64_t>(et.size));
    CHECK(got[1] == (et.name == "t_rec_id" ? 8 : 4));
  }
}

TEST_CASE("fused: reduce of records (argmin, componentwise sums)") {
  Context& c = ctx();
  for (int64_t n : kSizes) {
    CAPTURE(n);
    auto iv = ints(n, 7, 0, 1000);
    std::vector<int32_t> idx(static_cast<size_t>(n));
    std::iota(idx.begin(), idx.end(), 0);
    std::vector<double> dv(iv.begin(), iv.end());
    auto A = Array<int32_t, 1>::from(c, idx);
    auto B = Array<double, 1>::from(c, dv);
    auto res = c.alloc(rec_id().size);
    reduce(c, rec_id(), argmin_op(), n, rec_loader(A, B), res->mem(), 0);
    RecId r = read_rec(c, res);
    int32_t want = n ? static_cast<int32_t>(std::min_element(dv.begin(), dv.end()) - dv.begin()) : -1;
    CHECK(r.i == want);
    reduce(c, rec_id(), plus_plus(), n, rec_loader(A, B), res->mem(), 0);
    r = read_rec(c, res);
    CHECK(r.i == static_cast<int32_t>(int64_t(n) * (n - 1) / 2));
    CHECK(r.d == std::accumulate(dv.begin(), dv.end(), 0.0));
  }
}

TEST_CASE("fused: operator arguments (a run-time modulus and neutral element)") {
  Context& c = ctx();
  for (int64_t n : kSizes) {
    CAPTURE(n);
    auto v = ints(n, 3, 0, 96);
    auto A = Array<int32_t, 1>::from(c, v);
    // (a + b) % m with m = 97 and the neutral element 0 both passed at run time
    Operator op = Operator::custom("(a + b) % arrc_m", "arrc_zero", true);
    op.args.push_back(KernelArg::scalar<int32_t>("int", "arrc_m", 97));
    op.args.push_back(KernelArg::scalar<int32_t>("int", "arrc_zero", 0));
    int32_t want = 0, got = -1;
    for (int32_t x : v) want = (want + x) % 97;
    auto res = c.alloc(sizeof(int32_t));
    reduce(c, ElemType::of<int32_t>(), op, n, detail::load_array(A), res->mem(), 0);
    c.read(res->mem(), 0, sizeof got, &got);
    CHECK(got == want);
    // the same operator in a scan and a segmented reduce
    auto S = Array<int32_t, 1>::alloc(c, {n});
    scan(c, ElemType::of<int32_t>(), op, n, detail::load_array(A), S.buffer(), 0, true);
    std::vector<int32_t> ref(v.size());
    int32_t run = 0;
    for (size_t i = 0; i < v.size(); ++i) ref[i] = run = (run + v[i]) % 97;
    check_same(S.to_vector(), ref);
    Fused fl = detail::load_array(A);
    fl.source += "int arrc_flag(long i ARRC_PARAMS) { return i % 5 == 0; }\n";
    auto R = Array<int32_t, 1>::alloc(c, {n});
    int64_t segs = segmented_reduce(c, ElemType::of<int32_t>(), op, n, fl, R.buffer(), 0);
    std::vector<int32_t> segref;
    for (size_t i = 0; i < v.size(); ++i) {
      if (i % 5 == 0) segref.push_back(0);
      segref.back() = (segref.back() + v[i]) % 97;
    }
    REQUIRE(segs == static_cast<int64_t>(segref.size()));
    auto rv = R.to_vector();
    rv.resize(segref.size());
    check_same(rv, segref);
  }
}

TEST_CASE("fused: store hooks write records to separate arrays (scan, compaction, segmented reduce, scatter)") {
  Context& c = ctx();
  for (int64_t n : kSizes) {
    CAPTURE(n);
    auto iv = ints(n, 11, -5, 5);
    std::vector<double> dv(iv.begin(), iv.end());
    for (auto& d : dv) d *= 0.5;
    auto A = Array<int32_t, 1>::from(c, iv);
    auto B = Array<double, 1>::from(c, dv);
    auto OA = Array<int32_t, 1>::alloc(c, {n});
    auto OB = Array<double, 1>::alloc(c, {n});
    // inclusive scan of (+, +)
    Fused in = rec_loader(A, B);
    add_store(in, OA, OB);
    scan(c, rec_id(), plus_plus(), n, in, nullptr, 0, true);
    std::vector<int32_t> ra(iv.size());
    std::vector<double> rb(dv.size());
    std::partial_sum(iv.begin(), iv.end(), ra.begin());
    std::partial_sum(dv.begin(), dv.end(), rb.begin());
    check_same(OA.to_vector(), ra);
    check_same(OB.to_vector(), rb);
    // compaction keeping f0 > 0, in order
    Fused kin = rec_loader(A, B);
    kin.source += "int arrc_keep(long i, T v ARRC_PARAMS) { return v.f0 > 0; }\n";
    add_store(kin, OA, OB);
    int64_t kept = compact(c, rec_id(), n, kin, nullptr, 0);
    std::vector<int32_t> ka;
    std::vector<double> kb;
    for (size_t i = 0; i < iv.size(); ++i)
      if (iv[i] > 0) ka.push_back(iv[i]), kb.push_back(dv[i]);
    REQUIRE(kept == static_cast<int64_t>(ka.size()));
    auto ga = OA.to_vector();
    auto gb = OB.to_vector();
    ga.resize(ka.size());
    gb.resize(kb.size());
    check_same(ga, ka);
    check_same(gb, kb);
    // segmented reduce of (+, +), a segment starting where f0 < 0
    Fused sin = rec_loader(A, B);
    sin.source += "int arrc_flag(long i ARRC_PARAMS) { return ra[i] < 0; }\n";
    add_store(sin, OA, OB);
    int64_t segs = segmented_reduce(c, rec_id(), plus_plus(), n, sin, nullptr, 0);
    std::vector<int32_t> sa;
    std::vector<double> sb;
    for (size_t i = 0; i < iv.size(); ++i) {
      if (i == 0 || iv[i] < 0) sa.push_back(0), sb.push_back(0);
      sa.back() += iv[i];
      sb.back() += dv[i];
    }
    REQUIRE(segs == static_cast<int64_t>(sa.size()));
    ga = OA.to_vector();
    gb = OB.to_vector();
    ga.resize(sa.size());
    gb.resize(sb.size());
    check_same(ga, sa);
    check_same(gb, sb);
    // segmented inclusive scan of (+, +), same segments
    Fused qin = rec_loader(A, B);
    qin.source += "int arrc_flag(long i ARRC_PARAMS) { return ra[i] < 0; }\n";
    add_store(qin, OA, OB);
    segmented_scan(c, rec_id(), plus_plus(), n, qin, nullptr, 0, true);
    std::vector<int32_t> qa(iv.size());
    std::vector<double> qb(dv.size());
    for (size_t i = 0; i < iv.size(); ++i) {
      bool start = i == 0 || iv[i] < 0;
      qa[i] = (start ? 0 : qa[i - 1]) + iv[i];
      qb[i] = (start ? 0.0 : qb[i - 1]) + dv[i];
    }
    check_same(OA.to_vector(), qa);
    check_same(OB.to_vector(), qb);
    // scatter of records to index n-1-i (all in range) and to -1 (ignored)
    Fused xin = rec_loader(A, B);
    xin.source += "long arrc_index(long i ARRC_PARAMS) { return i % 7 == 3 ? -1 : arrc_sn - 1 - i; }\n";
    xin.args.push_back(KernelArg::scalar<int64_t>("long", "arrc_sn", n));
    auto DA = Array<int32_t, 1>::zeros(c, {n});
    auto DB = Array<double, 1>::zeros(c, {n});
    add_store(xin, DA, DB);
    scatter(c, rec_id(), n, xin, nullptr, 0, n);
    std::vector<int32_t> xa(iv.size(), 0);
    std::vector<double> xb(dv.size(), 0.0);
    for (size_t i = 0; i < iv.size(); ++i)
      if (i % 7 != 3) xa[iv.size() - 1 - i] = iv[i], xb[iv.size() - 1 - i] = dv[i];
    check_same(DA.to_vector(), xa);
    check_same(DB.to_vector(), xb);
  }
}

namespace {

// Histogram of (count, sum) records per bin over bins b(i) = key[i] % nbins
// (negative keys are out of range), through the store hook, against the
// sequential fold.
void check_record_hist(int64_t n, int64_t nbins, const Operator& op, bool last_wins) {
  Context& c = ctx();
  auto keys = ints(n, 5, -3, 1 << 20);
  auto vals = ints(n, 6, -100, 100);
  std::vector<double> dv(vals.begin(), vals.end());
  auto K = Array<int32_t, 1>::from(c, keys);
  auto A = Array<int32_t, 1>::from(c, vals);
  auto B = Array<double, 1>::from(c, dv);
  Fused in = rec_loader(A, B);
  in.source += "long arrc_bin(long i ARRC_PARAMS) { return hk[i] < 0 ? -1 : (long)hk[i] % hbins; }\n";
  in.args.push_back(KernelArg::buffer("__global const int*", "hk", K.buffer()));
  in.args.push_back(KernelArg::scalar<int64_t>("long", "hbins", nbins));
  auto OA = Array<int32_t, 1>::alloc(c, {nbins});
  auto OB = Array<double, 1>::alloc(c, {nbins});
  add_store(in, OA, OB);
  histogram(c, rec_id(), op, nbins, n, in, nullptr, 0);
  std::vector<int32_t> ra(static_cast<size_t>(nbins), 0);
  std::vector<double> rb(static_cast<size_t>(nbins), 0.0);
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] < 0) continue;
    size_t b = static_cast<size_t>(keys[i] % nbins);
    if (last_wins) {
      if (vals[i] != 0) ra[b] = vals[i], rb[b] = dv[i];
    } else {
      ra[b] += vals[i];
      rb[b] += dv[i];
    }
  }
  check_same(OA.to_vector(), ra);
  check_same(OB.to_vector(), rb);
}

}  // namespace

TEST_CASE("fused: histograms of every schedule (private, shared, global, sorted)") {
  Context& c = ctx();
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(1000), int64_t(300007)}) {
    CAPTURE(n);
    // int +, 10 bins (private per work-item on GPUs)
    auto keys = ints(n, 1, 0, 9);
    auto K = Array<int32_t, 1>::from(c, keys);
    auto H = histogram(c, Operator::add(), 10, K, K);
    std::vector<int32_t> ref(10, 0);
    for (int32_t k : keys) ref[static_cast<size_t>(k)] += k;
    check_same(H.to_vector(), ref);
    // double +, 200 bins (shared copies, compare-and-swap on doubles)
    auto k200 = ints(n, 2, -5, 204);
    std::vector<double> dv(k200.begin(), k200.end());
    auto K200 = Array<int32_t, 1>::from(c, k200);
    auto D = Array<double, 1>::from(c, dv);
    auto HD = histogram(c, Operator::add(), 200, K200, D);
    std::vector<double> rd(200, 0.0);
    for (int32_t k : k200)
      if (k >= 0 && k < 200) rd[static_cast<size_t>(k)] += k;
    check_same(HD.to_vector(), rd);
    // int max, 100000 bins (global atomics)
    auto kb = ints(n, 4, 0, 99999);
    auto KB = Array<int32_t, 1>::from(c, kb);
    auto HM = histogram(c, Operator::max(ElemType::of<int32_t>()), 100000, KB, K);
    std::vector<int32_t> rm(100000, std::numeric_limits<int32_t>::min());
    for (size_t i = 0; i < kb.size(); ++i) rm[static_cast<size_t>(kb[i])] = std::max(rm[static_cast<size_t>(kb[i])], keys[i]);
    check_same(HM.to_vector(), rm);
    // records: (+, +) per member with few and many bins; "last non-zero"
    // (not commutative: the exact sorted path on GPUs)
    check_record_hist(n, 7, plus_plus(), false);
    check_record_hist(n, 3000, plus_plus(), false);
    check_record_hist(n, 50000, plus_plus(), false);
    Operator last = Operator::custom("b.f0 != 0 ? b : a", "arrc_ln_ne()", false,
                                     "inline T arrc_ln_ne(void) { T r; r.f0 = 0; r.f1 = 0.0; return r; }\n");
    check_record_hist(n, 5, last, true);
    check_record_hist(n, 20000, last, true);
  }
}

namespace {

// Sizes: uniform small, one huge source among empty ones, many empty,
// power law; the expansion of source i is (i, k) for k < size(i).
std::vector<int64_t> sizes_of(const std::string& kind, int64_t n) {
  std::vector<int64_t> s(static_cast<size_t>(n), 0);
  std::mt19937 rng(9);
  for (int64_t i = 0; i < n; ++i) {
    if (kind == "uniform") s[i] = rng() % 5;
    if (kind == "one") s[i] = i == n / 2 ? 200000 : 0;
    if (kind == "sparse") s[i] = rng() % 50 == 0 ? 1 + rng() % 40 : (rng() % 3 == 0 ? -2 : 0);
    if (kind == "power") s[i] = static_cast<int64_t>(std::pow(1.0 / (1e-3 + (rng() % 10000) / 10000.0), 1.2)) % 5000;
  }
  return s;
}

}  // namespace

// Histograms in rows (row_width; GPU schedule arrc_hist_rows): element i is
// column i % R of row i / R. Bins key[row] * R + column take the lanes'
// plain updates; other bins (key[row] * R + column + shift) the shared
// copy's atomic ones; some out of range. With row hooks too, exact or not.
TEST_CASE("fused: histograms in rows (k-means' sums; any bins)") {
  Context& c = ctx();
  for (int64_t R : {int64_t(2), int64_t(7), int64_t(20), int64_t(128)}) {
    for (int64_t rows : {int64_t(0), int64_t(1), int64_t(300), int64_t(20011)}) {
      for (int64_t trim : {int64_t(0), int64_t(1)}) {
        const int64_t n = std::max<int64_t>(0, rows * R - (R > 2 ? trim * 3 : trim));
        const int64_t k = 9;
        // hooks: none; row hooks, exact; row hooks, not exact
        for (auto [shift, hooks] : std::vector<std::pair<int, int>>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {-4, 1}}) {
          CAPTURE(R);
          CAPTURE(n);
          CAPTURE(shift);
          CAPTURE(hooks);
          auto keys = ints(rows, 11, -1, int(k));  // -1: out of range
          auto vals = ints(n, 12, -40, 40);
          std::vector<double> dv(vals.begin(), vals.end());
          auto K = Array<int32_t, 1>::from(c, keys);
          auto V = Array<double, 1>::from(c, dv);
          auto VI = Array<int32_t, 1>::from(c, vals);
          std::string bin = "(long)keys[r] * R + col + shift";
          std::string src =
              "long arrc_bin(long i ARRC_PARAMS) { long r = i / R, col = i % R; return " + bin + "; }\n"
              "T arrc_load(long i ARRC_PARAMS) { return vals[i]; }\n";
          if (hooks) {
            src += "#define ARRC_ROW_HOOKS 1\n"
                   "int arrc_rows_exact(long rw ARRC_PARAMS) { return rw == R && exact; }\n"
                   "long arrc_bin_rc(long r, long col ARRC_PARAMS) { return " + bin + "; }\n"
                   "T arrc_load_rc(long r, long col ARRC_PARAMS) { return vals[r * R + col]; }\n";
          }
          auto run = [&](const ElemType& t, cl_mem vbuf, cl_mem out, const std::string& type) {
            Fused in;
            in.source = src;
            in.args.push_back(KernelArg::buffer("__global const int*", "keys", K.buffer()));
            in.args.push_back(KernelArg::buffer("__global const " + type + "*", "vals", vbuf));
            in.args.push_back(KernelArg::scalar<int64_t>("long", "R", R));
            in.args.push_back(KernelArg::scalar<int64_t>("long", "shift", shift));
            in.args.push_back(KernelArg::scalar<int32_t>("int", "exact", hooks == 1));
            histogram(c, t, Operator::add(), k * R, n, in, out, 0, R);
          };
          auto HD = Array<double, 1>::alloc(c, {k * R});
          auto HI = Array<int32_t, 1>::alloc(c, {k * R});
          run(ElemType::of<double>(), V.buffer(), HD.buffer(), "double");
          run(ElemType::of<int32_t>(), VI.buffer(), HI.buffer(), "int");
          std::vector<double> rd(size_t(k * R), 0.0);
          std::vector<int32_t> ri(size_t(k * R), 0);
          for (int64_t i = 0; i < n; ++i) {
            int64_t b = int64_t(keys[size_t(i / R)]) * R + i % R + shift;
            if (b < 0 || b >= k * R) continue;
            rd[size_t(b)] += dv[size_t(i)];
            ri[size_t(b)] += vals[size_t(i)];
          }
          check_same(HD.to_vector(), rd);
          check_same(HI.to_vector(), ri);
        }
      }
    }
  }
}

TEST_CASE("fused: histograms of items (several types and operators, one pass)") {
  Context& c = ctx();
  const int64_t d = 7, k = 12;
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(1000), int64_t(300007)}) {
    CAPTURE(n);
    // keys in [-2, k + 1]: some out of range; values small integers (exact sums)
    auto keys = ints(n, 5, -2, int(k) + 1);
    auto vals = ints(n * d, 6, -50, 50);
    std::vector<double> dv(vals.begin(), vals.end());
    auto K = Array<int32_t, 1>::from(c, keys);
    auto V = Array<double, 1>::from(c, dv);
    const int64_t wide = 100000;  // too many bins for local memory: updated in global memory
    auto H0 = Array<int32_t, 1>::alloc(c, {k});
    auto H1 = Array<double, 1>::alloc(c, {k * d});
    auto H2 = Array<int64_t, 1>::alloc(c, {k});
    auto H3 = Array<float, 1>::alloc(c, {k});
    auto H4 = Array<int32_t, 1>::alloc(c, {wide});
    std::vector<HistogramOut> hs = {
        {ElemType::of<int32_t>(), Operator::add(), k, H0.buffer(), 0},
        {ElemType::of<double>(), Operator::add(), k * d, H1.buffer(), 0},
        {ElemType::of<int64_t>(), Operator::max(ElemType::of<int64_t>()), k, H2.buffer(), 0},
        {ElemType::of<float>(), Operator::min(ElemType::of<float>()), k, H3.buffer(), 0},
        {ElemType::of<int32_t>(), Operator::add(), wide, H4.buffer(), 0}};
    Fused in;
    in.source =
        "void arrc_item(long i ARRC_ITEM_STAGE ARRC_HISTS ARRC_PARAMS) {\n"
        "  int key = keys[i];\n"
        "  ARRC_HIST_ADD(0, key, 1);\n"
        "  for (long j = 0; j < dim; ++j) ARRC_HIST_ADD(1, (long)key * dim + j, vals[i * dim + j]);\n"
        "  ARRC_HIST_ADD(2, key, i);\n"
        "  ARRC_HIST_ADD(3, key, (float)vals[i * dim] / 4.0f);\n"
        "  ARRC_HIST_ADD(4, (i * 7919) % 100000, 1);\n"
        "}\n";
    in.args.push_back(KernelArg::buffer("__global const int*", "keys", K.buffer()));
    in.args.push_back(KernelArg::buffer("__global const double*", "vals", V.buffer()));
    in.args.push_back(KernelArg::scalar<int64_t>("long", "dim", d));
    histogram_items(c, hs, n, in);
    std::vector<int32_t> r0(k, 0), r4(wide, 0);
    std::vector<double> r1(k * d, 0.0);
    std::vector<int64_t> r2(k, INT64_MIN);
    std::vector<float> r3(k, INFINITY);
    for (int64_t i = 0; i < n; ++i) {
      int32_t key = keys[size_t(i)];
      r4[size_t((i * 7919) % 100000)] += 1;
      if (key < 0 || key >= k) continue;
      r0[size_t(key)] += 1;
      for (int64_t j = 0; j < d; ++j) r1[size_t(key * d + j)] += dv[size_t(i * d + j)];
      r2[size_t(key)] = std::max<int64_t>(r2[size_t(key)], i);
      r3[size_t(key)] = std::min(r3[size_t(key)], float(dv[size_t(i * d)]) / 4.0f);
    }
    check_same(H0.to_vector(), r0);
    check_same(H1.to_vector(), r1);
    check_same(H2.to_vector(), r2);
    check_same(H3.to_vector(), r3);
    check_same(H4.to_vector(), r4);
  }
  // staged rows (GPU schedules): the items read rows of a matrix that
  // arrc_stage copied to local memory; sums of rows by i % 5
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(129), int64_t(50001)}) {
    CAPTURE(n);
    const int64_t dim = 5;
    auto m = ints(n * dim, 7, -9, 9);
    std::vector<double> md(m.begin(), m.end());
    auto M = Array<double, 1>::from(c, md);
    auto S = Array<double, 1>::alloc(c, {5});
    Fused in;
    in.source =
        "void arrc_stage(long first, long count, long cap, __local uchar* stg ARRC_PARAMS) {\n"
        "  __local double* s = (__local double*)stg;\n"
        "  for (long t = get_local_id(0); t < count * dim; t += get_local_size(0)) s[t] = mat[first * dim + t];\n"
        "}\n"
        "void arrc_item(long i ARRC_ITEM_STAGE ARRC_HISTS ARRC_PARAMS) {\n"
        "  double acc = 0;\n"
        "#ifdef ARRC_ITEM_STAGING\n"
        "  __local double* s = (__local double*)arrc_stg;\n"
        "  for (long j = 0; j < dim; ++j) acc += s[(i - arrc_stg_first) * dim + j];\n"
        "#else\n"
        "  for (long j = 0; j < dim; ++j) acc += mat[i * dim + j];\n"
        "#endif\n"
        "  ARRC_HIST_ADD(0, i % 5, acc);\n"
        "}\n";
    in.args.push_back(KernelArg::buffer("__global const double*", "mat", M.buffer()));
    in.args.push_back(KernelArg::scalar<int64_t>("long", "dim", dim));
    histogram_items(c, {{ElemType::of<double>(), Operator::add(), 5, S.buffer(), 0}}, n, in, dim * sizeof(double));
    std::vector<double> r(5, 0.0);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < dim; ++j) r[size_t(i % 5)] += md[size_t(i * dim + j)];
    check_same(S.to_vector(), r);
  }
  // a float histogram with an operator the runtime cannot reorder is refused
  auto H = Array<float, 1>::alloc(c, {4});
  Fused none;
  none.source = "void arrc_item(long i ARRC_ITEM_STAGE ARRC_HISTS ARRC_PARAMS) {}\n";
  CHECK_THROWS_AS(histogram_items(c, {{ElemType::of<float>(), Operator::custom("a - b", "0", false), 4, H.buffer(), 0}},
                                  10, none),
                  Error);
}

TEST_CASE("fused: expand walks (write, reduce, compaction) over skewed sizes") {
  Context& c = ctx();
  // uint ends from the first source on (by default from 2^20 sources)
  setenv("ARRC_EXPAND_NARROW_MIN", "0", 1);
  for (const std::string kind : {"uniform", "one", "sparse", "power"}) {
    for (int64_t n : {int64_t(1), int64_t(7), int64_t(4001)}) {
      CAPTURE(kind);
      CAPTURE(n);
      auto sz = sizes_of(kind, n);
      auto S = Array<int64_t, 1>::from(c, sz);
      Fused in;
      in.source = "long arrc_size(long i ARRC_PARAMS) { return es[i]; }\n"
                  "T arrc_get(long i, long k ARRC_PARAMS) { T r; r.f0 = (int)(i * 3 + k); r.f1 = 0.5 * k; return r; }\n";
      in.args.push_back(KernelArg::buffer("__global const long*", "es", S.buffer()));
      std::vector<int32_t> ra;
      std::vector<double> rb;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < sz[i]; ++k) ra.push_back(static_cast<int32_t>(i * 3 + k)), rb.push_back(0.5 * k);
      int64_t total = static_cast<int64_t>(ra.size());
      // write through the store hook
      ExpandOffsets e = expand_offsets(c, rec_id(), n, in, true);
      REQUIRE(e.total == total);
      CHECK(e.end_bytes == 4);  // the total read back is below 2^32: uint ends
      auto OA = Array<int32_t, 1>::alloc(c, {total});
      auto OB = Array<double, 1>::alloc(c, {total});
      Fused w = in;
      add_store(w, OA, OB);
      expand_write(c, rec_id(), e, w, nullptr, 0);
      check_same(OA.to_vector(), ra);
      check_same(OB.to_vector(), rb);
      // reduce without reading the total back (long ends), and over the
      // uint ends: (+, +) and argmin (ordered)
      for (ExpandOffsets e2 : {expand_offsets(c, rec_id(), n, in, false), e}) {
      CAPTURE(e2.end_bytes);
      auto res = c.alloc(rec_id().size);
      expand_reduce(c, rec_id(), plus_plus(), e2, in, res->mem(), 0);
      RecId r = read_rec(c, res);
      int64_t sa = 0;
      for (int32_t x : ra) sa += x;
      CHECK(r.i == static_cast<int32_t>(sa));
      CHECK(r.d == std::accumulate(rb.begin(), rb.end(), 0.0));
      // the last element by a non-commutative "take the right one" operator
      Operator right = Operator::custom("b.f0 >= 0 ? b : a", "arrc_r_ne()", false,
                                        "inline T arrc_r_ne(void) { T r; r.f0 = -1; r.f1 = 0.0; return r; }\n");
      expand_reduce(c, rec_id(), right, e2, in, res->mem(), 0);
      r = read_rec(c, res);
      CHECK(r.i == (ra.empty() ? -1 : ra.back()));
      // compaction: keep elements with f0 % 3 == 1, in order
      Fused k = in;
      k.source += "int arrc_keep(long j, T v ARRC_PARAMS) { return v.f0 % 3 == 1; }\n";
      ExpandCompaction cp = expand_compact_count(c, rec_id(), e2, k);
      std::vector<int32_t> ka;
      std::vector<double> kb;
      for (size_t j = 0; j < ra.size(); ++j)
        if (ra[j] % 3 == 1) ka.push_back(ra[j]), kb.push_back(rb[j]);
      REQUIRE(cp.count == static_cast<int64_t>(ka.size()));
      auto KA = Array<int32_t, 1>::alloc(c, {cp.count});
      auto KB = Array<double, 1>::alloc(c, {cp.count});
      Fused ks = k;
      add_store(ks, KA, KB);
      expand_compact_write(c, rec_id(), e2, cp, ks, nullptr, 0);
      check_same(KA.to_vector(), ka);
      check_same(KB.to_vector(), kb);
      }
    }
  }
  // a total of 2^32 or more: the ends scanned again as longs
  auto S = Array<int64_t, 1>::from(c, std::vector<int64_t>{int64_t(1) << 31, 3, int64_t(1) << 31});
  Fused in;
  in.source = "long arrc_size(long i ARRC_PARAMS) { return es[i]; }\n"
              "T arrc_get(long i, long k ARRC_PARAMS) { T r; r.f0 = 0; r.f1 = 0.0; return r; }\n";
  in.args.push_back(KernelArg::buffer("__global const long*", "es", S.buffer()));
  ExpandOffsets e = expand_offsets(c, rec_id(), 3, in, true);
  CHECK(e.total == (int64_t(1) << 32) + 3);
  CHECK(e.end_bytes == 8);
  std::vector<int64_t> ends(3);
  c.read(e.ends->mem(), 0, 3 * sizeof(int64_t), ends.data());
  CHECK(ends == std::vector<int64_t>{int64_t(1) << 31, (int64_t(1) << 31) + 3, (int64_t(1) << 32) + 3});
  // one size of 2^32 or more (no sum wraps modulo 2^32 before it)
  auto S2 = Array<int64_t, 1>::from(c, std::vector<int64_t>{5, (int64_t(1) << 32) + 1});
  in.args.back() = KernelArg::buffer("__global const long*", "es", S2.buffer());
  ExpandOffsets e2 = expand_offsets(c, rec_id(), 2, in, true);
  CHECK(e2.total == (int64_t(1) << 32) + 6);
  CHECK(e2.end_bytes == 8);
  // the default: long ends below 2^20 sources
  unsetenv("ARRC_EXPAND_NARROW_MIN");
  auto S3 = Array<int64_t, 1>::from(c, std::vector<int64_t>{1, 2, 3});
  in.args.back() = KernelArg::buffer("__global const long*", "es", S3.buffer());
  ExpandOffsets e3 = expand_offsets(c, rec_id(), 3, in, true);
  CHECK(e3.total == 6);
  CHECK(e3.end_bytes == 8);
}
