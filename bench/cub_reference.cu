// CUB reference for arrc_bench_runtime (see cub_reference.h).
#include "cub_reference.h"

#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace arrc_cub {

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

// A device buffer of `bytes` (freed at scope exit).
struct Dev {
  void* p = nullptr;
  explicit Dev(size_t bytes) { check(cudaMalloc(&p, std::max<size_t>(bytes, 1)), "cudaMalloc"); }
  ~Dev() { cudaFree(p); }
  Dev(Dev&& o) noexcept : p(o.p) { o.p = nullptr; }
  Dev(const Dev&) = delete;
  Dev& operator=(const Dev&) = delete;
  Dev& operator=(Dev&&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

Dev upload(const void* h, size_t bytes) {
  Dev d(bytes);
  if (bytes) check(cudaMemcpy(d.p, h, bytes, cudaMemcpyHostToDevice), "upload");
  return d;
}
void download(void* h, const Dev& d, size_t bytes) {
  if (bytes) check(cudaMemcpy(h, d.p, bytes, cudaMemcpyDeviceToHost), "download");
}

// Median ms of reps runs of f (after one untimed warm-up run).
template <class F>
double timed(int reps, F f) {
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "event");
  check(cudaEventCreate(&b), "event");
  f();
  check(cudaDeviceSynchronize(), "warm-up");
  std::vector<float> t;
  for (int r = 0; r < std::max(reps, 1); ++r) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    check(cudaEventSynchronize(b), "run");
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Temporary storage of a CUB call: size query, then allocation.
template <class F>
Dev temp_for(F f) {
  size_t bytes = 0;
  check(f(nullptr, bytes), "temp storage size");
  return Dev(bytes);
}

struct GreaterZero {
  template <class T>
  __host__ __device__ bool operator()(const T& x) const {
    return x > T(0);
  }
};

template <class T>
double reduce_t(const void* in, int64_t n, int reps, void* result) {
  Dev d = upload(in, n * sizeof(T)), out(sizeof(T));
  auto call = [&](void* tmp, size_t& bytes) {
    return cub::DeviceReduce::Sum(tmp, bytes, d.as<T>(), out.as<T>(), n);
  };
  Dev tmp = temp_for(call);
  size_t tb = 0;
  call(nullptr, tb);
  double ms = timed(reps, [&] { check(call(tmp.p, tb), "DeviceReduce::Sum"); });
  download(result, out, sizeof(T));
  return ms;
}

template <class T>
double scan_t(const void* in, int64_t n, int reps, void* outh) {
  Dev d = upload(in, n * sizeof(T)), out(n * sizeof(T));
  auto call = [&](void* tmp, size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(tmp, bytes, d.as<T>(), out.as<T>(), n);
  };
  Dev tmp = temp_for(call);
  size_t tb = 0;
  call(nullptr, tb);
  double ms = timed(reps, [&] { check(call(tmp.p, tb), "DeviceScan::InclusiveSum"); });
  download(outh, out, n * sizeof(T));
  return ms;
}

template <class T>
double select_t(const void* in, int64_t n, int reps, void* outh, int64_t* count) {
  Dev d = upload(in, n * sizeof(T)), out(n * sizeof(T)), cnt(sizeof(int64_t));
  auto call = [&](void* tmp, size_t& bytes) {
    return cub::DeviceSelect::If(tmp, bytes, d.as<T>(), out.as<T>(), cnt.as<int64_t>(), n,
                                 GreaterZero());
  };
  Dev tmp = temp_for(call);
  size_t tb = 0;
  call(nullptr, tb);
  double ms = timed(reps, [&] { check(call(tmp.p, tb), "DeviceSelect::If"); });
  download(count, cnt, sizeof(int64_t));
  download(outh, out, *count * sizeof(T));
  return ms;
}

template <class T>
double sort_keys_t(const void* in, int64_t n, int reps, void* outh) {
  Dev d = upload(in, n * sizeof(T)), out(n * sizeof(T));
  auto call = [&](void* tmp, size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(tmp, bytes, d.as<T>(), out.as<T>(), n);
  };
  Dev tmp = temp_for(call);
  size_t tb = 0;
  call(nullptr, tb);
  double ms = timed(reps, [&] { check(call(tmp.p, tb), "DeviceRadixSort::SortKeys"); });
  download(outh, out, n * sizeof(T));
  return ms;
}

template <class T>
double sort_pairs_t(const void* keys, const int32_t* vals, int64_t n, int reps, void* kouth,
                    int32_t* vouth) {
  Dev dk = upload(keys, n * sizeof(T)), dv = upload(vals, n * 4), ko(n * sizeof(T)), vo(n * 4);
  auto call = [&](void* tmp, size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(tmp, bytes, dk.as<T>(), ko.as<T>(), dv.as<int32_t>(),
                                           vo.as<int32_t>(), n);
  };
  Dev tmp = temp_for(call);
  size_t tb = 0;
  call(nullptr, tb);
  double ms = timed(reps, [&] { check(call(tmp.p, tb), "DeviceRadixSort::SortPairs"); });
  download(kouth, ko, n * sizeof(T));
  download(vouth, vo, n * 4);
  return ms;
}

template <class T>
double scan_by_key_t(const int32_t* seg, const void* in, int64_t n, int reps, void* outh) {
  Dev ds = upload(seg, n * 4), d = upload(in, n * sizeof(T)), out(n * sizeof(T));
  auto call = [&](void* tmp, size_t& bytes) {
    return cub::DeviceScan::InclusiveSumByKey(tmp, bytes, ds.as<int32_t>(), d.as<T>(), out.as<T>(), n);
  };
  Dev tmp = temp_for(call);
  size_t tb = 0;
  call(nullptr, tb);
  double ms = timed(reps, [&] { check(call(tmp.p, tb), "DeviceScan::InclusiveSumByKey"); });
  download(outh, out, n * sizeof(T));
  return ms;
}

template <class T>
double reduce_by_key_t(const int32_t* seg, const void* in, int64_t n, int reps, void* outh,
                       int64_t* runs) {
  Dev ds = upload(seg, n * 4), d = upload(in, n * sizeof(T)), keys(n * 4), out(n * sizeof(T)),
      nr(sizeof(int64_t));
  auto call = [&](void* tmp, size_t& bytes) {
    return cub::DeviceReduce::ReduceByKey(tmp, bytes, ds.as<int32_t>(), keys.as<int32_t>(), d.as<T>(),
                                          out.as<T>(), nr.as<int64_t>(), cuda::std::plus<T>(), n);
  };
  Dev tmp = temp_for(call);
  size_t tb = 0;
  call(nullptr, tb);
  double ms = timed(reps, [&] { check(call(tmp.p, tb), "DeviceReduce::ReduceByKey"); });
  download(runs, nr, sizeof(int64_t));
  download(outh, out, *runs * sizeof(T));
  return ms;
}

template <class T>
double segmented_reduce_t(const int64_t* offsets, int64_t nseg, const void* in, int64_t n, int reps,
                          void* outh) {
  Dev doff = upload(offsets, (nseg + 1) * 8), d = upload(in, n * sizeof(T)), out(nseg * sizeof(T));
  const int64_t* b = doff.as<int64_t>();
  auto call = [&](void* tmp, size_t& bytes) {
    return cub::DeviceSegmentedReduce::Sum(tmp, bytes, d.as<T>(), out.as<T>(), nseg, b, b + 1);
  };
  Dev tmp = temp_for(call);
  size_t tb = 0;
  call(nullptr, tb);
  double ms = timed(reps, [&] { check(call(tmp.p, tb), "DeviceSegmentedReduce::Sum"); });
  download(outh, out, nseg * sizeof(T));
  return ms;
}

}  // namespace

bool available(std::string* why) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (why) *why = e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device";
    return false;
  }
  return true;
}

std::string device_name() {
  cudaDeviceProp p;
  check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
  return p.name;
}

double copy(int64_t bytes, int reps) {
  Dev a(bytes), b(bytes);
  check(cudaMemset(a.p, 0, bytes), "cudaMemset");
  return timed(reps, [&] { check(cudaMemcpyAsync(b.p, a.p, bytes, cudaMemcpyDeviceToDevice), "copy"); });
}

#define ARRC_CUB_DISPATCH(t, call)                        \
  switch (t) {                                            \
    case Type::I32: { using T = int32_t; return call; }   \
    case Type::F32: { using T = float; return call; }     \
    case Type::I64: { using T = int64_t; return call; }   \
    default: { using T = double; return call; }           \
  }

double reduce_sum(Type t, const void* in, int64_t n, int reps, void* result) {
  ARRC_CUB_DISPATCH(t, reduce_t<T>(in, n, reps, result))
}
double scan_sum(Type t, const void* in, int64_t n, int reps, void* out) {
  ARRC_CUB_DISPATCH(t, scan_t<T>(in, n, reps, out))
}
double select_positive(Type t, const void* in, int64_t n, int reps, void* out, int64_t* count) {
  ARRC_CUB_DISPATCH(t, select_t<T>(in, n, reps, out, count))
}
double sort_keys(Type t, const void* in, int64_t n, int reps, void* out) {
  ARRC_CUB_DISPATCH(t, sort_keys_t<T>(in, n, reps, out))
}
double sort_pairs(Type t, const void* keys, const int32_t* vals, int64_t n, int reps, void* kout,
                  int32_t* vout) {
  ARRC_CUB_DISPATCH(t, sort_pairs_t<T>(keys, vals, n, reps, kout, vout))
}
double scan_by_key(Type t, const int32_t* seg, const void* in, int64_t n, int reps, void* out) {
  ARRC_CUB_DISPATCH(t, scan_by_key_t<T>(seg, in, n, reps, out))
}
double reduce_by_key(Type t, const int32_t* seg, const void* in, int64_t n, int reps, void* out,
                     int64_t* runs) {
  ARRC_CUB_DISPATCH(t, reduce_by_key_t<T>(seg, in, n, reps, out, runs))
}
double segmented_reduce(Type t, const int64_t* offsets, int64_t nseg, const void* in, int64_t n,
                        int reps, void* out) {
  ARRC_CUB_DISPATCH(t, segmented_reduce_t<T>(offsets, nseg, in, n, reps, out))
}

double histogram_even(const int32_t* samples, int64_t n, int nbins, int reps, int32_t* hist) {
  Dev d = upload(samples, n * 4), h(nbins * 4);
  auto call = [&](void* tmp, size_t& bytes) {
    return cub::DeviceHistogram::HistogramEven(tmp, bytes, d.as<int32_t>(), h.as<int32_t>(),
                                               nbins + 1, 0, nbins, n);
  };
  Dev tmp = temp_for(call);
  size_t tb = 0;
  call(nullptr, tb);
  double ms = timed(reps, [&] { check(call(tmp.p, tb), "DeviceHistogram::HistogramEven"); });
  download(hist, h, nbins * 4);
  return ms;
}

}  // namespace arrc_cub
