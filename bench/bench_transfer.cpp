// arrc_bench_transfer: host <-> device bandwidth of arrc's Array::from,
// copy_to and to_vector, next to two references measured in the same process
// on the same queue:
//   pinned   clEnqueueWrite/ReadBuffer from/to one pinned host buffer of the
//            whole size (CL_MEM_ALLOC_HOST_PTR, mapped): the host link's bandwidth
//   pageable clEnqueueWrite/ReadBuffer from/to an ordinary (touched) std::vector
//
//   arrc_bench_transfer [--sizes 1K,64K,1M,...] [--max 1G] [--reps N] [--no-table]
//
// Sizes default to 1 KiB .. 1 GiB in steps of 4x (on CPU devices up to 256 MiB).
// Each time is the median of --reps runs (default: more for small sizes), each
// run waiting for the queue before and after (ctx.finish()), so every column
// pays the same round trip. The transfer knobs (ARRC_STAGING_*, ARRC_PINNED_MIN,
// docs/runtime.md) are read when the Context is made: sweep them by running
// the binary again with other values (bench/run_transfer_device.sh does).
#include <arrc/runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace arrc;
using clk = std::chrono::steady_clock;

namespace {

size_t parse_bytes(const std::string& s) {
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  switch (end && *end ? *end : ' ') {
    case 'k': case 'K': v *= 1024; break;
    case 'm': case 'M': v *= 1024 * 1024; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; break;
    default: break;
  }
  return static_cast<size_t>(v);
}

std::string human(size_t b) {
  char buf[32];
  if (b >= (size_t{1} << 30) && b % (size_t{1} << 30) == 0)
    std::snprintf(buf, sizeof buf, "%zu GiB", b >> 30);
  else if (b >= (size_t{1} << 20) && b % (size_t{1} << 20) == 0)
    std::snprintf(buf, sizeof buf, "%zu MiB", b >> 20);
  else if (b >= 1024 && b % 1024 == 0)
    std::snprintf(buf, sizeof buf, "%zu KiB", b >> 10);
  else
    std::snprintf(buf, sizeof buf, "%zu B", b);
  return buf;
}

// median wall time in microseconds of `reps` runs of f, each between two
// clFinish of the queue
double median_us(Context& ctx, int reps, const std::function<void()>& f) {
  std::vector<double> t;
  f();  // warm-up: pool buffers, staging ring, first-touch
  for (int r = 0; r < reps; ++r) {
    ctx.finish();
    auto t0 = clk::now();
    f();
    ctx.finish();
    t.push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

double gbs(size_t bytes, double us) { return us > 0 ? bytes / (us * 1e3) : 0; }

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) throw Error(std::string(what) + ": " + cl_error_name(err));
}

// A mapped CL_MEM_ALLOC_HOST_PTR buffer (the reference's pinned memory).
struct Pinned {
  Context& ctx;
  cl_mem mem = nullptr;
  void* ptr = nullptr;
  Pinned(Context& c, size_t bytes) : ctx(c) {
    cl_int err = CL_SUCCESS;
    mem = clCreateBuffer(c.context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr,
                         &err);
    check(err, "pinned clCreateBuffer");
    ptr = clEnqueueMapBuffer(c.queue(), mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                             nullptr, nullptr, &err);
    check(err, "pinned clEnqueueMapBuffer");
    std::memset(ptr, 1, bytes);
  }
  ~Pinned() {
    if (ptr) clEnqueueUnmapMemObject(ctx.queue(), mem, ptr, 0, nullptr, nullptr);
    clFinish(ctx.queue());
    if (mem) clReleaseMemObject(mem);
  }
};

struct Row {
  size_t bytes;
  double pin_w, page_w, arrc_w, pin_r, page_r, arrc_r, tovec_r;
  double arrc_w_us, arrc_r_us;
  bool ok;
};

Row measure(Context& ctx, size_t bytes, int reps) {
  Row r{};
  r.bytes = bytes;
  std::vector<uint8_t> host(bytes), back(bytes);
  for (size_t i = 0; i < bytes; ++i) host[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
  std::memset(back.data(), 0, bytes);
  auto dev = ctx.alloc(bytes);
  cl_command_queue q = ctx.queue();
  {
    Pinned pin(ctx, bytes);
    double us = median_us(ctx, reps, [&] {
      check(clEnqueueWriteBuffer(q, dev->mem(), CL_TRUE, 0, bytes, pin.ptr, 0, nullptr, nullptr),
            "pinned write");
    });
    r.pin_w = gbs(bytes, us);
    us = median_us(ctx, reps, [&] {
      check(clEnqueueReadBuffer(q, dev->mem(), CL_TRUE, 0, bytes, pin.ptr, 0, nullptr, nullptr),
            "pinned read");
    });
    r.pin_r = gbs(bytes, us);
  }
  double us = median_us(ctx, reps, [&] {
    check(clEnqueueWriteBuffer(q, dev->mem(), CL_TRUE, 0, bytes, host.data(), 0, nullptr,
                               nullptr),
          "pageable write");
  });
  r.page_w = gbs(bytes, us);
  us = median_us(ctx, reps, [&] {
    check(clEnqueueReadBuffer(q, dev->mem(), CL_TRUE, 0, bytes, back.data(), 0, nullptr, nullptr),
          "pageable read");
  });
  r.page_r = gbs(bytes, us);
  dev.reset();

  // arrc: from() allocates from the pool (a reused buffer after the warm-up)
  r.arrc_w_us = median_us(ctx, reps, [&] { auto A = Array<uint8_t, 1>::from(ctx, host); });
  r.arrc_w = gbs(bytes, r.arrc_w_us);
  auto A = Array<uint8_t, 1>::from(ctx, host);
  r.arrc_r_us = median_us(ctx, reps, [&] { A.copy_to(back.data()); });
  r.arrc_r = gbs(bytes, r.arrc_r_us);
  r.ok = back == host;
  // to_vector: a fresh std::vector each call (allocation and first touch included)
  us = median_us(ctx, std::max(3, reps / 4), [&] {
    auto v = A.to_vector();
    r.ok = r.ok && v.size() == bytes && (bytes == 0 || v[bytes - 1] == host[bytes - 1]);
  });
  r.tovec_r = gbs(bytes, us);
  return r;
}

// The host side alone: a single-threaded memcpy between touched buffers, and
// allocating + value-initialising a fresh std::vector (what to_vector pays
// before any byte arrives).
void host_bounds(size_t bytes) {
  std::vector<uint8_t> a(bytes, 1), b(bytes, 2);
  std::vector<double> t1, t2;
  for (int r = 0; r < 5; ++r) {
    auto t0 = clk::now();
    std::memcpy(b.data(), a.data(), bytes);
    auto t_1 = clk::now();
    std::vector<uint8_t> fresh(bytes);
    auto t_2 = clk::now();
    t1.push_back(std::chrono::duration<double, std::micro>(t_1 - t0).count());
    t2.push_back(std::chrono::duration<double, std::micro>(t_2 - t_1).count());
    if (fresh[bytes / 2] != 0 || b[bytes / 2] != 1) std::printf("?");
  }
  std::sort(t1.begin(), t1.end());
  std::sort(t2.begin(), t2.end());
  std::printf("host (%s): memcpy 1 thread %.1f GB/s; new std::vector (allocate + zero) %.1f GB/s\n",
              human(bytes).c_str(), gbs(bytes, t1[2]), gbs(bytes, t2[2]));
}

// Issue 12's case: three double arrays of 10^7 to the device, two back.
void five_arrays(Context& ctx, int reps) {
  const size_t n = 10000000, bytes = n * sizeof(double);
  std::vector<double> a(n, 1.5), b(n, 2.5), c(n, 3.5), x(n), y(n);
  auto run = [&](bool fresh) {
    auto A = Array<double, 1>::from(ctx, a);
    auto B = Array<double, 1>::from(ctx, b);
    auto C = Array<double, 1>::from(ctx, c);
    if (fresh) {
      auto u = A.to_vector(), v = C.to_vector();
      if (u[n - 1] != 1.5 || v[n - 1] != 3.5) std::printf("MISMATCH ");
    } else {
      A.copy_to(x.data());
      C.copy_to(y.data());
      if (x[n - 1] != 1.5 || y[n - 1] != 3.5) std::printf("MISMATCH ");
    }
  };
  double us_vec = median_us(ctx, reps, [&] { run(true); });
  double us_copy = median_us(ctx, reps, [&] { run(false); });
  // the same bytes at the pinned reference's speed
  Pinned pin(ctx, bytes);
  auto dev = ctx.alloc(bytes);
  double us_ref = median_us(ctx, reps, [&] {
    for (int k = 0; k < 3; ++k)
      check(clEnqueueWriteBuffer(ctx.queue(), dev->mem(), CL_TRUE, 0, bytes, pin.ptr, 0, nullptr,
                                 nullptr),
            "pinned write");
    for (int k = 0; k < 2; ++k)
      check(clEnqueueReadBuffer(ctx.queue(), dev->mem(), CL_TRUE, 0, bytes, pin.ptr, 0, nullptr,
                                nullptr),
            "pinned read");
  });
  std::printf("3 x double 1e7 in + 2 out: to_vector %.1f ms, copy_to %.1f ms; pinned reference "
              "%.1f ms (ratio %.2f / %.2f)\n",
              us_vec / 1e3, us_copy / 1e3, us_ref / 1e3, us_ref / us_vec, us_ref / us_copy);
}

// Per-call cost of tiny transfers, back to back without waiting in between
// (writes are blocking or staged; reads always wait for their data).
void small_calls(Context& ctx) {
  const int reps = 2000;
  for (size_t bytes : {size_t{8}, size_t{1024}, size_t{64} << 10}) {
    std::vector<uint8_t> h(bytes, 3), back(bytes);
    auto A = Array<uint8_t, 1>::from(ctx, h);
    cl_mem m = A.buffer();
    auto loop = [&](const std::function<void()>& f) {
      f();
      ctx.finish();
      auto t0 = clk::now();
      for (int i = 0; i < reps; ++i) f();
      ctx.finish();
      return std::chrono::duration<double, std::micro>(clk::now() - t0).count() / reps;
    };
    double raw_w = loop([&] {
      check(clEnqueueWriteBuffer(ctx.queue(), m, CL_TRUE, 0, bytes, h.data(), 0, nullptr, nullptr),
            "write");
    });
    double arrc_w = loop([&] { auto B = Array<uint8_t, 1>::from(ctx, h); });
    double arrc_copy_from = loop([&] { A.copy_from(h.data()); });
    double raw_r = loop([&] {
      check(clEnqueueReadBuffer(ctx.queue(), m, CL_TRUE, 0, bytes, back.data(), 0, nullptr,
                                nullptr),
            "read");
    });
    double arrc_r = loop([&] { A.copy_to(back.data()); });
    double arrc_v = loop([&] { auto v = A.to_vector(); });
    std::printf("per call, %8s: raw write %6.2f us, from() %6.2f, copy_from %6.2f | raw read "
                "%6.2f us, copy_to %6.2f, to_vector %6.2f\n",
                human(bytes).c_str(), raw_w, arrc_w, arrc_copy_from, raw_r, arrc_r, arrc_v);
  }
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> r;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ',')) r.push_back(x);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes;
  size_t max_bytes = 0;
  int reps = 0;
  bool table = true, extras = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--sizes" && i + 1 < argc) {
      for (auto& s : split(argv[++i])) sizes.push_back(parse_bytes(s));
    } else if (a == "--max" && i + 1 < argc) {
      max_bytes = parse_bytes(argv[++i]);
    } else if (a == "--reps" && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (a == "--no-table") {
      table = false;
    } else if (a == "--no-extras") {
      extras = false;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--sizes 1K,1M,...] [--max 1G] [--reps N] [--no-table] "
                   "[--no-extras]\n",
                   argv[0]);
      return 2;
    }
  }
  try {
    Context ctx;
    if (max_bytes == 0) max_bytes = ctx.is_gpu() ? size_t{1} << 30 : size_t{256} << 20;
    if (sizes.empty())
      for (size_t b = 1024; b <= max_bytes; b *= 4) sizes.push_back(b);
    TransferConfig tc = ctx.transfer_config();
    std::printf("device: %s\n", ctx.describe().c_str());
    std::printf("transfers: %s; staged from %s, chunks of %s, %d pinned chunks, %d copy threads "
                "(host: %u hardware threads)\n",
                tc.staged ? "staged" : "direct", human(tc.min_staged_bytes).c_str(),
                human(tc.chunk_bytes).c_str(), tc.chunks, tc.threads,
                std::thread::hardware_concurrency());
    if (extras) {
      host_bounds(std::min<size_t>(max_bytes, size_t{256} << 20));
      small_calls(ctx);
      five_arrays(ctx, ctx.is_gpu() ? 10 : 3);
    }
    int bad = 0;
    if (table) {
      std::printf("\nGB/s; arrc/pinned = arrc's from (h->d) or copy_to (d->h) over the pinned "
                  "reference\n\n");
      std::printf("| size | h->d pinned | h->d pageable | h->d arrc from | arrc/pinned | "
                  "d->h pinned | d->h pageable | d->h arrc copy_to | arrc/pinned | d->h to_vector "
                  "| from us | copy_to us | check |\n");
      std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
      for (size_t b : sizes) {
        int r = reps > 0 ? reps
                         : static_cast<int>(std::clamp<size_t>((size_t{1} << 30) / std::max<size_t>(b, 1), 5, 100));
        Row x = measure(ctx, b, r);
        bad += !x.ok;
        std::printf("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | "
                    "%.1f | %s |\n",
                    human(b).c_str(), x.pin_w, x.page_w, x.arrc_w, x.arrc_w / x.pin_w, x.pin_r,
                    x.page_r, x.arrc_r, x.arrc_r / x.pin_r, x.tovec_r, x.arrc_w_us, x.arrc_r_us,
                    x.ok ? "ok" : "MISMATCH");
        std::fflush(stdout);
        ctx.trim_pool();
      }
    }
    TransferStats st = ctx.transfer_stats();
    std::printf("\ntransfer stats: %llu staged writes, %llu staged reads, %llu chunks; %llu direct "
                "writes, %llu direct reads, %llu small reads\n",
                static_cast<unsigned long long>(st.staged_writes),
                static_cast<unsigned long long>(st.staged_reads),
                static_cast<unsigned long long>(st.staged_chunks),
                static_cast<unsigned long long>(st.direct_writes),
                static_cast<unsigned long long>(st.direct_reads),
                static_cast<unsigned long long>(st.small_reads));
    return bad ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
