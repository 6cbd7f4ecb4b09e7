#!/usr/bin/env bash
# Installs the arrc build into a temporary prefix, then configures, builds and
# runs examples/cmake-consumer against it (find_package(arrc) + arrc_add_module).
# usage: cmake_consumer.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build="$1"; src="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$src/examples/cmake-consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Release > "$work/configure.log"
cmake --build "$work/build" -j2
"$work/build/consumer"
