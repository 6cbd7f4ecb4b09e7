#!/bin/bash
# One call on the GPU machine: the runtime unit tests there, then the
# benchmark table (bench/run_tests_device.sh, bench/run_device.sh; .dev/ as
# for those). Output: $OUT/tests.txt, $OUT/bench.txt ($OUT/run_device.log:
# the build).
#   TESTS   doctest filter (default: the sort, the primitives, fused producers)
#   SIZES   benchmark sizes (default 1e6,1e7,1e8), REPS (20), OPS (all)
#   TEST_TIMEOUT (240 s), BENCH_TIMEOUT (330 s)
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export OUT
TEST_TIMEOUT=${TEST_TIMEOUT:-240} bash bench/run_tests_device.sh \
  --test-case="${TESTS:-sort*,primitives*,fused*}" > "$OUT/tests.txt" 2>&1
echo "unit tests: exit $?"; tail -4 "$OUT/tests.txt"
OPSARG=()
[ -n "$OPS" ] && OPSARG=(--ops "$OPS")
TUNE=0 BENCH_TIMEOUT=${BENCH_TIMEOUT:-330} bash bench/run_device.sh --sizes "${SIZES:-1e6,1e7,1e8}" \
  --reps "${REPS:-20}" "${OPSARG[@]}" > "$OUT/run_device.log" 2>&1
echo "bench: exit $?"
grep -E "^(device|CUB|Boost)|MISMATCH|mismatches" "$OUT/bench.txt" 2>/dev/null || tail -30 "$OUT/run_device.log"
