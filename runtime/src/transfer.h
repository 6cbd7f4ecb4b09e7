// Private: host <-> device transfers through pinned staging buffers
// (implemented in transfer.cpp; the design is in docs/runtime.md, "Transfers").
//
// A DMA engine reads and writes pinned (page-locked) host memory at the full
// speed of the host link; from pageable memory the driver copies through its
// own small buffers and reaches a fraction of it. Large transfers therefore
// go through a ring of pinned chunks: host threads copy chunk k+1 into the
// ring while the DMA of chunk k runs (writes), or copy chunk k out while the
// DMAs of the next chunks run (reads).
#pragma once

#include <arrc/context.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace arrc::detail {

// memcpy split across a few helper threads; the calling thread copies too.
// A copy is cut into parts of at least `min_part` bytes, which the threads
// claim one at a time, so a helper that is slow to wake costs nothing: the
// others take its parts. Between begin() and end() (one transfer) idle
// helpers spin for the next copy, which then starts within a microsecond;
// otherwise they sleep. Used by one thread at a time (the Context's).
class HostCopier {
public:
  HostCopier(int threads, size_t min_part);
  ~HostCopier();
  HostCopier(const HostCopier&) = delete;
  HostCopier& operator=(const HostCopier&) = delete;

  void copy(void* dst, const void* src, size_t bytes);
  void begin();  // a transfer starts: keep the helpers awake
  void end();    // it ended: let them sleep
  int threads() const { return threads_; }

private:
  void start_helpers();
  void helper();
  bool copy_one_part();
  bool has_work() const;

  int threads_;  // including the caller
  size_t min_part_;
  std::vector<std::thread> helpers_;
  // the current copy; written by the caller only while no part is claimable
  // or in flight, read by a helper only after it claimed a part
  char* dst_ = nullptr;
  const char* src_ = nullptr;
  size_t bytes_ = 0, part_ = 0;
  std::atomic<uint64_t> claim_{0};  // (number of parts << 32) | next part to claim
  std::atomic<uint32_t> done_{0};   // parts copied
  std::atomic<bool> awake_{false}, stop_{false};
  std::atomic<int> sleepers_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
};

// The staging state of a context: configuration from the environment (read
// at construction), the pinned ring (made on the first staged transfer), a
// small pinned buffer for short reads, the copier and the counters.
struct Staging {
  struct Slot {
    cl_mem mem = nullptr;
    void* ptr = nullptr;          // mapped once, for the context's lifetime
    cl_event pending = nullptr;   // the last DMA using this slot
  };
  bool enabled = false;           // stage transfers of >= min_bytes
  size_t min_bytes = size_t{1} << 20;
  size_t chunk = size_t{8} << 20;
  int slots_wanted = 4;
  int threads = 1;
  size_t min_part = size_t{256} << 10;  // smallest share of a copy per thread
  bool ring_failed = false, small_failed = false;
  std::vector<Slot> slots;
  size_t next_slot = 0;
  cl_mem small_mem = nullptr;
  void* small_ptr = nullptr;
  std::unique_ptr<HostCopier> copier;
  TransferStats stats;
};

struct ContextImpl;
// Reads the ARRC_* transfer knobs and decides whether this device stages.
void init_staging(ContextImpl& c);
// Waits for the DMAs still using the ring, unmaps and releases it.
void release_staging(ContextImpl& c);
// (offset, size) of each chunk of a staged transfer of `bytes`: sizes from
// `first` doubling up to `chunk`, halving again toward the end.
std::vector<std::pair<size_t, size_t>> chunk_plan(size_t bytes, size_t chunk, size_t first);

}  // namespace arrc::detail
