#!/usr/bin/env bash
# Installs every package arrc needs to build, test and run on the default
# (PoCL CPU) OpenCL device. Debian, run as root. Idempotent: installs only
# what is missing, so a second run is quick.
set -euo pipefail

PACKAGES=(
  build-essential cmake git pkg-config python3
  antlr4 libantlr4-runtime-dev
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers ocl-icd-libopencl1
  pocl-opencl-icd clinfo
  libcli11-dev doctest-dev
  llvm-14-tools clang libclang-rt-14-dev
  libboost-dev
  libopenmpi-dev openmpi-bin
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi
