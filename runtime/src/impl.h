// Private: the state behind arrc::Context (shared with Buffers).
#pragma once

#include <arrc/context.h>

#include "transfer.h"

#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace arrc::detail {

struct ProgramEntry {
  cl_program program = nullptr;
  std::vector<std::pair<std::string, cl_kernel>> kernels;
};

struct ProfileEvent {
  std::string name;
  cl_event event;
  size_t bytes;
};

struct ContextImpl {
  // Context::lock(): one call at a time per Context (docs/runtime.md, "Threads")
  std::recursive_mutex call_mutex;
  uint64_t launches = 0;  // Context::launch_count()
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::string device_name, platform_name, driver_version, device_version;
  bool gpu = false, fp64 = false, unified_memory = false;
  bool map_lanes = false; // !gpu and !gpu_lanes, unless ARRC_MAP_LANES=0
  bool gpu_lanes = false; // gpu, unless ARRC_GPU_LANES=0
  bool gpu_lanes_forced = false; // ARRC_GPU_LANES=1: whatever the size
  bool map_chunks = false; // !gpu, unless ARRC_MAP_CHUNKS=0
  bool stage_rows = false; // gpu, unless ARRC_STAGE_ROWS forces it on or off
  bool items_in_one_pass = false; // !gpu, unless ARRC_ITEMS_ONE_PASS forces it
  bool inner_loops_sequential = false; // !gpu, unless ARRC_INNER_LOOPS forces it
  int64_t group_by_hist_bins = 0;      // 2^23 on GPUs, 2^17 on CPUs, or ARRC_GROUP_BY_HIST_BINS
  int64_t long_row_min = 0; // gpu: 128, unless ARRC_LONG_ROWS sets it (0: off)
  int64_t split_loops = -1; // ARRC_SPLIT_LOOPS: 0 never split, n > 0 always n chunks; -1 by the device (loop_chunks)
  // NVIDIA compute capability >= 7 (cl_nv_device_attribute_query): the
  // primitives may use warp shuffles/ballots through inline PTX (see
  // kernels.h, ARRC_NV). $ARRC_NV_WARP=0 turns it off (for A/B benchmarks).
  bool nv_warp = false;
  size_t max_alloc = 0, global_mem = 0, max_wg = 0, compute_units = 0, local_mem = 0;
  std::string cache_dir;  // empty: disabled
  bool profile = false;
  // stage transfers through pinned memory even on unified-memory devices
  // ($ARRC_FORCE_PINNED=1: lets the tests cover that path on PoCL)
  bool force_pinned = false;

  // program cache
  std::unordered_map<uint64_t, ProgramEntry> programs;         // by ProgramSource id
  std::unordered_map<std::string, std::unique_ptr<ProgramSource>> dynamic_sources;  // by text
  // the primitives' programs by a short key (program() in primitives.cpp)
  std::unordered_map<std::string, const ProgramSource*> primitive_programs;
  CacheStats stats;

  // pool
  std::mutex pool_mutex;
  std::map<size_t, std::vector<cl_mem>> free_lists;  // capacity -> buffers
  PoolStats pool;

  // errors
  cl_mem err_buf = nullptr;

  // look-back state of the single-pass scans (see scan_state() in
  // primitives.cpp): tile counter, aggregate and inclusive-prefix words
  // (capacity in 64-bit words each), and the epoch of the last launch.
  cl_mem scan_ctl = nullptr, scan_aggs = nullptr, scan_incs = nullptr;
  size_t scan_words = 0;
  uint32_t scan_epoch = 0;

  // pinned staging of host transfers (transfer.h)
  Staging staging;

  // profiling
  std::vector<ProfileEvent> events;
  struct Totals { uint64_t count = 0; double ms = 0; double bytes = 0; };
  std::map<std::string, Totals> totals;

  ~ContextImpl();

  // the one ProgramSource of this text and options in this context
  const ProgramSource& intern(const std::string& source, const std::string& options);
  cl_program get_program(const ProgramSource& src);
  cl_kernel get_kernel(const ProgramSource& src, const char* name);
  cl_program build(const ProgramSource& src);
  void release_to_pool(cl_mem m, size_t capacity, size_t bytes);
  void track(cl_event ev, const char* name, size_t bytes);  // takes ownership of ev
  void drain_events();
  std::string report();
  void trim();
};

size_t size_class(size_t bytes);
// Host transfers (transfer.cpp). host_write returns once `src` may be reused
// (a staged write's last DMAs may still run: the queue is in order);
// host_read returns with the data in `dst`.
void host_write(ContextImpl& c, cl_mem dst, size_t off, size_t bytes, const void* src);
void host_read(ContextImpl& c, cl_mem src, size_t off, size_t bytes, void* dst);
std::string kernel_name_of(cl_kernel k);

}  // namespace arrc::detail
