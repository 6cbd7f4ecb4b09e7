#!/bin/bash
# The end-to-end `// == test` blocks (arrc test) on a bare GPU machine: no
# antlr4 or Debian packages there, so arrc is installed here into .dev/prefix
# (with the antlr4 runtime library next to it) and the runtime library is
# rebuilt there with its compiler.
#
# Here (once per change of arrc):
#   bash bench/run_e2e_device.sh --prepare
# On the GPU machine (the device tool, carry [".dev"]):
#   bash bench/run_e2e_device.sh FILE.arr...   (default: the nested programs)
#   Results in $OUT/e2e.txt.
set -o pipefail
if [ "$1" = "--prepare" ]; then
  rm -rf .dev/prefix
  cmake --install build --prefix .dev/prefix --strip > /dev/null || exit 1
  cp "$(ldd build/bin/arrc | awk '/libantlr4-runtime/ {print $3}')" .dev/prefix/lib/ || exit 1
  if ! ls .dev/*.deb >/dev/null 2>&1; then
    (cd .dev && apt-get download ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers) || exit 1
  fi
  du -sh .dev
  exit 0
fi

OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
. bench/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv || true
cmake -S runtime -B /tmp/rt -DCMAKE_BUILD_TYPE=Release -DOpenCL_INCLUDE_DIR=/tmp/ocl/usr/include \
  -DOpenCL_LIBRARY=/tmp/ocl/usr/lib/x86_64-linux-gnu/libOpenCL.so > /tmp/rt-cfg.log 2>&1 || { cat /tmp/rt-cfg.log; exit 1; }
cmake --build /tmp/rt -j"$(nproc)" --target arrc_runtime 2>&1 | tail -1
cp "$(find /tmp/rt -name libarrc_runtime.a | head -1)" .dev/prefix/lib/libarrc_runtime.a || exit 1
export ARRC_CACHE_DIR=/tmp/arrc-cache
[ $# -gt 0 ] || set -- test/e2e/programs/nested_bodies.arr test/e2e/programs/nested_loops.arr \
  test/e2e/programs/nested_loops_fold.arr test/e2e/programs/nested_loops_lift.arr \
  test/e2e/programs/nested_lifted_ops.arr
.dev/prefix/bin/arrc test "$@" 2>&1 | tee "$OUT/e2e.txt" | grep -v '^PASS'
