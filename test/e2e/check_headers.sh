#!/usr/bin/env bash
# Every example's generated header compiles with -Wall -Wextra -Wpedantic -Werror under
# g++ and clang++ (alone, and all of them in one translation unit).
# usage: check_headers.sh ARRC RUNTIME_INCLUDE_DIR WORK_DIR ARR_FILE...
# $ARRC_HEADER_FLAGS: more compiler flags (e2e.headers_werror_mpi: the
# distributed overloads, -DARRC_MPI=1 and MPI's include directories).
set -euo pipefail
arrc="$1"; rtinc="$2"; work="$3"; shift 3
rm -rf "$work"; mkdir -p "$work"
all="$work/all.cpp"
: > "$all"
for f in "$@"; do
  n="$(basename "$f" .arr)"
  "$arrc" "$f" -o "$work/$n.hpp"
  printf '#include "%s.hpp"\n' "$n" > "$work/$n.cpp"
  printf '#include "%s.hpp"\n' "$n" >> "$all"
done
echo 'int main() { return 0; }' >> "$all"
status=0
for cxx in g++ clang++; do
  command -v "$cxx" > /dev/null || { echo "skip: $cxx not found"; continue; }
  for src in "$work"/*.cpp; do
    # shellcheck disable=SC2086
    if "$cxx" -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only ${ARRC_HEADER_FLAGS:-} -I"$work" -I"$rtinc" "$src"; then
      echo "ok: $cxx $(basename "$src")"
    else
      echo "FAIL: $cxx $(basename "$src")"; status=1
    fi
  done
done
exit $status
