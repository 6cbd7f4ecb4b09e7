#!/usr/bin/env bash
# The test suite under sanitizers (docs/reliability.md), in a build
# directory of its own:
#   ARRC_SANITIZE=ON (default): ASan + UBSan in build-asan; runs the unit,
#     lit and e2e tests (ARRC_SANITIZE_TESTS, a ctest -L regex, narrows it:
#     CI uses "unit|lit")
#   ARRC_SANITIZE=thread: TSan in build-tsan; runs the thread tests
#     (e2e.faults.threads, the runtime's unit tests)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kind="${ARRC_SANITIZE:-ON}"
if [ "$kind" = thread ]; then
  build="${ARRC_SANITIZE_BUILD_DIR:-$root/build-tsan}"
  tests="${ARRC_SANITIZE_TESTS:-}"
  regex="${ARRC_SANITIZE_REGEX:-faults.threads|^runtime\\.core}"
else
  build="${ARRC_SANITIZE_BUILD_DIR:-$root/build-asan}"
  tests="${ARRC_SANITIZE_TESTS:-unit|lit|runtime|e2e}"
  regex="${ARRC_SANITIZE_REGEX:-}"
fi
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARRC_SANITIZE="$kind" \
  -DARRC_BUILD_BENCH=OFF "${launcher[@]}" > /dev/null
cmake --build "$build" -j"${ARRC_JOBS:-2}"
export ARRC_CACHE_DIR="$build/arrc-cache"
cd "$build"
args=(--output-on-failure -j"${ARRC_JOBS:-2}" --timeout 1800)
[ -n "$tests" ] && args+=(-L "$tests")
[ -n "$regex" ] && args+=(-R "$regex")
ctest "${args[@]}"
