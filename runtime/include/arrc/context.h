// arrc runtime: the OpenCL context, program cache, buffer pool, kernel launch
// and the device error buffer.
//
// One arrc::Context = one OpenCL device + one in-order command queue. All
// work is enqueued in order on that queue; only reads back to the host block.
// Threads (docs/runtime.md, "Threads"): a Context may be shared. Each of its
// member functions, each primitive and each call of a generated export holds
// the Context's lock (lock(), recursive) for its duration, so calls on one
// Context run one at a time, and a device error is reported to the call that
// raised it. Separate Contexts run concurrently. Code that sets kernel
// arguments itself (clSetKernelArg, then enqueue) must hold lock() around both.
#pragma once

#include <arrc/error.h>
#include <arrc/opencl.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace arrc {

namespace detail {
struct ContextImpl;
}

// ---------------------------------------------------------------------------
// Program sources

// OpenCL C source text plus build options. Make these `static` objects in
// generated code: the (128-bit) hash of source+options is computed once at
// construction and every object gets a process-unique id, so
// Context::kernel(ps, name) after the first call is a hash-map lookup on the
// id (no string hashing). The runtime always adds "-cl-std=CL1.2" to the
// options; double kernels must contain
//   #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// (check Context::supports_fp64() first to report a clear error).
class ProgramSource {
public:
  explicit ProgramSource(std::string source, std::string options = {});
  ProgramSource(const ProgramSource&) = delete;
  ProgramSource& operator=(const ProgramSource&) = delete;

  const std::string& source() const { return source_; }
  const std::string& options() const { return options_; }
  uint64_t id() const { return id_; }
  // 128-bit FNV-based hash of source and options (used for the disk cache).
  const std::array<uint64_t, 2>& hash() const { return hash_; }

private:
  std::string source_, options_;
  uint64_t id_;
  std::array<uint64_t, 2> hash_;
};

// ---------------------------------------------------------------------------
// Device buffers (pooled)

// A device allocation owned by the context's buffer pool. When the last
// shared_ptr to it goes away the cl_mem returns to the pool's free list for
// its size class (and is reused by a later alloc of a fitting size). A
// Buffer keeps the context's device state alive, so arrays may outlive the
// Context object (the profile report is still printed at ~Context).
class Buffer {
public:
  Buffer(std::shared_ptr<detail::ContextImpl> owner, cl_mem mem, size_t bytes,
         size_t capacity);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  cl_mem mem() const { return mem_; }
  size_t bytes() const { return bytes_; }        // requested size
  size_t capacity() const { return capacity_; }  // size-class size (>= bytes)
  detail::ContextImpl& owner() const { return *owner_; }
  const std::shared_ptr<detail::ContextImpl>& owner_ptr() const { return owner_; }

private:
  std::shared_ptr<detail::ContextImpl> owner_;
  cl_mem mem_;
  size_t bytes_, capacity_;
};
using BufferPtr = std::shared_ptr<Buffer>;

// ---------------------------------------------------------------------------
// Launch helpers

// Global / local work size of 1 to 3 dimensions. A default-constructed
// NDRange as local size means "let the implementation choose" (NULL).
struct NDRange {
  size_t dims = 0;
  size_t v[3] = {1, 1, 1};
  NDRange() = default;
  NDRange(size_t x) : dims(1), v{x, 1, 1} {}
  NDRange(size_t x, size_t y) : dims(2), v{x, y, 1} {}
  NDRange(size_t x, size_t y, size_t z) : dims(3), v{x, y, z} {}
};

// A __local kernel argument of `bytes` bytes.
struct LocalMem {
  size_t bytes;
};

// Rounds n up to a multiple of m (m > 0). Kernels launched with a rounded-up
// global size must guard with `if (get_global_id(0) >= n) return;`.
inline size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

namespace detail {
template <class A, class = void>
struct has_buffer : std::false_type {};
template <class A>
struct has_buffer<A, std::void_t<decltype(std::declval<const A&>().buffer())>>
    : std::true_type {};
void set_kernel_arg(cl_kernel k, cl_uint index, size_t size, const void* value);
}  // namespace detail

// ---------------------------------------------------------------------------
// Context

struct ContextOptions {
  // Device selection: case-insensitive substring of the platform or device
  // name. Empty: use $ARRC_DEVICE; if that is unset too, the first GPU of any
  // platform, else the first CPU device, else the first device.
  std::string device;
  // Disk cache directory. Empty: $ARRC_CACHE_DIR, else $XDG_CACHE_HOME/arrc,
  // else ~/.cache/arrc. "-" disables the disk cache.
  std::string cache_dir;
  // Profiling: -1 = from $ARRC_PROFILE (set and not "0"), 0 = off, 1 = on.
  int profile = -1;
  // Among the devices the rule above chooses from (those matching the
  // substring; without one, the GPUs, else the CPU devices), the one at this
  // index modulo their number. -1: the first. arrc::Cluster passes each
  // rank's local rank here: one device per rank of a host.
  int device_index = -1;
};

struct CacheStats {
  uint64_t memory_hits = 0;    // kernel()/program() calls served from memory
  uint64_t disk_hits = 0;      // programs loaded from an on-disk binary
  uint64_t builds = 0;         // programs compiled from source
  uint64_t disk_writes = 0;    // binaries written to disk
  uint64_t disk_rejected = 0;  // corrupt/stale cache files ignored (then rewritten)
};

// How host <-> device transfers are made (fixed when the Context is created;
// docs/runtime.md, "Transfers", describes the design and the knobs).
struct TransferConfig {
  bool staged = false;         // large transfers go through pinned staging chunks
  size_t min_staged_bytes = 0; // ... from this size on ($ARRC_PINNED_MIN)
  size_t chunk_bytes = 0;      // largest chunk, one pinned buffer each ($ARRC_STAGING_CHUNK)
  int chunks = 0;              // pinned buffers in the ring ($ARRC_STAGING_CHUNKS)
  int threads = 0;             // host threads copying to/from them ($ARRC_STAGING_THREADS)
};

struct TransferStats {
  uint64_t direct_writes = 0, direct_reads = 0;  // from/to the caller's memory
  uint64_t staged_writes = 0, staged_reads = 0;  // through the pinned chunks
  uint64_t staged_chunks = 0;                    // DMAs made by staged transfers
  uint64_t small_reads = 0;                      // reads of <= 4 KiB through pinned memory
};

struct PoolStats {
  uint64_t allocations = 0;   // clCreateBuffer calls
  uint64_t reuses = 0;        // allocs served from the free lists
  size_t cached_bytes = 0;    // bytes sitting in the free lists
  size_t live_bytes = 0;      // bytes handed out and not yet returned
};

class Context {
public:
  Context();
  explicit Context(const ContextOptions& options);
  ~Context();  // prints the profile report when profiling is on
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // --- device ---------------------------------------------------------------
  cl_context context() const;
  cl_device_id device() const;
  cl_command_queue queue() const;
  std::string device_name() const;
  std::string platform_name() const;
  std::string driver_version() const;
  std::string describe() const;  // "device name (platform name, driver x)"
  bool is_gpu() const;
  // Whether generated map kernels run their CPU tile schedule (CPU devices,
  // unless ARRC_MAP_LANES=0; programs are then built with -DARRC_NO_MAP_LANES).
  bool map_lanes() const;
  // Whether generated map nests whose elements each run a loop (dgemm's dot
  // products) compute a tile of elements per work-item on GPUs (rows of the
  // tile consecutive, columns a warp apart), given the number of tiles:
  // GPUs with at least 128 tiles per compute unit, unless ARRC_GPU_LANES=0;
  // ARRC_GPU_LANES=1 whatever the number (on a CPU device too).
  bool gpu_lanes(int64_t tiles) const;
  // Whether generated map kernels without loops run their CPU schedule, a
  // block of elements per work-item (CPU devices, unless ARRC_MAP_CHUNKS=0;
  // programs are then built with -DARRC_NO_MAP_CHUNKS).
  bool map_chunks() const;
  // Whether generated map kernels stage rows in local memory (GPUs;
  // ARRC_STAGE_ROWS=1 or 0 forces it; forced on a CPU device, programs are
  // built with -DARRC_CPU_STAGING).
  bool stage_rows() const;
  // Whether generated code runs a map and the histograms that read it in one
  // pass over the items (CPU devices: the map's outputs are never stored),
  // or as the map, then each histogram (GPUs: their schedules avoid the
  // conflicts of items of one warp adding to the same bins). ARRC_ITEMS_ONE_PASS=1
  // or 0 forces it (tests run both plans on PoCL).
  bool items_in_one_pass() const;
  // Whether generated code folds the inner level of a two-level expansion
  // (a generator chain's last range, e.g. Pythagorean triples' z) in a loop
  // per outer element (CPU devices: no second size scan, the loop
  // vectorises), or flattens it (GPUs: the work of short and long inner
  // ranges balances across a warp). ARRC_INNER_LOOPS=1 or 0 forces it.
  bool inner_loops_sequential() const;
  // The most bins (keys from the smallest to the largest) for which generated
  // code groups reduce_by_key by a histogram rather than by sorting: 2^23
  // on GPUs (H100, 10^8 pairs: the histogram 1.1-5.5 ms from 10^3 to 4e6
  // keys against the sort's 7-9 ms, 10.9 against 9.4 at 1.6e7 keys); 2^17
  // on CPUs, where a histogram's private copies cost more beyond that
  // (docs/lowering.md). ARRC_GROUP_BY_HIST_BINS=n sets it (0: always sort).
  int64_t group_by_hist_bins() const;
  // The count above which a generated map's element that sums over an
  // irregular range (CSR SpMV's rows) is shared by its work-group's 256
  // work-items instead of one (GPUs: 128); 0: never. ARRC_LONG_ROWS=0 turns
  // it off, =n sets it (on a CPU device too, built with -DARRC_CPU_LONG_ROWS).
  int64_t long_row_min() const;
  // Into how many chunks generated code splits the loop of a map whose
  // elements each sum over the same long range (`[count(\x -> x == c, ids) |
  // c <- iota(k)]`: k work-items would walk all of ids), each chunk summed by
  // its own work-item, then the chunks' sums per element (lowering's
  // SplitLongLoops.cpp): 0 or 1 = not split. GPUs: enough chunks for 4096
  // work-items per compute unit when there are fewer than 512 elements per
  // compute unit, each chunk at least 256 steps; CPUs: never.
  // ARRC_SPLIT_LOOPS=0 never splits, =n always n chunks (tests on PoCL).
  int64_t loop_chunks(int64_t elements, int64_t count) const;
  bool supports_fp64() const;
  size_t max_alloc_bytes() const;      // CL_DEVICE_MAX_MEM_ALLOC_SIZE
  size_t global_mem_bytes() const;
  size_t max_work_group_size() const;
  size_t compute_units() const;
  size_t local_mem_bytes() const;

  // --- programs and kernels -------------------------------------------------
  // Built once per context (memory cache by ProgramSource::id) and stored on
  // disk keyed by hash(source, options, device, platform, driver version).
  // Build failures throw arrc::Error containing the build log.
  cl_program program(const ProgramSource& src);
  // Cached cl_kernel of a program (owned by the context; do not release).
  cl_kernel kernel(const ProgramSource& src, const char* name);
  // Same, for source text built at run time (cached by the text itself).
  cl_kernel kernel(const std::string& source, const std::string& options,
                   const char* name);
  CacheStats cache_stats() const;

  // --- launching ------------------------------------------------------------
  // Sets the arguments in order and enqueues the kernel. Each argument is
  //   cl_mem                         -> a buffer argument
  //   anything with .buffer()        -> its cl_mem (arrc::Array, pass shape
  //                                     and weights as separate scalars)
  //   BufferPtr / const Buffer&      -> its cl_mem
  //   LocalMem{bytes}                -> a __local buffer
  //   trivially copyable scalar/struct -> by value (sizeof must match the
  //                                     OpenCL C type: int32_t=int,
  //                                     int64_t=long, float, double, ...)
  // local = NDRange() lets the implementation choose.
  template <class... Args>
  void launch(cl_kernel k, const NDRange& global, const NDRange& local,
              const Args&... args) {
    const auto held = lock();  // the kernel's arguments are shared state
    cl_uint i = 0;
    (set_arg(k, i++, args), ...);
    enqueue(k, global, local);
  }
  // Enqueue with arguments already set (clSetKernelArg).
  void enqueue(cl_kernel k, const NDRange& global, const NDRange& local = {});

  // --- memory ---------------------------------------------------------------
  // Pooled allocation (uninitialised). Throws "out of device memory: ..." when
  // bytes > max_alloc_bytes() or the device cannot allocate.
  BufferPtr alloc(size_t bytes);
  // Host -> device: returns once `src` may be reused (the last DMAs of a
  // staged write may still be running; later work on the queue waits for them).
  void write(cl_mem dst, size_t dst_offset, size_t bytes, const void* src);
  // Device -> host: returns with the data in `dst` (blocking).
  void read(cl_mem src, size_t src_offset, size_t bytes, void* dst);
  void copy(cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset, size_t bytes);
  void fill(cl_mem dst, const void* pattern, size_t pattern_size, size_t offset, size_t bytes);
  void fill_zero(cl_mem dst, size_t offset, size_t bytes);
  void finish();
  void trim_pool();  // release all cached free buffers
  PoolStats pool_stats() const;
  TransferConfig transfer_config() const;
  TransferStats transfer_stats() const;
  // Kernels enqueued so far (primitives and generated kernels alike), and
  // reads the host waited for (round trips): the per-call cost of small inputs.
  uint64_t launch_count() const;
  uint64_t blocking_read_count() const;

  // --- device-side errors ---------------------------------------------------
  // A small __global long[8] record: [0] code (the low 32 bits are the
  // first-error-wins flag), [1] position id, [2] index, [3] extent, [4] axis.
  // Pass it to kernels that include kernel_prelude() and may raise.
  cl_mem error_buffer() const;
  // Reads the record (one small blocking read). If a kernel raised an error,
  // resets the record and throws arrc::Error formatted with
  // positions[pos_id] ("file:line:col") as prefix. The context stays usable.
  void check_errors(const char* const* positions = nullptr, size_t count = 0);
  // read() of a small result (a reduction's), then check_errors(), in one
  // round trip when bytes <= kCheckedReadMax.
  static constexpr size_t kCheckedReadMax = 192;
  void read_checked(cl_mem src, size_t off, size_t bytes, void* dst,
                    const char* const* positions = nullptr, size_t count = 0);

  // --- profiling ------------------------------------------------------------
  bool profiling() const;
  // Per-kernel and per-transfer totals (waits for the queue).
  std::string profile_report();

  // --- threads --------------------------------------------------------------
  // The Context's (recursive) lock: held by every member function, primitive
  // and generated export for its duration. Hold it to make several calls
  // atomic with respect to other threads using this Context.
  std::unique_lock<std::recursive_mutex> lock() const;

  detail::ContextImpl& impl() const { return *impl_; }
  const std::shared_ptr<detail::ContextImpl>& impl_ptr() const { return impl_; }

private:
  template <class A>
  static void set_arg(cl_kernel k, cl_uint i, const A& a) {
    if constexpr (std::is_same_v<A, cl_mem>) {
      detail::set_kernel_arg(k, i, sizeof(cl_mem), &a);
    } else if constexpr (std::is_same_v<A, LocalMem>) {
      detail::set_kernel_arg(k, i, a.bytes, nullptr);
    } else if constexpr (std::is_same_v<A, BufferPtr>) {
      cl_mem m = a->mem();
      detail::set_kernel_arg(k, i, sizeof(cl_mem), &m);
    } else if constexpr (std::is_same_v<A, Buffer>) {
      cl_mem m = a.mem();
      detail::set_kernel_arg(k, i, sizeof(cl_mem), &m);
    } else if constexpr (detail::has_buffer<A>::value) {
      cl_mem m = a.buffer();
      detail::set_kernel_arg(k, i, sizeof(cl_mem), &m);
    } else {
      static_assert(std::is_trivially_copyable_v<A>,
                    "kernel arguments must be cl_mem, Arrays, LocalMem or "
                    "trivially copyable values");
      static_assert(!std::is_pointer_v<A>, "pass cl_mem, not host pointers");
      detail::set_kernel_arg(k, i, sizeof(A), &a);
    }
  }
  std::shared_ptr<detail::ContextImpl> impl_;
};

// OpenCL C helper snippet for generated kernels (include it once at the top
// of a program). Defines ARRC_ERR_* codes and
//   void arrc_raise(__global long* err, int code, int pos, long index, long extent, long axis);
//   void arrc_raise_bounds(__global long* err, int pos, long index, long extent, int axis);
//   int  arrc_in_bounds(__global long* err, int pos, long index, long extent, int axis);
//        (returns 1 if 0 <= index < extent, else raises and returns 0)
// The first error raised wins (atomic_cmpxchg on the 32-bit flag).
const char* kernel_prelude();

}  // namespace arrc
