// The CUB reference of arrc_bench_runtime (bench/cub_reference.cu, built
// with nvcc only when the bench is configured with -DARRC_BENCH_CUB=ON and
// a CUDA compiler is found): the same operations through CUB's device-wide
// primitives, in the same process, on host data copied to the GPU first.
// Every function returns the median time in ms of `reps` runs (CUDA
// events around each run; inputs, outputs and temporary storage allocated
// and filled beforehand, not timed) and copies its result back for checks.
// Plain C++: the bench includes it without CUDA headers.
#pragma once

#include <cstdint>
#include <string>

namespace arrc_cub {

enum class Type { I32, F32, I64, F64 };

// A CUDA device is there (else `why` says what is missing); its name.
bool available(std::string* why);
std::string device_name();

// cudaMemcpyAsync device to device of `bytes`.
double copy(int64_t bytes, int reps);
// DeviceReduce::Sum -> *result (one element of t).
double reduce_sum(Type t, const void* in, int64_t n, int reps, void* result);
// DeviceScan::InclusiveSum -> out (n elements).
double scan_sum(Type t, const void* in, int64_t n, int reps, void* out);
// DeviceSelect::If (x > 0) -> out, *count.
double select_positive(Type t, const void* in, int64_t n, int reps, void* out, int64_t* count);
// DeviceRadixSort::SortKeys (all bits) -> out.
double sort_keys(Type t, const void* in, int64_t n, int reps, void* out);
// DeviceRadixSort::SortPairs (keys of t, int32 values) -> kout, vout.
double sort_pairs(Type t, const void* keys, const int32_t* vals, int64_t n, int reps, void* kout,
                  int32_t* vout);
// DeviceScan::InclusiveSumByKey over int32 segment ids -> out.
double scan_by_key(Type t, const int32_t* seg, const void* in, int64_t n, int reps, void* out);
// DeviceReduce::ReduceByKey (+) over int32 segment ids -> out, *runs.
double reduce_by_key(Type t, const int32_t* seg, const void* in, int64_t n, int reps, void* out,
                     int64_t* runs);
// DeviceSegmentedReduce::Sum over offsets (nseg + 1 int64) -> out.
double segmented_reduce(Type t, const int64_t* offsets, int64_t nseg, const void* in, int64_t n,
                        int reps, void* out);
// DeviceHistogram::HistogramEven of int32 samples in [0, nbins) -> hist.
double histogram_even(const int32_t* samples, int64_t n, int nbins, int reps, int32_t* hist);

}  // namespace arrc_cub
