#!/bin/bash
# Fills .dev/ for bench/run_distributed_device.sh, on the build machine (Debian
# bookworm, arrc built with MPI): the OpenCL loader's .debs, Open MPI's .debs
# with the dependency closure a bare machine lacks (runtime libraries and
# headers only: no compilers, Fortran or X11; apt-get download, from the apt
# cache when it has them), and the generated headers of the benchmark's
# programs. About 8 MB in all. usage: bench/prepare_distributed_dev.sh [ARRC]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
arrc="${1:-$root/build/bin/arrc}"
cd "$root"
mkdir -p .dev/mpi .dev/gen-dist
for p in ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers clinfo \
         openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libhwloc15 libpmix2 libucx0 libfabric1 \
         libevent-core-2.1-7 libevent-pthreads-2.1-7 libibverbs1 librdmacm1 libpsm2-2 libpsm-infinipath1 \
         libnl-3-200 libnl-route-3-200 libnuma1 libmunge2 libltdl7; do
  case "$p" in ocl-icd*|opencl*|clinfo) dir=.dev ;; *) dir=.dev/mpi ;; esac
  ls "$dir/${p}_"*.deb > /dev/null 2>&1 && continue
  if ls /var/cache/apt/archives/"${p}_"*.deb > /dev/null 2>&1; then
    cp /var/cache/apt/archives/"${p}_"*.deb "$dir/"
  else
    (cd "$dir" && apt-get download -qq "$p")
  fi
done
for m in blackscholes kmeans nbody sorting groupby; do
  "$arrc" "bench/programs/$m.arr" -o ".dev/gen-dist/$m.hpp"
done
du -sh .dev/mpi .dev/gen-dist
