// arrc runtime: strided copies and host transfers of array views.
#include <arrc/array.h>

#include "impl.h"

namespace arrc::detail {

namespace {
const char* kStridedSrc = R"CLC(
typedef struct { long shape[8]; long sw[8]; long dw[8]; long soff; long doff; long n; long rank; } arrc_copy_desc;
#define ARRC_STRIDED(NAME, T) \
__kernel void NAME(__global const T* src, __global T* dst, arrc_copy_desc d) { \
  long i = get_global_id(0); \
  if (i >= d.n) return; \
  long rem = i, so = d.soff, dof = d.doff; \
  for (int k = (int)d.rank - 1; k >= 0; --k) { \
    long e = d.shape[k]; long idx = rem % e; rem /= e; \
    so += idx * d.sw[k]; dof += idx * d.dw[k]; \
  } \
  dst[dof] = src[so]; \
}
ARRC_STRIDED(arrc_strided_copy_1, uchar)
ARRC_STRIDED(arrc_strided_copy_2, ushort)
ARRC_STRIDED(arrc_strided_copy_4, uint)
ARRC_STRIDED(arrc_strided_copy_8, ulong)
ARRC_STRIDED(arrc_strided_copy_16, ulong2)
)CLC";

struct CopyDesc {
  int64_t shape[8], sw[8], dw[8], soff, doff, n, rank;
};

bool dense(int rank, const int64_t* shape, const int64_t* w) {
  int64_t acc = 1;
  for (int k = rank - 1; k >= 0; --k) {
    if (shape[k] > 1 && w[k] != acc) return false;
    acc *= shape[k];
  }
  return true;
}
int64_t count(int rank, const int64_t* shape) {
  int64_t n = 1;
  for (int k = 0; k < rank; ++k) n *= shape[k];
  return n;
}
}  // namespace

void fill_zero(ContextImpl& c, cl_mem m, size_t off, size_t bytes) {
  const std::lock_guard<std::recursive_mutex> held(c.call_mutex);  // Context::lock()
  if (bytes == 0) return;
  uint8_t z = 0;
  check_cl(clEnqueueFillBuffer(c.queue, m, &z, 1, off, bytes, 0, nullptr, nullptr),
           "clEnqueueFillBuffer");
}

int64_t triplet_count(const Sel& s, int64_t extent, int axis, const std::string& pos) {
  if (s.step == 0) throw Error((pos.empty() ? "" : pos + ": ") + std::string("section step is 0"));
  int64_t n;
  if (s.step > 0)
    n = s.last >= s.first ? (s.last - s.first) / s.step + 1 : 0;
  else
    n = s.first >= s.last ? (s.first - s.last) / (-s.step) + 1 : 0;
  if (n > 0) {
    int64_t lastv = s.first + (n - 1) * s.step;
    if (s.first < 0 || s.first >= extent)
      throw Error(format_error(ErrorCode::section, pos, s.first, extent, axis));
    if (lastv < 0 || lastv >= extent)
      throw Error(format_error(ErrorCode::section, pos, s.last, extent, axis));
  }
  return n;
}

void strided_copy(ContextImpl& c, size_t es, int rank, const int64_t* shape, cl_mem src,
                  const int64_t* sw, cl_mem dst, const int64_t* dw) {
  const std::lock_guard<std::recursive_mutex> held(c.call_mutex);  // Context::lock()
  int64_t n = count(rank, shape);
  if (n == 0) return;
  if (rank > 8 && !(dense(rank, shape, sw) && dense(rank, shape, dw))) {
    // the kernel's descriptor holds 8 axes: above that, one copy per index of
    // the outermost axis (arrays of rank 9 and more are rare)
    std::vector<int64_t> isw(sw + 1, sw + rank + 1), idw(dw + 1, dw + rank + 1);
    for (int64_t i = 0; i < shape[0]; ++i) {
      isw[rank - 1] = sw[rank] + i * sw[0];
      idw[rank - 1] = dw[rank] + i * dw[0];
      strided_copy(c, es, rank - 1, shape + 1, src, isw.data(), dst, idw.data());
    }
    return;
  }
  if (dense(rank, shape, sw) && dense(rank, shape, dw)) {
    cl_event ev = nullptr;
    check_cl(clEnqueueCopyBuffer(c.queue, src, dst, sw[rank] * es, dw[rank] * es, n * es, 0,
                                 nullptr, c.profile ? &ev : nullptr),
             "device-to-device copy");
    c.track(ev, "[copy device->device]", 2 * n * es);
    return;
  }
  static ProgramSource prog(kStridedSrc);
  const char* name = nullptr;
  switch (es) {
    case 1: name = "arrc_strided_copy_1"; break;
    case 2: name = "arrc_strided_copy_2"; break;
    case 4: name = "arrc_strided_copy_4"; break;
    case 8: name = "arrc_strided_copy_8"; break;
    case 16: name = "arrc_strided_copy_16"; break;
    default: throw Error("strided copy: unsupported element size " + std::to_string(es));
  }
  cl_kernel k = c.get_kernel(prog, name);
  CopyDesc d{};
  for (int i = 0; i < rank; ++i) {
    d.shape[i] = shape[i];
    d.sw[i] = sw[i];
    d.dw[i] = dw[i];
  }
  d.soff = sw[rank];
  d.doff = dw[rank];
  d.n = n;
  d.rank = rank;
  set_kernel_arg(k, 0, sizeof(cl_mem), &src);
  set_kernel_arg(k, 1, sizeof(cl_mem), &dst);
  set_kernel_arg(k, 2, sizeof d, &d);
  // work-groups of 256 (the kernel returns past n): left to the
  // implementation, the group size must divide n, and a prime n got groups
  // of one work-item
  size_t l = 256, g = (static_cast<size_t>(n) + l - 1) / l * l;
  cl_event ev = nullptr;
  check_cl(clEnqueueNDRangeKernel(c.queue, k, 1, nullptr, &g, &l, 0, nullptr,
                                  c.profile ? &ev : nullptr),
           "launching arrc_strided_copy");
  c.track(ev, name, 2 * n * es);
}

void read_view(ContextImpl& c, size_t es, int rank, const int64_t* shape, cl_mem src,
               const int64_t* w, void* dst) {
  const std::lock_guard<std::recursive_mutex> held(c.call_mutex);  // Context::lock()
  int64_t n = count(rank, shape);
  if (n == 0) return;
  if (dense(rank, shape, w)) {
    host_read(c, src, w[rank] * es, n * es, dst);
    return;
  }
  std::vector<int64_t> cw(rank + 1);
  int64_t acc = 1;
  for (int k = rank - 1; k >= 0; --k) {
    cw[k] = acc;
    acc *= shape[k];
  }
  cw[rank] = 0;
  cl_int err = CL_SUCCESS;
  cl_mem tmp = clCreateBuffer(c.context, CL_MEM_READ_WRITE, n * es, nullptr, &err);
  check_cl(err, "allocating a staging buffer");
  try {
    strided_copy(c, es, rank, shape, src, w, tmp, cw.data());
    host_read(c, tmp, 0, n * es, dst);
  } catch (...) {
    clReleaseMemObject(tmp);
    throw;
  }
  clReleaseMemObject(tmp);
}

void write_view(ContextImpl& c, size_t es, int rank, const int64_t* shape, cl_mem dst,
                const int64_t* w, const void* src) {
  const std::lock_guard<std::recursive_mutex> held(c.call_mutex);  // Context::lock()
  int64_t n = count(rank, shape);
  if (n == 0) return;
  if (dense(rank, shape, w)) {
    host_write(c, dst, w[rank] * es, n * es, src);
    return;
  }
  std::vector<int64_t> cw(rank + 1);
  int64_t acc = 1;
  for (int k = rank - 1; k >= 0; --k) {
    cw[k] = acc;
    acc *= shape[k];
  }
  cw[rank] = 0;
  cl_int err = CL_SUCCESS;
  cl_mem tmp = clCreateBuffer(c.context, CL_MEM_READ_WRITE, n * es, nullptr, &err);
  check_cl(err, "allocating a staging buffer");
  try {
    host_write(c, tmp, 0, n * es, src);
    strided_copy(c, es, rank, shape, tmp, cw.data(), dst, w);
    clFinish(c.queue);
  } catch (...) {
    clReleaseMemObject(tmp);
    throw;
  }
  clReleaseMemObject(tmp);
}

}  // namespace arrc::detail
