#!/bin/bash
# Times every export with a `// == bench` block in the given files (default:
# bench/forms/*.arr) with `arrc bench`, one line per export
# (bench/forms/README.md). SIZES="m=10^6 n=32768" overrides sizes;
# DEVICE=1 runs on a bare GPU machine with .dev/prefix's arrc (see
# bench/run_e2e_device.sh --prepare) and writes $OUT/forms.txt.
set -o pipefail
ARRC=${ARRC:-build/bin/arrc}
if [ -n "$DEVICE" ]; then
  OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
  . bench/device_env.sh
  ARRC=.dev/prefix/bin/arrc
fi
export ARRC_CACHE_DIR=${ARRC_CACHE_DIR:-/tmp/arrc-forms-cache}
[ $# -gt 0 ] || set -- bench/forms/*.arr
sizes=()
for s in $SIZES; do sizes+=(--size "$s"); done
for f in "$@"; do
  for e in $(grep -A8 "== bench" "$f" | perl -ne 'print "$1\n" if /^export\s.*?\b([A-Za-z_]\w*)\(/'); do
    # a size the block does not use is an error for arrc bench: only pass the block's own
    own=()
    for ((i = 1; i < ${#sizes[@]}; i += 2)); do
      n=${sizes[$i]%%=*}
      grep -B8 "^export.*\b$e(" "$f" | grep -q "sizes:.*\b$n=" && own+=(--size "${sizes[$i]}")
    done
    r=$(timeout 600 "$ARRC" bench "$f" -e "$e" "${own[@]}" --runs ${RUNS:-9} --warmup 2 2>&1 | grep -E "warm|rror" | head -2 | cut -c1-80)
    echo "$(basename "$f" .arr) $e: $r"
  done
done 2>&1 | if [ -n "$DEVICE" ]; then tee "$OUT/forms.txt"; else cat; fi
