#!/usr/bin/env bash
# README command 1: set up, build, then compile and run an example Arr program
# on the default OpenCL device (PoCL on the CPU unless a GPU is present).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ARRC_BUILD_DIR:-$root/build}"
bash "$root/scripts/build.sh"
echo "== arrc run examples/dot.arr -e dot \"[1.0, 2.0, 3.0]\" \"[4.0, 5.0, 6.0]\""
"$build/bin/arrc" run "$root/examples/dot.arr" -e dot "[1.0, 2.0, 3.0]" "[4.0, 5.0, 6.0]"
