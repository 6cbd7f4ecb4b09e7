// The radix sort (sort_pairs) against std::stable_sort on the keys'
// order-preserving bits: every key type, sizes around the tiles and chunks
// of both schedules (GPU tiles of 256 work-items x 16, 12 or 8 keys; CPU
// chunks of at least 4096 keys), floats with NaNs, infinities and signed
// zeros, all-equal and presorted keys (passes skipped), stability with
// values of 1 to 16 bytes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>

#include "common.h"

using namespace arrc;
using arrc_test::ctx;

namespace {

const std::vector<int64_t> kSizes = {0,    1,    2,    3,    33,   255,  256,   257,   2047,
                                     2048, 2049, 3071, 3072, 3073, 4095, 4096,  4097,  8191,
                                     8193, 12287, 12289, 40961, 100003};

// Order-preserving unsigned bits of a key (as the runtime documents:
// signed integers by their sign bit, floats in IEEE total order).
template <class K>
uint64_t order_bits(K k) {
  if constexpr (std::is_same_v<K, float>) {
    uint32_t u;
    std::memcpy(&u, &k, 4);
    return (u >> 31) ? ~u : (u | 0x80000000u);
  } else if constexpr (std::is_same_v<K, double>) {
    uint64_t u;
    std::memcpy(&u, &k, 8);
    return (u >> 63) ? ~u : (u | 0x8000000000000000ull);
  } else if constexpr (std::is_signed_v<K>) {
    using U = std::make_unsigned_t<K>;
    return static_cast<uint64_t>(static_cast<U>(k) ^ (U{1} << (sizeof(K) * 8 - 1)));
  } else {
    return static_cast<uint64_t>(k);
  }
}

template <class K>
ElemType key_type() {
  if constexpr (std::is_same_v<K, int8_t>) return ElemType::scalar("char", 1);
  else if constexpr (std::is_same_v<K, int16_t>) return ElemType::scalar("short", 2);
  else if constexpr (std::is_same_v<K, uint16_t>) return ElemType::scalar("ushort", 2);
  else return ElemType::of<K>();
}

template <class K>
std::vector<K> random_keys(int64_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<K> v(static_cast<size_t>(n));
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<K>) {
      std::uniform_real_distribution<double> d(-1e6, 1e6);
      x = static_cast<K>(d(rng));
    } else {
      uint64_t r = rng();
      std::memcpy(&x, &r, sizeof(K));
    }
  }
  return v;
}

// The stable order of the keys (indices), by order_bits.
template <class K>
std::vector<int32_t> stable_order(const std::vector<K>& keys) {
  std::vector<int32_t> o(keys.size());
  std::iota(o.begin(), o.end(), 0);
  std::stable_sort(o.begin(), o.end(),
                   [&](int32_t a, int32_t b) { return order_bits(keys[a]) < order_bits(keys[b]); });
  return o;
}

template <class K>
bool same_bits(const std::vector<K>& a, const std::vector<K>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(K)) == 0);
}

// Sorts keys (and their indices as int values) on the device; checks both.
template <class K>
void check_sort(const std::vector<K>& keys) {
  Context& c = ctx();
  const int64_t n = static_cast<int64_t>(keys.size());
  std::vector<int32_t> order = stable_order(keys);
  std::vector<K> want(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) want[i] = keys[order[i]];
  ElemType kt = key_type<K>();
  auto kb = c.alloc(std::max<size_t>(keys.size(), 1) * sizeof(K));
  if (n > 0) c.write(kb->mem(), 0, keys.size() * sizeof(K), keys.data());
  sort_pairs(c, kt, n, kb->mem());
  std::vector<K> got(keys.size());
  if (n > 0) c.read(kb->mem(), 0, got.size() * sizeof(K), got.data());
  CHECK(same_bits(got, want));
  // with values: the original index of each key
  std::vector<int32_t> idx(keys.size());
  std::iota(idx.begin(), idx.end(), 0);
  auto vb = c.alloc(std::max<size_t>(keys.size(), 1) * 4);
  if (n > 0) {
    c.write(kb->mem(), 0, keys.size() * sizeof(K), keys.data());
    c.write(vb->mem(), 0, idx.size() * 4, idx.data());
  }
  ElemType it = ElemType::of<int32_t>();
  sort_pairs(c, kt, n, kb->mem(), &it, vb->mem());
  std::vector<int32_t> gidx(keys.size());
  if (n > 0) {
    c.read(kb->mem(), 0, got.size() * sizeof(K), got.data());
    c.read(vb->mem(), 0, gidx.size() * 4, gidx.data());
  }
  CHECK(same_bits(got, want));
  CHECK(gidx == order);
}

template <class K>
void every_size(uint32_t seed) {
  for (int64_t n : kSizes) {
    INFO("n = " << n);
    check_sort(random_keys<K>(n, seed + static_cast<uint32_t>(n)));
  }
  // few distinct keys (stability matters; the high digits' passes are skipped)
  for (int64_t n : {4097, 100003}) {
    INFO("few distinct, n = " << n);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(0, 9);
    std::vector<K> v(static_cast<size_t>(n));
    for (auto& x : v) x = static_cast<K>(d(rng));
    check_sort(v);
  }
}

}  // namespace

TEST_CASE("sort: int32 keys") { every_size<int32_t>(1); }
TEST_CASE("sort: uint32 keys") { every_size<uint32_t>(2); }
TEST_CASE("sort: int64 keys") { every_size<int64_t>(3); }
TEST_CASE("sort: uint64 keys") { every_size<uint64_t>(4); }
TEST_CASE("sort: float keys") { every_size<float>(5); }
TEST_CASE("sort: double keys") {
  if (!ctx().supports_fp64()) return;
  every_size<double>(6);
}
TEST_CASE("sort: 1- and 2-byte keys (uchar, char, short, ushort)") {
  for (int64_t n : {0, 1, 2, 257, 4097, 100003}) {
    INFO("n = " << n);
    check_sort(random_keys<uint8_t>(n, 7));
    check_sort(random_keys<int8_t>(n, 8));
    check_sort(random_keys<int16_t>(n, 9));
    check_sort(random_keys<uint16_t>(n, 10));
  }
}

TEST_CASE("sort: floats in IEEE total order (NaNs, infinities, signed zeros, denormals)") {
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, std::numeric_limits<float>::quiet_NaN(),
                            -std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::denorm_min(), 1.0f, -1.0f,
                            std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest()};
  for (int64_t n : {12, 4097, 30011}) {
    INFO("n = " << n);
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> d(0, 11);
    std::vector<float> v(static_cast<size_t>(n));
    for (auto& x : v) x = specials[d(rng)];
    std::copy(std::begin(specials), std::end(specials), v.end() - 12);
    check_sort(v);
    // the documented order: -NaN first, then -inf, ..., -0.0 before +0.0, ..., +NaN last
    std::vector<int32_t> o = stable_order(v);
    CHECK(std::isnan(v[o.front()]));
    CHECK(std::signbit(v[o.front()]));
    CHECK(std::isnan(v[o.back()]));
    CHECK(!std::signbit(v[o.back()]));
  }
  if (ctx().supports_fp64()) {
    std::vector<double> v = {0.0, -0.0, 1.5, -INFINITY, std::nan(""), -std::nan(""), -2.0, INFINITY};
    for (int r = 0; r < 10; ++r) v.insert(v.end(), v.begin(), v.begin() + 8);
    check_sort(v);
  }
}

TEST_CASE("sort: all-equal, presorted and reverse-sorted keys") {
  for (int64_t n : {2, 4096, 4097, 65537}) {
    INFO("n = " << n);
    check_sort(std::vector<int32_t>(static_cast<size_t>(n), -7));
    check_sort(std::vector<double>(static_cast<size_t>(n), 2.5));
    std::vector<int64_t> up(static_cast<size_t>(n));
    std::iota(up.begin(), up.end(), -n / 2);
    check_sort(up);
    std::vector<int64_t> down(up.rbegin(), up.rend());
    check_sort(down);
  }
}

namespace {
struct V3 {
  int32_t a, b, c;
};
struct V16 {
  double d;
  int64_t l;
};
template <class V>
void check_values(const ElemType& vt, int64_t n, uint32_t seed) {
  Context& c = ctx();
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-20, 20);
  std::vector<int32_t> keys(static_cast<size_t>(n));
  for (auto& k : keys) k = d(rng);
  std::vector<V> vals(keys.size());
  for (size_t i = 0; i < vals.size(); ++i) {
    std::memset(&vals[i], 0, sizeof(V));
    int32_t x = static_cast<int32_t>(i);
    std::memcpy(&vals[i], &x, std::min(sizeof(V), sizeof x));
    if (sizeof(V) > 4) std::memcpy(reinterpret_cast<char*>(&vals[i]) + sizeof(V) - 4, &x, 4);
  }
  std::vector<int32_t> order = stable_order(keys);
  auto kb = c.alloc(std::max<size_t>(keys.size(), 1) * 4);
  auto vb = c.alloc(std::max<size_t>(vals.size(), 1) * sizeof(V));
  if (n > 0) {
    c.write(kb->mem(), 0, keys.size() * 4, keys.data());
    c.write(vb->mem(), 0, vals.size() * sizeof(V), vals.data());
  }
  sort_pairs(c, ElemType::of<int32_t>(), n, kb->mem(), &vt, vb->mem());
  std::vector<int32_t> gk(keys.size());
  std::vector<V> gv(vals.size());
  if (n > 0) {
    c.read(kb->mem(), 0, gk.size() * 4, gk.data());
    c.read(vb->mem(), 0, gv.size() * sizeof(V), gv.data());
  }
  bool ok = true;
  for (size_t i = 0; i < keys.size() && ok; ++i)
    ok = gk[i] == keys[order[i]] && std::memcmp(&gv[i], &vals[order[i]], sizeof(V)) == 0;
  CHECK(ok);
}
}  // namespace

TEST_CASE("sort: values of 1, 2, 8, 12 and 16 bytes move with their keys, stable") {
  for (int64_t n : {0, 1, 2047, 2049, 4097, 50001}) {
    INFO("n = " << n);
    check_values<uint8_t>(ElemType::of<uint8_t>(), n, 1);
    check_values<uint16_t>(ElemType::scalar("ushort", 2), n, 2);
    check_values<int64_t>(ElemType::of<int64_t>(), n, 3);
    check_values<V3>(ElemType::record({ElemType::of<int32_t>(), ElemType::of<int32_t>(),
                                       ElemType::of<int32_t>()}, "t_sort_v3"), n, 4);
    if (ctx().supports_fp64())
      check_values<V16>(ElemType::record({ElemType::of<double>(), ElemType::of<int64_t>()},
                                         "t_sort_v16"), n, 5);
  }
}

TEST_CASE("sort: bad arguments") {
  Context& c = ctx();
  auto b = c.alloc(64);
  CHECK_THROWS_WITH(sort_pairs(c, ElemType::scalar("half", 2), 4, b->mem()),
                    doctest::Contains("unsupported key type half"));
  ElemType big = ElemType::scalar("t_big", 32);
  CHECK_THROWS_WITH(sort_pairs(c, ElemType::of<int32_t>(), 4, b->mem(), &big, b->mem()),
                    doctest::Contains("values of 32 bytes"));
}
