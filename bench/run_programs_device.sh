#!/bin/bash
# Builds runtime + arrc_bench_programs standalone on a bare GPU machine (no
# antlr4 there): the headers are generated beforehand on the build machine
# into .dev/gen (benchprog.hpp from bench/programs/benchprog.arr; optionally
# benchprog_old.hpp from an older arrc). Needs the ocl-icd .debs in .dev/.
# Output: $OUT/n<size>.txt for each size.
set -o pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for f in .dev/*.deb; do dpkg -x "$f" /tmp/ocl; done
mkdir -p /tmp/icd
LIB=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null || find / -xdev -name 'libnvidia-opencl.so*' 2>/dev/null | head -1)
echo "$LIB" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH=/tmp/ocl/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
export ARRC_CACHE_DIR=/tmp/arrc-cache
nvidia-smi --query-gpu=name,driver_version --format=csv || true
cmake -S runtime -B /tmp/bp -DCMAKE_BUILD_TYPE=Release -DARRC_RUNTIME_BUILD_BENCH=ON \
  -DOpenCL_INCLUDE_DIR=/tmp/ocl/usr/include \
  -DOpenCL_LIBRARY=/tmp/ocl/usr/lib/x86_64-linux-gnu/libOpenCL.so \
  -DARRC_BENCH_GEN_DIR="$PWD/.dev/gen" > /tmp/cfg.log 2>&1 || { cat /tmp/cfg.log; exit 1; }
cmake --build /tmp/bp -j16 --target arrc_bench_programs 2>&1 | tail -3
B=/tmp/bp/bench/arrc_bench_programs
timeout 60 $B --n 1e6 --reps 10 2>&1 | tee "$OUT/n1e6.txt"
timeout 150 $B --n 1e7 --reps 10 2>&1 | tee "$OUT/n1e7.txt"
timeout 120 $B --n 1e8 --reps 5 --no-old 1 2>&1 | tee "$OUT/n1e8.txt"
