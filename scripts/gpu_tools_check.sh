#!/usr/bin/env bash
# For a machine with an NVIDIA GPU (after scripts/build.sh): the tools of
# issue 17 on the GPU. Runs the test blocks of the examples and the e2e
# programs with ARRC_DEVICE=nvidia, the tutorial's snippets (its NVIDIA
# section included), and arrc bench on two examples (JSON kept in $out).
# usage: scripts/gpu_tools_check.sh [OUT_DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ARRC_BUILD_DIR:-$root/build}"
out="${1:-$build/gpu-tools-check}"
mkdir -p "$out"
export ARRC_CACHE_DIR="${ARRC_CACHE_DIR:-$build/arrc-cache}"
arrc="$build/bin/arrc"
status=0
echo "== arrc test on the GPU"
ARRC_DEVICE=nvidia "$arrc" test "$root/examples" "$root/test/e2e/programs" --exclude pending | tail -n 25 || status=1
echo "== the tutorial (its GPU snippets run where clinfo lists an NVIDIA device)"
python3 "$root/test/docs/run_snippets.py" tutorial "$build" "$out/tutorial" "$root/docs/tutorial.md" | tail -n 8 || status=1
echo "== arrc bench on the GPU"
ARRC_DEVICE=nvidia "$arrc" bench "$root/examples/dot.arr" --size n=10^8 --json > "$out/dot.json" || status=1
ARRC_DEVICE=nvidia "$arrc" bench "$root/examples/saxpy.arr" -e saxpy --size n=10^8 --json > "$out/saxpy.json" || status=1
python3 -c "
import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    for r in d['results']:
        print('%s %s: %s cold %.1f ms, median %.3f ms, %s GB/s on %s' % (d['entry'], r['input'], r['sizes'], r['cold_ms'], r['median_ms'], r.get('gb_per_s'), d['device']))
" "$out/dot.json" "$out/saxpy.json" || status=1
exit $status
