// arrc runtime: host <-> device transfers. Small ones go straight from/to the
// caller's memory; large ones on discrete GPUs through a ring of pinned
// chunks with the host copies and the DMAs overlapped (transfer.h; design
// and knobs in docs/runtime.md, "Transfers").
#include <arrc/array.h>

#include "impl.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace arrc::detail {

namespace {

// Reads of up to this size (counts, scalars, the error record) go through a
// small pinned buffer and are waited for on their event: the quickest round
// trip measured on the H100 (`arrc_bench_runtime --sync-probe`).
constexpr size_t kSmallRead = 4096;

// A byte count from the environment: digits with an optional K, M or G
// (binary) suffix; `fallback` if unset or malformed.
size_t env_bytes(const char* name, size_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  if (end == v) return fallback;
  switch (*end) {
    case 'k': case 'K': n <<= 10; ++end; break;
    case 'm': case 'M': n <<= 20; ++end; break;
    case 'g': case 'G': n <<= 30; ++end; break;
    default: break;
  }
  if (*end == 'i' || *end == 'B') ++end;  // "8MiB", "8MB" read as 8 MiB too
  if (*end == 'B') ++end;
  return *end ? fallback : static_cast<size_t>(n);
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  long n = std::strtol(v, &end, 10);
  return (end == v || *end) ? fallback : static_cast<int>(n);
}

// A copy whose destination bypasses the caches (non-temporal stores): the
// staging copies write data that is read next by a DMA or by the caller,
// and plain stores first read every destination line. ARRC_STAGING_STREAM=0
// uses memcpy instead.
void stream_copy(char* dst, const char* src, size_t n) {
#if defined(__x86_64__)
  static const bool enabled = env_int("ARRC_STAGING_STREAM", 1) != 0;
  if (enabled && n >= 4096) {
    size_t head = (16 - reinterpret_cast<uintptr_t>(dst) % 16) % 16;
    std::memcpy(dst, src, head);
    dst += head, src += head, n -= head;
    size_t body = n / 64 * 64;
    for (size_t i = 0; i < body; i += 64) {
      __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
      __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
      __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
      __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
    }
    _mm_sfence();
    std::memcpy(dst + body, src + body, n - body);
    return;
  }
#endif
  std::memcpy(dst, src, n);
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

}  // namespace

// ---------------------------------------------------------------------------
// HostCopier

HostCopier::HostCopier(int threads, size_t min_part)
    : threads_(std::max(threads, 1)), min_part_(std::max<size_t>(min_part, 64)) {}

HostCopier::~HostCopier() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : helpers_) t.join();
}

void HostCopier::start_helpers() {
  if (!helpers_.empty() || threads_ <= 1) return;
  try {
    for (int i = 1; i < threads_; ++i) helpers_.emplace_back([this] { helper(); });
  } catch (const std::system_error&) {
    // fewer threads than asked for: copy with those that started
  }
  threads_ = static_cast<int>(helpers_.size()) + 1;
}

bool HostCopier::has_work() const {
  uint64_t c = claim_.load(std::memory_order_acquire);
  return static_cast<uint32_t>(c) < static_cast<uint32_t>(c >> 32);
}

bool HostCopier::copy_one_part() {
  uint64_t c = claim_.load(std::memory_order_acquire);
  for (;;) {
    uint32_t parts = static_cast<uint32_t>(c >> 32), next = static_cast<uint32_t>(c);
    if (next >= parts) return false;
    if (claim_.compare_exchange_weak(c, c + 1, std::memory_order_acq_rel,
                                     std::memory_order_acquire)) {
      // part `next` of the current copy is ours, and that copy cannot end
      // (nor its fields change) before we count it done
      size_t off = static_cast<size_t>(next) * part_;
      stream_copy(dst_ + off, src_ + off, std::min(part_, bytes_ - off));
      done_.fetch_add(1, std::memory_order_release);
      return true;
    }
  }
}

void HostCopier::helper() {
  int idle = 0;
  for (;;) {
    if (copy_one_part()) {
      idle = 0;
      continue;
    }
    if (stop_.load(std::memory_order_acquire)) return;
    if (awake_.load(std::memory_order_acquire)) {
      // within a transfer: the next chunk comes soon
      if (++idle < 64) cpu_relax();
      else std::this_thread::yield();
      continue;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    sleepers_.fetch_add(1);
    wake_.wait(lock, [this] { return stop_.load() || awake_.load() || has_work(); });
    sleepers_.fetch_sub(1);
    idle = 0;
  }
}

void HostCopier::begin() {
  if (threads_ <= 1) return;
  start_helpers();
  awake_.store(true);
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    wake_.notify_all();
  }
}

void HostCopier::end() { awake_.store(false, std::memory_order_release); }

void HostCopier::copy(void* dst, const void* src, size_t bytes) {
  size_t parts = threads_ <= 1 ? 1 : std::min<size_t>(threads_, bytes / min_part_);
  if (parts <= 1) {
    stream_copy(static_cast<char*>(dst), static_cast<const char*>(src), bytes);
    return;
  }
  start_helpers();
  parts = std::min<size_t>(parts, threads_);
  // parts of whole cache lines
  size_t part = ((bytes + parts - 1) / parts + 63) / 64 * 64;
  parts = (bytes + part - 1) / part;
  dst_ = static_cast<char*>(dst);
  src_ = static_cast<const char*>(src);
  bytes_ = bytes;
  part_ = part;
  done_.store(0, std::memory_order_relaxed);
  claim_.store(static_cast<uint64_t>(parts) << 32, std::memory_order_seq_cst);
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    wake_.notify_all();
  }
  while (copy_one_part()) {
  }
  int idle = 0;
  while (done_.load(std::memory_order_acquire) < parts) {
    if (++idle < 64) cpu_relax();
    else std::this_thread::yield();
  }
}

// ---------------------------------------------------------------------------
// Staging state

void init_staging(ContextImpl& c) {
  Staging& s = c.staging;
  // Devices that share host memory (PoCL, integrated GPUs) gain nothing from
  // staging: their "DMA" is a memcpy from wherever the data is.
  s.enabled = !c.unified_memory || c.force_pinned;
  s.min_bytes = env_bytes("ARRC_PINNED_MIN", size_t{1} << 20);
  s.chunk = std::max<size_t>(env_bytes("ARRC_STAGING_CHUNK", size_t{8} << 20), 4096);
  s.chunk = (s.chunk + 4095) / 4096 * 4096;
  s.slots_wanted = std::clamp(env_int("ARRC_STAGING_CHUNKS", 4), 2, 64);
  unsigned hw = std::thread::hardware_concurrency();
  int def_threads = static_cast<int>(std::min(8u, std::max(1u, hw)));
  s.threads = std::clamp(env_int("ARRC_STAGING_THREADS", def_threads), 1, 64);
  s.min_part = std::max<size_t>(env_bytes("ARRC_STAGING_PART", size_t{256} << 10), 64);
}

void release_staging(ContextImpl& c) {
  Staging& s = c.staging;
  if (!c.queue) return;
  for (auto& sl : s.slots) {
    if (sl.pending) {
      clWaitForEvents(1, &sl.pending);
      clReleaseEvent(sl.pending);
      sl.pending = nullptr;
    }
    if (sl.ptr) clEnqueueUnmapMemObject(c.queue, sl.mem, sl.ptr, 0, nullptr, nullptr);
  }
  if (s.small_ptr) clEnqueueUnmapMemObject(c.queue, s.small_mem, s.small_ptr, 0, nullptr, nullptr);
  clFinish(c.queue);
  for (auto& sl : s.slots) clReleaseMemObject(sl.mem);
  s.slots.clear();
  if (s.small_mem) clReleaseMemObject(s.small_mem);
  s.small_mem = nullptr;
  s.small_ptr = nullptr;
  s.copier.reset();
}

namespace {

// The first chunk of a staged transfer (later ones double up to s.chunk).
size_t ramp_min(const Staging& s) { return std::max<size_t>(4096, s.chunk / 32); }

// A pinned host buffer: CL_MEM_ALLOC_HOST_PTR, mapped once. On NVIDIA this is
// page-locked memory that the copy engines read and write directly.
bool make_pinned(ContextImpl& c, size_t bytes, cl_mem& mem, void*& ptr) {
  cl_int err = CL_SUCCESS;
  mem = clCreateBuffer(c.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
  if (err != CL_SUCCESS) {
    mem = nullptr;
    return false;
  }
  ptr = clEnqueueMapBuffer(c.queue, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                           nullptr, nullptr, &err);
  if (err != CL_SUCCESS || !ptr) {
    clReleaseMemObject(mem);
    mem = nullptr;
    ptr = nullptr;
    return false;
  }
  return true;
}

// The ring, made on the first staged transfer. If pinned memory cannot be
// had, transfers stay direct (slower, still correct).
bool ensure_ring(ContextImpl& c) {
  Staging& s = c.staging;
  if (!s.enabled || s.ring_failed) return false;
  if (!s.slots.empty()) return true;
  for (int i = 0; i < s.slots_wanted; ++i) {
    Staging::Slot sl;
    if (!make_pinned(c, s.chunk, sl.mem, sl.ptr)) break;
    s.slots.push_back(sl);
  }
  if (s.slots.size() < 2) {
    for (auto& sl : s.slots) {
      clEnqueueUnmapMemObject(c.queue, sl.mem, sl.ptr, 0, nullptr, nullptr);
      clFinish(c.queue);
      clReleaseMemObject(sl.mem);
    }
    s.slots.clear();
    s.ring_failed = true;
    return false;
  }
  s.copier = std::make_unique<HostCopier>(s.threads, s.min_part);
  return true;
}

bool ensure_small(ContextImpl& c) {
  Staging& s = c.staging;
  if (!s.enabled || s.small_failed) return false;
  if (s.small_ptr) return true;
  if (!make_pinned(c, kSmallRead, s.small_mem, s.small_ptr)) s.small_failed = true;
  return s.small_ptr != nullptr;
}

}  // namespace

// Chunks grow from `first` by doubling up to `chunk` and shrink likewise
// toward the end: the first DMA starts after a short copy-in and the last
// copy-out after a short DMA, so even a few-chunk transfer overlaps well.
std::vector<std::pair<size_t, size_t>> chunk_plan(size_t bytes, size_t chunk, size_t first) {
  std::vector<std::pair<size_t, size_t>> plan;
  for (size_t off = 0; off < bytes;) {
    size_t rem = bytes - off;
    size_t n = std::clamp(std::min(off, rem / 2), first, chunk);
    if (n >= rem || (rem <= chunk && rem - n < first)) n = rem;
    plan.emplace_back(off, n);
    off += n;
  }
  return plan;
}

namespace {

// Waits for the last DMA of a slot (before the host overwrites or reads it).
void wait_slot(Staging::Slot& sl, const char* what) {
  if (!sl.pending) return;
  cl_event e = sl.pending;
  sl.pending = nullptr;
  cl_int err = clWaitForEvents(1, &e);
  clReleaseEvent(e);
  check_cl(err, what);
}

void track_chunk(ContextImpl& c, cl_event ev, const char* name, size_t bytes) {
  if (!c.profile) return;
  clRetainEvent(ev);  // the slot keeps its own reference
  c.track(ev, name, bytes);
}

// A staged transfer stops at its first failing chunk: check the range first
// so that nothing is half written.
void check_range(cl_mem m, size_t off, size_t bytes, const char* what) {
  size_t size = 0;
  if (clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, nullptr) != CL_SUCCESS) return;
  if (off > size || bytes > size - off)
    throw Error(std::string(what) + ": " + std::to_string(bytes) + " bytes at offset " +
                std::to_string(off) + " exceed the buffer's " + std::to_string(size) + " bytes");
}

// Keeps the copier's helpers spinning for the length of one transfer.
struct CopierSession {
  HostCopier& copier;
  bool on;
  CopierSession(HostCopier& h, bool use) : copier(h), on(use) {
    if (on) copier.begin();
  }
  ~CopierSession() {
    if (on) copier.end();
  }
};

// Host copy of chunk k+1 into the ring while the DMA of chunk k runs. The
// last DMAs are left running: the in-order queue makes later commands wait
// for them, and the next use of their slot waits for its event.
void staged_write(ContextImpl& c, cl_mem dst, size_t off, size_t bytes, const char* src) {
  static const char* what = "host-to-device copy";
  Staging& s = c.staging;
  check_range(dst, off, bytes, what);
  auto plan = chunk_plan(bytes, s.chunk, ramp_min(s));
  CopierSession session(*s.copier, bytes >= 2 * s.min_part);
  for (auto [o, n] : plan) {
    Staging::Slot& sl = s.slots[s.next_slot];
    s.next_slot = (s.next_slot + 1) % s.slots.size();
    wait_slot(sl, what);
    s.copier->copy(sl.ptr, src + o, n);
    cl_event ev = nullptr;
    check_cl(clEnqueueWriteBuffer(c.queue, dst, CL_FALSE, off + o, n, sl.ptr, 0, nullptr, &ev),
             what);
    sl.pending = ev;
    track_chunk(c, ev, "[write host->device]", n);
    clFlush(c.queue);
  }
  s.stats.staged_writes++;
  s.stats.staged_chunks += plan.size();
}

// DMAs of the next chunks (up to the ring's size) run while the host copies
// chunk k out of the ring.
void staged_read(ContextImpl& c, cl_mem src, size_t off, size_t bytes, char* dst) {
  static const char* what = "device-to-host copy";
  Staging& s = c.staging;
  check_range(src, off, bytes, what);
  auto plan = chunk_plan(bytes, s.chunk, ramp_min(s));
  const size_t k = s.slots.size(), base = s.next_slot;
  s.next_slot = (base + plan.size()) % k;
  auto slot = [&](size_t i) -> Staging::Slot& { return s.slots[(base + i) % k]; };
  auto issue = [&](size_t i) {
    Staging::Slot& sl = slot(i);
    // a DMA still pending on this slot is an earlier write: the in-order
    // queue runs it first, and the host touches the slot only after this
    // read's event
    if (sl.pending) {
      clReleaseEvent(sl.pending);
      sl.pending = nullptr;
    }
    cl_event ev = nullptr;
    check_cl(clEnqueueReadBuffer(c.queue, src, CL_FALSE, off + plan[i].first, plan[i].second,
                                 sl.ptr, 0, nullptr, &ev),
             what);
    sl.pending = ev;
    track_chunk(c, ev, "[read device->host]", plan[i].second);
  };
  for (size_t i = 0; i < std::min(k, plan.size()); ++i) issue(i);
  clFlush(c.queue);
  CopierSession session(*s.copier, bytes >= 2 * s.min_part);
  for (size_t i = 0; i < plan.size(); ++i) {
    Staging::Slot& sl = slot(i);
    wait_slot(sl, what);
    s.copier->copy(dst + plan[i].first, sl.ptr, plan[i].second);
    if (i + k < plan.size()) {
      issue(i + k);
      clFlush(c.queue);
    }
  }
  s.stats.staged_reads++;
  s.stats.staged_chunks += plan.size();
}

}  // namespace

void host_write(ContextImpl& c, cl_mem dst, size_t off, size_t bytes, const void* src) {
  const std::lock_guard<std::recursive_mutex> held(c.call_mutex);  // Context::lock()
  if (bytes == 0) return;
  Staging& s = c.staging;
  if (s.enabled && bytes >= s.min_bytes && ensure_ring(c)) {
    staged_write(c, dst, off, bytes, static_cast<const char*>(src));
    return;
  }
  cl_event ev = nullptr;
  check_cl(clEnqueueWriteBuffer(c.queue, dst, CL_TRUE, off, bytes, src, 0, nullptr,
                                c.profile ? &ev : nullptr),
           "host-to-device copy");
  c.track(ev, "[write host->device]", bytes);
  s.stats.direct_writes++;
}

void host_read(ContextImpl& c, cl_mem src, size_t off, size_t bytes, void* dst) {
  const std::lock_guard<std::recursive_mutex> held(c.call_mutex);  // Context::lock()
  if (bytes == 0) return;
  Staging& s = c.staging;
  if (s.enabled && bytes >= s.min_bytes && ensure_ring(c)) {
    staged_read(c, src, off, bytes, static_cast<char*>(dst));
    return;
  }
  cl_event ev = nullptr;
  if (bytes <= kSmallRead && ensure_small(c)) {
    // a count or a scalar: into pinned memory, then wait on its event
    // (2-3 us less per round trip than a blocking read on the H100)
    check_cl(clEnqueueReadBuffer(c.queue, src, CL_FALSE, off, bytes, s.small_ptr, 0, nullptr,
                                 &ev),
             "device-to-host copy");
    cl_int err = clWaitForEvents(1, &ev);
    if (err != CL_SUCCESS) clReleaseEvent(ev);
    check_cl(err, "device-to-host copy");
    std::memcpy(dst, s.small_ptr, bytes);
    if (c.profile) c.track(ev, "[read device->host]", bytes);
    else clReleaseEvent(ev);
    s.stats.small_reads++;
    return;
  }
  check_cl(clEnqueueReadBuffer(c.queue, src, CL_TRUE, off, bytes, dst, 0, nullptr,
                               c.profile ? &ev : nullptr),
           "device-to-host copy");
  c.track(ev, "[read device->host]", bytes);
  s.stats.direct_reads++;
}

void advise_host_buffer(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Filling a fresh large allocation is mostly page faults on first touch;
  // transparent huge pages made that about 5x cheaper where THP is in
  // "madvise" mode (Debian/Ubuntu default). $ARRC_HUGEPAGES=0 turns it off.
  static const bool enabled = [] {
    const char* v = std::getenv("ARRC_HUGEPAGES");
    return !(v && std::strcmp(v, "0") == 0);
  }();
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  if (!enabled || bytes < 4 * kHuge) return;
  uintptr_t a = reinterpret_cast<uintptr_t>(p), e = a + bytes;
  uintptr_t lo = (a + kHuge - 1) & ~(kHuge - 1), hi = e & ~(kHuge - 1);
  if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace arrc::detail

namespace arrc {

TransferConfig Context::transfer_config() const {
  const auto& s = impl_->staging;
  TransferConfig t;
  t.staged = s.enabled && !s.ring_failed;
  t.min_staged_bytes = s.min_bytes;
  t.chunk_bytes = s.chunk;
  t.chunks = s.slots.empty() ? s.slots_wanted : static_cast<int>(s.slots.size());
  t.threads = s.copier ? s.copier->threads() : s.threads;
  return t;
}

TransferStats Context::transfer_stats() const {
  const auto held = lock();
  return impl_->staging.stats;
}

}  // namespace arrc
