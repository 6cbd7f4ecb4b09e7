#!/usr/bin/env bash
# The full distributed check (docs/distributed.md): every e2e program, example
# and benchmark program through its distributed overloads on 1, 2, 3 and 4
# MPI ranks (PoCL; Open MPI with --oversubscribe), each result compared with
# the program's test blocks, i.e. with the single-device results. ctest runs
# a sample of these (e2e.mpi_r1..4); this runs them all. About 5 minutes on 2
# cores the first time (the harnesses are compiled once), then 15-30 s per
# rank count. Needs a build with MPI (scripts/install-deps.sh installs it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ARRC_BUILD_DIR:-$root/build}"
export ARRC_CACHE_DIR="${ARRC_CACHE_DIR:-$build/arrc-cache}"
status=0
for ranks in ${ARRC_RANKS:-2 1 3 4}; do
  echo "== $ranks rank(s)"
  "$build/bin/arrc" test --ranks "$ranks" --timeout 300 --exclude pending \
    "$root/test/e2e/programs" "$root/examples" "$root/bench/programs" | grep -v '^PASS' || status=1
done
exit $status
