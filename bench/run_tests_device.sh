#!/bin/bash
# Builds runtime/ and its doctest unit tests standalone on a bare GPU machine
# with the NVIDIA OpenCL driver and runs them there (the same tests ctest runs
# on PoCL). Needs .dev/ as for bench/run_device.sh, plus .dev/doctest: a copy
# of /usr/include/doctest (as include/doctest) and /usr/lib/cmake/doctest (as
# lib/cmake/doctest, with _IMPORT_PREFIX in doctestTargets.cmake made
# relative: docs/performance.md).
set -o pipefail
for f in .dev/*.deb; do dpkg -x "$f" /tmp/ocl; done
mkdir -p /tmp/icd
LIB=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null || find / -xdev -name 'libnvidia-opencl.so*' 2>/dev/null | head -1)
echo "$LIB" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH=/tmp/ocl/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
cmake -S runtime -B /tmp/bt -DCMAKE_BUILD_TYPE=Release -DARRC_RUNTIME_BUILD_TESTS=ON \
  -DOpenCL_INCLUDE_DIR=/tmp/ocl/usr/include \
  -DOpenCL_LIBRARY=/tmp/ocl/usr/lib/x86_64-linux-gnu/libOpenCL.so \
  -Ddoctest_DIR="$PWD/.dev/doctest/lib/cmake/doctest" > /tmp/cfgt.log 2>&1 || { cat /tmp/cfgt.log; exit 1; }
cmake --build /tmp/bt -j16 --target arrc_runtime_tests 2>&1 | grep -E "error" | head -20
export ARRC_CACHE_DIR=/tmp/arrc-cache-tests
timeout ${TEST_TIMEOUT:-300} /tmp/bt/test-unit-runtime/arrc_runtime_tests "$@"
