#!/bin/bash
# arrc_bench_whole (whole Arr programs against sequential and OpenMP C++) on
# a bare GPU machine: no antlr4 there, so the headers are generated here first.
#
# Here (the build machine, once per change of bench/programs or of arrc):
#   bash bench/run_whole_device.sh --prepare [path/to/arrc]   # default build/bin/arrc
#     generates .dev/gen/<module>.hpp from bench/programs/*.arr and fetches the
#     OpenCL loader/header .debs into .dev/ if they are missing.
# On the GPU machine (the device tool, carry [".dev"]):
#   bash bench/run_whole_device.sh [arguments for arrc_bench_whole]
#     default arguments: --scale full --reps 5. Builds runtime/ standalone with
#     the bench (-DARRC_BENCH_GEN_DIR=.dev/gen), runs it, writes
#     $OUT/whole-$NAME.txt and $OUT/whole-$NAME.json (NAME defaults to "full").
#   Then, here: python3 bench/plot_whole.py <the json files> -o whole.png
set -o pipefail
if [ "$1" = "--prepare" ]; then
  ARRC=${2:-build/bin/arrc}
  [ -x "$ARRC" ] || { echo "no arrc at $ARRC (cmake --build build --target arrc)"; exit 1; }
  mkdir -p .dev/gen
  for f in bench/programs/*.arr; do
    "$ARRC" "$f" -o ".dev/gen/$(basename "$f" .arr).hpp" || exit 1
  done
  ls .dev/gen
  if ! ls .dev/*.deb >/dev/null 2>&1; then
    (cd .dev && apt-get download ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers) || exit 1
  fi
  exit 0
fi

OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NAME=${NAME:-full}
for f in .dev/*.deb; do dpkg -x "$f" /tmp/ocl; done
mkdir -p /tmp/icd
LIB=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null || find / -xdev -name 'libnvidia-opencl.so*' 2>/dev/null | head -1)
echo "$LIB" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH=/tmp/ocl/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv || true
echo "host: $(nproc) threads, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
cmake -S runtime -B /tmp/bw -DCMAKE_BUILD_TYPE=Release -DARRC_RUNTIME_BUILD_BENCH=ON \
  -DOpenCL_INCLUDE_DIR=/tmp/ocl/usr/include \
  -DOpenCL_LIBRARY=/tmp/ocl/usr/lib/x86_64-linux-gnu/libOpenCL.so \
  -DARRC_BENCH_GEN_DIR="$PWD/.dev/gen" > /tmp/bw-cfg.log 2>&1 || { cat /tmp/bw-cfg.log; exit 1; }
grep -E 'OpenMP|arrc bench' /tmp/bw-cfg.log
cmake --build /tmp/bw -j"$(nproc)" --target arrc_bench_whole 2>&1 | tail -3
B=/tmp/bw/bench/arrc_bench_whole
[ -x "$B" ] || { echo "arrc_bench_whole was not built (see above)"; exit 1; }
[ $# -gt 0 ] || set -- --scale full --reps 5
timeout "${BENCH_TIMEOUT:-570}" "$B" "$@" --json "$OUT/whole-$NAME.json" 2>&1 | tee "$OUT/whole-$NAME.txt"
