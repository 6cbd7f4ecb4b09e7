// Host <-> device transfers, direct and staged through pinned chunks
// (runtime/src/transfer.cpp). Every case runs on the default context and on a
// second one made with the staging knobs forced (small chunks, three copy
// threads, every transfer staged), so that PoCL covers the chunked path.
// Writes are checked by raw OpenCL reads and reads by raw OpenCL writes, so
// that a fault shared by both directions cannot cancel out.
#include <doctest/doctest.h>

#include "common.h"
#include "transfer.h"  // runtime/src: the chunk plan and the copier, tested directly

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace arrc;
using arrc_test::ctx;

namespace {

constexpr size_t kChunk = 64 << 10;  // the staged context's chunk size

// Sets environment variables for the lifetime of the object.
struct EnvScope {
  std::vector<std::pair<std::string, std::string>> saved;
  std::vector<std::string> unset;
  EnvScope(std::initializer_list<std::pair<const char*, const char*>> vars) {
    for (auto& [k, v] : vars) {
      if (const char* old = std::getenv(k)) saved.emplace_back(k, old);
      else unset.emplace_back(k);
      setenv(k, v, 1);
    }
  }
  ~EnvScope() {
    for (auto& [k, v] : saved) setenv(k.c_str(), v.c_str(), 1);
    for (auto& k : unset) unsetenv(k.c_str());
  }
};

Context& staged_ctx() {
  static Context* c = [] {
    EnvScope env{{"ARRC_FORCE_PINNED", "1"},     {"ARRC_PINNED_MIN", "0"},
                 {"ARRC_STAGING_CHUNK", "64K"},  {"ARRC_STAGING_CHUNKS", "3"},
                 {"ARRC_STAGING_THREADS", "3"},  {"ARRC_STAGING_PART", "4096"}};
    return new Context();
  }();
  return *c;
}

// Both contexts, named for the failure messages.
std::vector<std::pair<const char*, Context*>> contexts() {
  return {{"default", &ctx()}, {"staged", &staged_ctx()}};
}

// Bytes that differ between neighbours and between calls (seed).
std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& b : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = static_cast<uint8_t>(x >> 11);
  }
  return v;
}

std::vector<uint8_t> raw_read(Context& c, cl_mem m, size_t off, size_t n) {
  std::vector<uint8_t> v(n);
  if (n) REQUIRE(clEnqueueReadBuffer(c.queue(), m, CL_TRUE, off, n, v.data(), 0, nullptr,
                                     nullptr) == CL_SUCCESS);
  return v;
}

void raw_write(Context& c, cl_mem m, size_t off, const std::vector<uint8_t>& v) {
  if (!v.empty())
    REQUIRE(clEnqueueWriteBuffer(c.queue(), m, CL_TRUE, off, v.size(), v.data(), 0, nullptr,
                                 nullptr) == CL_SUCCESS);
}

// Sizes around the chunk and the ramp (the first chunk is chunk/32, at least 4 KiB).
std::vector<size_t> sizes_around(size_t chunk) {
  size_t r = std::max<size_t>(4096, chunk / 32);
  return {0,         1,         7,         r - 1,     r,         r + 1,         2 * r + 3,
          chunk / 2, chunk - 1, chunk,     chunk + 1, 2 * chunk, 3 * chunk + 17, 11 * chunk / 2};
}

}  // namespace

TEST_CASE("transfer: configuration follows the device and the environment") {
  cl_bool unified = CL_FALSE;
  clGetDeviceInfo(ctx().device(), CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified,
                  nullptr);
  const char* force = std::getenv("ARRC_FORCE_PINNED");
  bool forced = force && *force && std::strcmp(force, "0") != 0;
  TransferConfig d = ctx().transfer_config();
  CHECK(d.staged == (!unified || forced));
  CHECK(d.chunk_bytes >= 4096);
  CHECK(d.chunks >= 2);
  CHECK(d.threads >= 1);

  TransferConfig s = staged_ctx().transfer_config();
  CHECK(s.staged);
  CHECK(s.min_staged_bytes == 0);
  CHECK(s.chunk_bytes == kChunk);
  CHECK(s.chunks == 3);
  CHECK(s.threads == 3);

  // malformed values fall back to the defaults; sizes take K/M/G suffixes
  {
    EnvScope env{{"ARRC_STAGING_CHUNK", "lots"}, {"ARRC_PINNED_MIN", "2M"},
                 {"ARRC_STAGING_THREADS", "x"}};
    Context c;
    CHECK(c.transfer_config().chunk_bytes == (size_t{8} << 20));
    CHECK(c.transfer_config().min_staged_bytes == (size_t{2} << 20));
    CHECK(c.transfer_config().threads >= 1);
  }
  // PoCL-like devices stay direct unless forced
  if (unified && !forced) {
    auto st0 = ctx().transfer_stats();
    auto big = Array<uint8_t, 1>::from(ctx(), pattern(3 << 20, 1));
    CHECK(big.to_vector() == pattern(3 << 20, 1));
    auto st1 = ctx().transfer_stats();
    CHECK(st1.staged_writes == st0.staged_writes);
    CHECK(st1.staged_reads == st0.staged_reads);
    CHECK(st1.direct_writes == st0.direct_writes + 1);
    CHECK(st1.direct_reads == st0.direct_reads + 1);
  }
}

TEST_CASE("transfer: byte arrays of sizes around the chunk size round-trip") {
  for (auto& [ctx_name, cp] : contexts()) {
    const char* name = ctx_name;
    Context& c = *cp;
    size_t chunk = c.transfer_config().chunk_bytes;
    bool staged_all = c.transfer_config().staged && c.transfer_config().min_staged_bytes == 0;
    uint32_t seed = 0;
    for (size_t n : sizes_around(chunk)) {
      CAPTURE(name);
      CAPTURE(n);
      auto host = pattern(n, ++seed);
      auto before = c.transfer_stats();
      // host -> device, checked by a raw read
      auto A = Array<uint8_t, 1>::from(c, host);
      CHECK(raw_read(c, A.buffer(), 0, n) == host);
      // device -> host from raw-written data, by to_vector and copy_to
      auto other = pattern(n, ++seed);
      raw_write(c, A.buffer(), 0, other);
      CHECK(A.to_vector() == other);
      std::vector<uint8_t> out(n + 2, 0xEE);
      A.copy_to(out.data() + 1);
      CHECK(std::vector<uint8_t>(out.begin() + 1, out.end() - 1) == other);
      CHECK(out.front() == 0xEE);
      CHECK(out.back() == 0xEE);
      auto after = c.transfer_stats();
      if (staged_all && n > 0) {
        CHECK(after.staged_writes == before.staged_writes + 1);
        CHECK(after.staged_reads == before.staged_reads + 2);
        // at least ceil(n / chunk) DMAs each way
        CHECK(after.staged_chunks - before.staged_chunks >= 3 * ((n + chunk - 1) / chunk));
      }
    }
  }
}

TEST_CASE("transfer: doubles and bools at element granularity") {
  for (auto& [ctx_name, cp] : contexts()) {
    const char* name = ctx_name;
    Context& c = *cp;
    size_t per_chunk = c.transfer_config().chunk_bytes / sizeof(double);
    for (size_t n : {size_t{0}, size_t{1}, per_chunk - 1, per_chunk, per_chunk + 1,
                     4 * per_chunk + 3}) {
      CAPTURE(name);
      CAPTURE(n);
      std::vector<double> h(n);
      for (size_t i = 0; i < n; ++i) h[i] = 0.5 * static_cast<double>(i) - 3.0;
      auto A = Array<double, 1>::from(c, h);
      CHECK(A.to_vector() == h);
      std::vector<double> back(n, -1.0);
      A.copy_to(back.data());
      CHECK(back == h);
      std::vector<bool> b(n * 3 + 1);
      for (size_t i = 0; i < b.size(); ++i) b[i] = (i * 7) % 3 == 1;
      CHECK(Array<bool, 1>::from(c, b).to_vector() == b);
    }
  }
}

TEST_CASE("transfer: offsets into a buffer leave its other bytes alone") {
  for (auto& [ctx_name, cp] : contexts()) {
    const char* name = ctx_name;
    Context& c = *cp;
    size_t chunk = c.transfer_config().chunk_bytes;
    size_t total = 4 * chunk + 1000;
    auto buf = c.alloc(total);
    auto base = pattern(total, 77);
    raw_write(c, buf->mem(), 0, base);
    for (auto range : std::vector<std::pair<size_t, size_t>>{
             {3, chunk + 5}, {chunk - 1, 2 * chunk + 2}, {total - 9, 9}, {17, 1}}) {
      size_t off = range.first, n = range.second;
      CAPTURE(name);
      CAPTURE(off);
      CAPTURE(n);
      auto piece = pattern(n, static_cast<uint32_t>(off + n));
      c.write(buf->mem(), off, n, piece.data());
      std::copy(piece.begin(), piece.end(), base.begin() + off);
      CHECK(raw_read(c, buf->mem(), 0, total) == base);
      std::vector<uint8_t> got(n);
      c.read(buf->mem(), off, n, got.data());
      CHECK(got == piece);
    }
  }
}

TEST_CASE("transfer: views and strided arrays read and write in row-major order") {
  for (auto& [ctx_name, cp] : contexts()) {
    const char* name = ctx_name;
    CAPTURE(name);
    Context& c = *cp;
    // int32 rows*cols*4 = several chunks of the staged context
    const int64_t rows = 96, cols = 700;
    std::vector<int32_t> h(rows * cols);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) h[i * cols + j] = static_cast<int32_t>(i * 100000 + j);
    auto A = Array<int32_t, 2>::from(c, h, {rows, cols});
    // a dense view with an offset: rows 5..90
    auto mid = A.section<2>({Sel::range(5, 90), Sel::all()});
    CHECK(mid.to_vector() == std::vector<int32_t>(h.begin() + 5 * cols, h.begin() + 91 * cols));
    // transpose (strided)
    auto t = A.transpose().to_vector();
    bool ok = true;
    for (int64_t j = 0; j < cols; ++j)
      for (int64_t i = 0; i < rows; ++i) ok = ok && t[j * rows + i] == h[i * cols + j];
    CHECK(ok);
    // every other column, reversed rows: written through the view
    auto v = A.section<2>({Sel::range(rows - 1, 0, -1), Sel::range(0, cols - 1, 2)});
    std::vector<int32_t> w(v.size());
    for (size_t k = 0; k < w.size(); ++k) w[k] = -static_cast<int32_t>(k) - 1;
    v.copy_from(w.data());
    CHECK(v.to_vector() == w);
    auto all = A.to_vector();
    ok = true;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        int32_t want = j % 2 ? h[i * cols + j]
                             : w[(rows - 1 - i) * ((cols + 1) / 2) + j / 2];
        ok = ok && all[i * cols + j] == want;
      }
    CHECK(ok);
  }
}

TEST_CASE("transfer: back-to-back writes and reads keep their order through the ring") {
  for (auto& [ctx_name, cp] : contexts()) {
    const char* name = ctx_name;
    CAPTURE(name);
    Context& c = *cp;
    size_t chunk = c.transfer_config().chunk_bytes;
    // more arrays than ring slots, none waited for between them
    std::vector<Array<uint8_t, 1>> arrays;
    for (uint32_t k = 0; k < 7; ++k)
      arrays.push_back(Array<uint8_t, 1>::from(c, pattern(2 * chunk + 100 * k, k)));
    for (uint32_t k = 0; k < 7; ++k) CHECK(arrays[k].to_vector() == pattern(2 * chunk + 100 * k, k));
    // two writes to the same bytes: the second wins
    auto buf = c.alloc(3 * chunk);
    auto x = pattern(3 * chunk, 100), y = pattern(3 * chunk, 101);
    c.write(buf->mem(), 0, x.size(), x.data());
    c.write(buf->mem(), 0, y.size(), y.data());
    CHECK(raw_read(c, buf->mem(), 0, y.size()) == y);
    // a write still in flight, then a device copy and a read of the copy
    auto dst = c.alloc(3 * chunk);
    c.write(buf->mem(), 0, x.size(), x.data());
    c.copy(buf->mem(), 0, dst->mem(), 0, x.size());
    std::vector<uint8_t> got(x.size());
    c.read(dst->mem(), 0, got.size(), got.data());
    CHECK(got == x);
    // the host buffer may change as soon as write() returns
    auto z = pattern(3 * chunk, 102);
    auto zcopy = z;
    c.write(buf->mem(), 0, z.size(), z.data());
    std::fill(z.begin(), z.end(), uint8_t{0});
    CHECK(raw_read(c, buf->mem(), 0, zcopy.size()) == zcopy);
  }
}

TEST_CASE("transfer: random sizes and offsets, interleaved") {
  for (auto& [ctx_name, cp] : contexts()) {
    const char* name = ctx_name;
    CAPTURE(name);
    Context& c = *cp;
    size_t chunk = c.transfer_config().chunk_bytes;
    size_t total = 6 * chunk;
    auto buf = c.alloc(total);
    std::vector<uint8_t> shadow = pattern(total, 5);
    raw_write(c, buf->mem(), 0, shadow);
    std::mt19937 rng(12345);
    for (int it = 0; it < 40; ++it) {
      size_t off = rng() % total;
      size_t n = rng() % (total - off + 1);
      CAPTURE(it);
      if (rng() % 2) {
        auto p = pattern(n, 1000 + it);
        c.write(buf->mem(), off, n, p.data());
        std::copy(p.begin(), p.end(), shadow.begin() + off);
      } else {
        std::vector<uint8_t> got(n);
        c.read(buf->mem(), off, n, got.data());
        CHECK(std::equal(got.begin(), got.end(), shadow.begin() + off));
      }
    }
    CHECK(raw_read(c, buf->mem(), 0, total) == shadow);
  }
}

TEST_CASE("transfer: out-of-range transfers raise arrc::Error; the context stays usable") {
  for (auto& [ctx_name, cp] : contexts()) {
    const char* name = ctx_name;
    CAPTURE(name);
    Context& c = *cp;
    size_t chunk = c.transfer_config().chunk_bytes;
    auto buf = c.alloc(2 * chunk);
    size_t cap = buf->capacity();
    std::vector<uint8_t> big(cap + chunk, 1);
    CHECK_THROWS_AS(c.write(buf->mem(), 0, big.size(), big.data()), Error);
    CHECK_THROWS_AS(c.read(buf->mem(), chunk, cap, big.data()), Error);
    try {
      c.write(buf->mem(), 8, cap, big.data());
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find("host-to-device copy") != std::string::npos);
    }
    auto p = pattern(2 * chunk, 9);
    c.write(buf->mem(), 0, p.size(), p.data());
    std::vector<uint8_t> got(p.size());
    c.read(buf->mem(), 0, got.size(), got.data());
    CHECK(got == p);
  }
}

TEST_CASE("transfer: profiling sees every chunk of a staged transfer") {
  EnvScope env{{"ARRC_FORCE_PINNED", "1"}, {"ARRC_PINNED_MIN", "0"},
               {"ARRC_STAGING_CHUNK", "64K"}, {"ARRC_STAGING_THREADS", "2"}};
  ContextOptions o;
  o.profile = 1;
  Context c(o);
  auto A = Array<uint8_t, 1>::from(c, pattern(5 * kChunk, 3));
  CHECK(A.to_vector() == pattern(5 * kChunk, 3));
  auto st = c.transfer_stats();
  CHECK(st.staged_writes == 1);
  CHECK(st.staged_reads == 1);
  std::string r = c.profile_report();
  // "  [write host->device]   <calls> ..." : one call per chunk
  auto calls = [&](const std::string& n) -> uint64_t {
    size_t p = r.find(n);
    return p == std::string::npos ? 0 : std::strtoull(r.c_str() + p + n.size(), nullptr, 10);
  };
  uint64_t w = calls("[write host->device]"), rd = calls("[read device->host]");
  CHECK(w >= 5);
  CHECK(w == rd);
  CHECK(w + rd == st.staged_chunks);
}

TEST_CASE("transfer: the chunk plan covers the bytes in order with bounded chunks") {
  for (size_t chunk : {size_t{4096}, size_t{64} << 10, size_t{8} << 20}) {
    size_t first = std::max<size_t>(4096, chunk / 32);
    std::vector<size_t> sizes = {1, 100, first - 1, first, first + 1, chunk - 1, chunk, chunk + 1,
                                 2 * chunk, 7 * chunk + 3, 40 * chunk + first / 2};
    for (size_t n : sizes) {
      CAPTURE(chunk);
      CAPTURE(n);
      auto plan = detail::chunk_plan(n, chunk, first);
      size_t off = 0;
      bool ok = true;
      for (auto [o, m] : plan) {
        ok = ok && o == off && m > 0 && m <= chunk;
        off += m;
      }
      CHECK(ok);
      CHECK(off == n);
      CHECK(plan.size() >= (n + chunk - 1) / chunk);
      // short first and last chunks (the pipeline fills and drains quickly)
      CHECK(plan.front().second <= std::max(first, std::min(n, chunk)));
      if (n >= 4 * chunk) {
        CHECK(plan.front().second == first);
        CHECK(plan.back().second <= chunk / 2);
        // a few ramp chunks at each end, full chunks in between
        CHECK(plan.size() <= n / chunk + 2 * 6 + 2);
      }
    }
  }
}

TEST_CASE("transfer: the host copier splits copies across threads and waits for all parts") {
  for (int threads : {1, 2, 4}) {
    detail::HostCopier copier(threads, 4096);
    std::mt19937 rng(threads);
    for (int it = 0; it < 30; ++it) {
      size_t n = it < 5 ? size_t{8} << 20 : rng() % (size_t{3} << 20);
      auto src = pattern(n, static_cast<uint32_t>(it));
      std::vector<uint8_t> dst(n + 64, 0);
      bool session = it % 3 != 0;  // copies inside and outside a transfer
      if (session) copier.begin();
      copier.copy(dst.data() + 1, src.data(), n);
      // compared at once: every part must be in place when copy() returns
      bool ok = std::equal(src.begin(), src.end(), dst.begin() + 1) && dst[0] == 0 &&
                dst[n + 1] == 0;
      if (session) copier.end();
      CAPTURE(threads);
      CAPTURE(n);
      CHECK(ok);
    }
    CHECK(copier.threads() == threads);
  }
}
