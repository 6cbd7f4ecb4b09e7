#!/bin/bash
# Builds runtime + arrc_bench_transfer standalone on a bare GPU machine with
# the NVIDIA OpenCL driver and measures host <-> device transfers: the full
# table (1 KiB .. 1 GiB, arrc against the pinned and pageable references),
# then a sweep of the staging knobs. Needs the ocl-icd loader and headers
# .debs in .dev/ (docs/performance.md; Boost is not needed here).
# Output: $OUT/transfer.txt (table), $OUT/transfer_sweep.txt (knobs).
#   SWEEP=0 skips the sweep; extra arguments go to the table run.
set -o pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for f in .dev/*.deb; do dpkg -x "$f" /tmp/ocl; done
mkdir -p /tmp/icd
LIB=${OCL_LIB:-}; [ -n "$LIB" ] || LIB=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null || find / -xdev -name 'libnvidia-opencl.so*' 2>/dev/null | head -1)
echo "NVIDIA OpenCL: $LIB"
echo "$LIB" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH=/tmp/ocl/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
export ARRC_CACHE_DIR=/tmp/arrc-cache
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current --format=csv || true
lscpu | grep -E '^(Model name|CPU\(s\)|NUMA node\(s\))' || true
cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag 2>/dev/null || true
cmake -S runtime -B /tmp/bxfer -DCMAKE_BUILD_TYPE=Release -DARRC_RUNTIME_BUILD_BENCH=ON \
  -DOpenCL_INCLUDE_DIR=/tmp/ocl/usr/include \
  -DOpenCL_LIBRARY=/tmp/ocl/usr/lib/x86_64-linux-gnu/libOpenCL.so > /tmp/cfg.log 2>&1 || { cat /tmp/cfg.log; exit 1; }
cmake --build /tmp/bxfer -j16 --target arrc_bench_transfer 2>&1 | tail -3
B=/tmp/bxfer/bench/arrc_bench_transfer
timeout ${TABLE_TIMEOUT:-240} $B "$@" 2>&1 | tee "$OUT/transfer.txt"
if [ "${SWEEP:-1}" = 1 ]; then
  # one run per ';'-separated configuration (empty = the defaults)
  CFGS=${CFGS:-";ARRC_STAGING_THREADS=1;ARRC_STAGING_THREADS=2;ARRC_STAGING_THREADS=4;ARRC_STAGING_THREADS=12;ARRC_STAGING_CHUNK=2M;ARRC_STAGING_CHUNK=4M;ARRC_STAGING_CHUNK=16M;ARRC_STAGING_CHUNKS=2;ARRC_STAGING_CHUNKS=8;ARRC_STAGING_PART=64K;ARRC_STAGING_PART=1M;ARRC_PINNED_MIN=64K;ARRC_HUGEPAGES=0"}
  IFS=';' read -ra cfgs <<< "$CFGS"
  for cfg in "${cfgs[@]}"; do
    echo "== ${cfg:-defaults}" | tee -a "$OUT/transfer_sweep.txt"
    env $cfg timeout 60 $B --sizes ${SWEEP_SIZES:-64K,256K,1M,4M,16M,256M} --reps 10 2>&1 \
      | grep -E '^(transfers|3 x double|\| [0-9])' | tee -a "$OUT/transfer_sweep.txt"
  done
fi
