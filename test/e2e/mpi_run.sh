#!/usr/bin/env bash
# `arrc run --ranks N` prints what a single-device `arrc run` prints (values,
# arguments from standard input, a runtime error with the same diagnostic and
# exit status), and `arrc bench --ranks N` times a distributed call.
# usage: mpi_run.sh ARRC SOURCE_DIR
set -euo pipefail
arrc="$1"; src="$2"
fail() { echo "mpi_run: FAIL: $*" >&2; exit 1; }
export ARRC_QUIET=1

same() { # ENTRY FILE ARGS...: the output of every rank count equals the single-device one
  local file="$1"; shift
  local want got
  want=$("$arrc" run "$file" "$@" 2>&1) || true
  for r in 1 2 3 4; do
    got=$("$arrc" run --ranks "$r" "$file" "$@" 2>&1) || true
    [ "$got" == "$want" ] || fail "$file $* on $r ranks: got '$got', want '$want'"
  done
  echo "ok: $(basename "$file") $* -> $want"
}
same "$src/examples/dot.arr" -e dot "[1.0, 2.0, 3.0]" "[4.0, 5.0, 6.0]"
same "$src/test/e2e/programs/distributed.arr" -e groupby "[3, 1, 3, 2, 1, 3, 3, 2, 1, 1]" \
  "[1.5, 2.0, 0.5, 4.0, 1.0, 2.5, 3.0, 0.25, 0.5, 8.0]"
same "$src/bench/programs/kmeans.arr" -e kmeans 3 "[[0.0, 0.0], [1.0, 0.0], [10.0, 10.0], [11.0, 10.0], [0.5, 0.5]]" \
  "[[0.0, 1.0], [10.0, 9.0]]"

# arguments on standard input (mpirun hands it to rank 0)
out=$(echo "[1.0, 2.0] [3.0, 4.0]" | "$arrc" run --ranks 3 "$src/examples/dot.arr" -e dot)
[ "$out" == "11.0" ] || fail "stdin: got '$out'"
echo "ok: arguments from standard input" >&1

# an error in one rank's part: the diagnostic of a single-device run, once, exit status 1
set +e
want=$("$arrc" run "$src/test/e2e/programs/distributed.arr" -e pick "[10, 20, 30, 40]" "[0, 1, 2, 9]" 2>&1)
wstatus=$?
got=$("$arrc" run --ranks 4 "$src/test/e2e/programs/distributed.arr" -e pick "[10, 20, 30, 40]" "[0, 1, 2, 9]" 2>&1)
gstatus=$?
set -e
[ "$wstatus" == 1 ] && [ "$gstatus" == 1 ] || fail "exit status $gstatus (single device: $wstatus)"
[ "$got" == "$want" ] || fail "error: got '$got', want '$want'"
echo "ok: error on one rank -> '$(echo "$got" | head -1)'"

# the benchmark mode on 2 ranks
b=$("$arrc" bench --ranks 2 "$src/bench/programs/sorting.arr" --size n=10000 --runs 2 --warmup 1 2>&1) ||
  fail "arrc bench --ranks 2: $b"
echo "$b" | grep -q "warm" || fail "arrc bench --ranks 2 printed no timing: $b"
echo "ok: arrc bench --ranks 2"
