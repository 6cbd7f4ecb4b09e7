#!/usr/bin/env bash
# ctest `frontend_libfuzzer_smoke`: the libFuzzer target still configures,
# builds with clang (instrumented frontend, Debian's ANTLR headers) and runs a
# bounded number of inputs without a crash. Longer runs: docs/fuzzing.md.
#   libfuzzer_smoke.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
bin=$2
mkdir -p "$bin"
log="$bin/smoke.log"
if ! CC=clang CXX=clang++ cmake -S "$src" -B "$bin" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
     -DARRC_LIBFUZZER=ON -DARRC_BUILD_BENCH=OFF > "$log" 2>&1 ||
   ! cmake --build "$bin" --target frontend_libfuzzer -j1 >> "$log" 2>&1; then
  tail -40 "$log"
  echo "libfuzzer smoke: the clang/libFuzzer build failed (full log: $log)"
  exit 1
fi
corpus="$bin/corpus"
rm -rf "$corpus" && mkdir -p "$corpus"
# libFuzzer exits non-zero on a crash, leak or timeout and leaves the input.
"$bin/test/fuzz/frontend_libfuzzer" -runs=5000 -max_len=4096 -timeout=20 \
  -dict="$src/test/fuzz/arr.dict" -artifact_prefix="$bin/" \
  "$corpus" "$src/examples" "$src/stdlib"
echo "libfuzzer smoke: 5000 inputs, no crash"
