#!/usr/bin/env bash
# ctest `frontend_libfuzzer_smoke`: the libFuzzer targets still configure,
# build with clang (instrumented frontend, type checker, lowering and codegen;
# Debian's ANTLR headers) and run a bounded number of inputs without a crash,
# internal error, leak or slow input: the frontend alone, then the whole
# pipeline (test/fuzz/pipeline.h). Longer runs: docs/fuzzing.md.
#   libfuzzer_smoke.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
bin=$2
mkdir -p "$bin"
log="$bin/smoke.log"
if ! CC=clang CXX=clang++ cmake -S "$src" -B "$bin" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
     -DARRC_LIBFUZZER=ON -DARRC_BUILD_BENCH=OFF > "$log" 2>&1 ||
   ! cmake --build "$bin" --target frontend_libfuzzer pipeline_libfuzzer -j2 >> "$log" 2>&1; then
  tail -40 "$log"
  echo "libfuzzer smoke: the clang/libFuzzer build failed (full log: $log)"
  exit 1
fi
seeds="$bin/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"
cp "$src"/examples/*.arr "$src"/stdlib/*.arr "$src"/test/e2e/programs/*.arr "$seeds"/
# libFuzzer exits non-zero on a crash, leak or timeout and leaves the input.
for target in frontend_libfuzzer pipeline_libfuzzer; do
  corpus="$bin/corpus-$target"
  rm -rf "$corpus" && mkdir -p "$corpus"
  "$bin/test/fuzz/$target" -runs=2000 -max_len=2048 -timeout=5 -entropic=0 \
    -dict="$src/test/fuzz/arr.dict" -artifact_prefix="$bin/" "$corpus" "$seeds"
  echo "libfuzzer smoke: $target, 2000 inputs, no crash"
done
