#!/usr/bin/env bash
# README command 2: set up, build, and run the whole test suite (ctest: unit,
# lit golden, fuzz and end-to-end tests on PoCL).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ARRC_BUILD_DIR:-$root/build}"
bash "$root/scripts/build.sh"
# Kernel binaries and `arrc run` builds are cached here, not in $HOME.
export ARRC_CACHE_DIR="${ARRC_CACHE_DIR:-$build/arrc-cache}"
cd "$build"
ctest --output-on-failure -j"${ARRC_JOBS:-2}" --timeout 900
