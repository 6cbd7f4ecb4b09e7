#!/bin/bash
# Strong and weak scaling of the distributed overloads (docs/distributed.md)
# on a bare GPU machine with 2 (or more) GPUs: builds libarrc_cluster and
# arrc_bench_distributed standalone (runtime/, no compiler dependencies) and
# runs it under mpirun on 1 and 2 ranks (RANKS="1 2 4" for more).
#
# The machine has no Debian packages: .dev/ carries the OpenCL loader's .debs
# (as for bench/run_device.sh), Open MPI's .debs with their dependency
# closure (.dev/mpi/, unpacked with dpkg -x into /tmp/ompi and used through
# OPAL_PREFIX, PATH and LD_LIBRARY_PATH), and the headers generated
# beforehand by arrc (.dev/gen-dist/: blackscholes, kmeans, nbody, sorting,
# groupby from bench/programs/). docs/performance.md, "Several GPUs", says how
# to make them.
#
# Output: $OUT/ranks<P>.txt per rank count, $OUT/scaling.md (the table and the
# 64-node projection from bench/scaling_model.py; or run it here on the .txt).
# About 5 minutes in all (the build, then 1-2 minutes per rank count, the
# first one building the kernels); within one device-tool call of 600 s.
# Should it not fit, split it: RANKS=1 in one call, RANKS=2 in the next.
set -o pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
RANKS=${RANKS:-"1 2"}
SCALE=${SCALE:-gpu}
REPS=${REPS:-5}

# the OpenCL loader, pointed at NVIDIA's driver
for f in .dev/*.deb; do dpkg -x "$f" /tmp/ocl; done
mkdir -p /tmp/icd
LIB=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null || find / -xdev -name 'libnvidia-opencl.so*' 2>/dev/null | head -1)
echo "NVIDIA OpenCL: $LIB"
echo "$LIB" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd

# Open MPI, relocated to /tmp/ompi/usr
for f in .dev/mpi/*.deb; do dpkg -x "$f" /tmp/ompi; done
export OPAL_PREFIX=/tmp/ompi/usr
export PATH=/tmp/ompi/usr/bin:$PATH
M=/tmp/ompi/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=/tmp/ocl/usr/lib/x86_64-linux-gnu:$M:$M/openmpi/lib:$LD_LIBRARY_PATH
MPIRUN="/tmp/ompi/usr/bin/mpirun.openmpi --allow-run-as-root --oversubscribe --bind-to none"
# no InfiniBand here: shared memory between the ranks of the host
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_orte_tmpdir_base=/tmp
/tmp/ompi/usr/bin/ompi_info --version 2>&1 | head -2
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv || true
nvidia-smi topo -m 2>/dev/null | head -8 || true

cmake -S runtime -B /tmp/bd -DCMAKE_BUILD_TYPE=Release -DARRC_RUNTIME_BUILD_BENCH=ON \
  -DOpenCL_INCLUDE_DIR=/tmp/ocl/usr/include \
  -DOpenCL_LIBRARY=/tmp/ocl/usr/lib/x86_64-linux-gnu/libOpenCL.so \
  -DMPI_CXX_COMPILER=/tmp/ompi/usr/bin/mpicxx.openmpi \
  -DMPI_C_COMPILER=/tmp/ompi/usr/bin/mpicc.openmpi \
  -DMPIEXEC_EXECUTABLE=/tmp/ompi/usr/bin/mpirun.openmpi \
  -DARRC_BENCH_GEN_DIR="$PWD/.dev/gen-dist" > /tmp/cfg.log 2>&1 || { cat /tmp/cfg.log; exit 1; }
grep -E "MPI|arrc" /tmp/cfg.log
cmake --build /tmp/bd -j16 --target arrc_bench_distributed 2>&1 | tail -3
B=/tmp/bd/bench/arrc_bench_distributed
[ -x "$B" ] || { echo "arrc_bench_distributed was not built"; exit 1; }
export ARRC_CACHE_DIR=/tmp/arrc-cache ARRC_QUIET=1

for P in $RANKS; do
  echo "== $P rank(s)"
  timeout ${BENCH_TIMEOUT:-250} $MPIRUN -n "$P" "$B" --scale "$SCALE" --reps "$REPS" ${ONLY:+--only $ONLY} \
    2>&1 | tee "$OUT/ranks$P.txt"
done
if command -v python3 > /dev/null; then
  python3 bench/scaling_model.py "$OUT"/ranks*.txt | tee "$OUT/scaling.md"
fi
