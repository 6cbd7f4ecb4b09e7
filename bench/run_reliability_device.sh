#!/bin/bash
# The runtime-fault tests (test/e2e/faults, docs/reliability.md) on a bare GPU
# machine with the NVIDIA OpenCL driver: out of device memory, damaged and
# concurrently filled kernel caches, 8 threads on one Context and on 8, and
# arrays of more than 2^31 elements (the H100 holds them). Builds the runtime
# standalone, as bench/run_device.sh does (needs .dev/ likewise), and the test
# against the generated header of faults.arr, made here by `arrc` beforehand:
#   cmake --build build --target arrc_e2e_faults   # writes the header below
# and carried along: build/test/e2e/arrc_modules/faults.hpp ($FAULTS_HPP).
# The read-only-cache test needs a second user and runs on PoCL only.
# Output: $OUT/faults.txt.
set -o pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
HPP=${FAULTS_HPP:-build/test/e2e/arrc_modules/faults.hpp}
[ -f "$HPP" ] || { echo "no generated header $HPP (build arrc_e2e_faults first)"; exit 1; }
for f in .dev/*.deb; do dpkg -x "$f" /tmp/ocl; done
mkdir -p /tmp/icd
LIB=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null || find / -xdev -name 'libnvidia-opencl.so*' 2>/dev/null | head -1)
echo "$LIB" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH=/tmp/ocl/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true
cmake -S runtime -B /tmp/br -DCMAKE_BUILD_TYPE=Release \
  -DOpenCL_INCLUDE_DIR=/tmp/ocl/usr/include \
  -DOpenCL_LIBRARY=/tmp/ocl/usr/lib/x86_64-linux-gnu/libOpenCL.so > /tmp/cfgr.log 2>&1 || { cat /tmp/cfgr.log; exit 1; }
cmake --build /tmp/br -j16 --target arrc_runtime 2>&1 | grep -E "error" | head -20
mkdir -p /tmp/faults-inc && cp "$HPP" /tmp/faults-inc/faults.hpp
g++ -std=c++17 -O2 -I/tmp/faults-inc -Iruntime/include -I/tmp/ocl/usr/include test/e2e/faults/faults.cpp \
  /tmp/br/libarrc_runtime.a -L/tmp/ocl/usr/lib/x86_64-linux-gnu -lOpenCL -lpthread -o /tmp/faults || exit 1
export ARRC_CACHE_DIR=/tmp/arrc-cache-faults
status=0
for t in oom corrupt-cache concurrent-cache threads large; do
  echo "== $t" | tee -a "$OUT/faults.txt"
  timeout ${TEST_TIMEOUT:-300} /tmp/faults $t 2>&1 | tee -a "$OUT/faults.txt" || status=1
done
exit $status
