#!/bin/bash
# Builds runtime + bench standalone on a bare GPU machine with the NVIDIA
# OpenCL driver and runs the benchmark. Needs .dev/ (see docs/performance.md):
# the ocl-icd loader + headers .debs and the Boost.Compute header subset.
# Where nvcc is found (PATH or /usr/local/cuda/bin) the CUB reference is built
# in (bench/cub_reference.cu, -DARRC_BENCH_CUB=ON; CUB=0 leaves it out).
# Output: $OUT/bench.txt (main table), $OUT/tune.txt (parameter sweep).
set -o pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for f in .dev/*.deb; do dpkg -x "$f" /tmp/ocl; done
mkdir -p /tmp/icd
LIB=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null || find / -xdev -name 'libnvidia-opencl.so*' 2>/dev/null | head -1)
echo "NVIDIA OpenCL: $LIB"
echo "$LIB" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH=/tmp/ocl/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
/tmp/ocl/usr/bin/clinfo -l || true
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
CUBFLAGS=()
if [ "${CUB:-1}" = 1 ] && [ -n "$NVCC" ]; then
  echo "CUB reference: $($NVCC --version | tail -1)"
  CUBFLAGS=(-DARRC_BENCH_CUB=ON -DCMAKE_CUDA_COMPILER="$NVCC" -DARRC_CUDA_ARCH="${CUDA_ARCH:-90}")
fi
cmake -S runtime -B /tmp/b -DCMAKE_BUILD_TYPE=Release -DARRC_RUNTIME_BUILD_BENCH=ON \
  -DOpenCL_INCLUDE_DIR=/tmp/ocl/usr/include \
  -DOpenCL_LIBRARY=/tmp/ocl/usr/lib/x86_64-linux-gnu/libOpenCL.so \
  -DARRC_BOOST_INCLUDE="$PWD/.dev/boost-include" "${CUBFLAGS[@]}" > /tmp/cfg.log 2>&1 || { cat /tmp/cfg.log; exit 1; }
grep -E "arrc bench" /tmp/cfg.log
cmake --build /tmp/b -j16 --target arrc_bench_runtime 2>&1 | grep -E "error|Built target arrc_bench" | head -20
export ARRC_CACHE_DIR=/tmp/arrc-cache
B=/tmp/b/bench/arrc_bench_runtime
# TUNE=1: first a sweep of the knobs (primitives.cpp and sort.cpp list
# them), one configuration per ';'-separated entry of $SWEEP, for the ops
# $SWEEP_OPS (default scan,compact) at $SWEEP_N; e.g. the sort:
#   SWEEP="ARRC_SORT_VT=12;ARRC_SORT_VT=16;ARRC_SORT_WG=384" SWEEP_OPS=sort,sort64,sort_by_key
if [ "${TUNE:-1}" = 1 ]; then
  SWEEP=${SWEEP:-"ARRC_NV_GROUP_ORDER=0;ARRC_NV_GROUP_ORDER=1;ARRC_NV_WARP=0;ARRC_LOOKBACK_CHUNKS=2;ARRC_WG=256"}
  IFS=';' read -ra cfgs <<< "$SWEEP"
  for cfg in "${cfgs[@]}"; do
    echo "== $cfg" | tee -a "$OUT/tune.txt"
    env $cfg timeout ${SWEEP_TIMEOUT:-120} $B --sizes ${SWEEP_N:-1e8} --reps ${SWEEP_REPS:-20} --ops ${SWEEP_OPS:-scan,compact} --no-overhead --no-cub 2>&1 \
      | grep -E '^(\| [a-z]|.*MISMATCH|.*rror)' | grep -v '^| op ' | tee -a "$OUT/tune.txt"
  done
fi
timeout ${BENCH_TIMEOUT:-420} $B "$@" 2>&1 | tee "$OUT/bench.txt"
