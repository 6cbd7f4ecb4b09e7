#!/bin/sh
# e2e.faults.concurrent-arrc: two `arrc test` runs of one file start at once
# with one empty ARRC_CACHE_DIR (the driver's program build and the kernel
# cache are both written there); both must pass, and a third run must find
# everything cached (no "compiling" notice).
#   concurrent_arrc.sh ARRC FILE.arr WORKDIR
set -u
arrc=$1
file=$2
work=$3
rm -rf "$work"
mkdir -p "$work/cache"
export ARRC_CACHE_DIR="$work/cache"
"$arrc" test "$file" > "$work/a.log" 2>&1 &
a=$!
"$arrc" test "$file" > "$work/b.log" 2>&1 &
b=$!
wait $a; ra=$?
wait $b; rb=$?
cat "$work/a.log" "$work/b.log"
if [ $ra -ne 0 ] || [ $rb -ne 0 ]; then
  echo "FAIL: concurrent runs exited with $ra and $rb"
  exit 1
fi
leftovers=$(find "$work/cache" -name '*.tmp*' | wc -l)
if [ "$leftovers" -ne 0 ]; then
  echo "FAIL: $leftovers temporary files left in the cache"
  exit 1
fi
"$arrc" test "$file" > "$work/c.log" 2>&1 || { cat "$work/c.log"; echo "FAIL: third run"; exit 1; }
if grep -q "compiling\|building" "$work/c.log"; then
  cat "$work/c.log"
  echo "FAIL: the third run rebuilt something"
  exit 1
fi
echo "PASS: two concurrent runs into one empty cache, then a cached run"
