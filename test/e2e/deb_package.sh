#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` in the build tree, then, from the .deb
# unpacked into a scratch root (dpkg -x, no root needed):
#   - its control fields (depends on the OpenCL ICD loader, not on PoCL) and files
#   - examples/cmake-consumer built with find_package(arrc 0.2 REQUIRED), and run
#   - find_package(arrc 0.3) refused by the version file
#   - the consumer built again with pkg-config (arrc.pc) instead of CMake
#   - the packaged arrc running `arrc test` on the packaged examples
# usage: deb_package.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build="$1"; src="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work"
fail() { echo "deb_package: FAIL: $*" >&2; exit 1; }

(cd "$build" && cpack -G DEB -B "$work/pkg" > "$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$work"/pkg/arrc_*.deb)
echo "package: $(basename "$deb")"

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
[[ "$depends" == *ocl-icd-libopencl1* ]] || fail "Depends lacks the OpenCL ICD loader"
[[ "$depends" != *pocl* ]] || fail "Depends names PoCL"
[[ "$(dpkg-deb -f "$deb" Version)" == 0.2.* ]] || fail "version is not 0.2.x"
dpkg-deb -c "$deb" > "$work/contents.txt"
for f in ./usr/bin/arrc ./usr/lib/libarrc_runtime.a ./usr/include/arrc/runtime.h \
         ./usr/share/arrc/stdlib/prelude.arr ./usr/lib/cmake/arrc/arrc-config.cmake \
         ./usr/lib/cmake/arrc/arrc-config-version.cmake ./usr/lib/pkgconfig/arrc.pc \
         ./usr/share/doc/arrc/tutorial.md ./usr/share/doc/arrc/reference.md \
         ./usr/share/arrc/editors/vim/syntax/arr.vim; do
  grep -q " $f\$" "$work/contents.txt" || fail "the package lacks $f"
done

root="$work/root"
dpkg -x "$deb" "$root"

# CMake consumer (its CMakeLists.txt asks for version 0.2)
grep -q 'find_package(arrc 0.2 REQUIRED)' "$src/examples/cmake-consumer/CMakeLists.txt" || fail "consumer does not ask for 0.2"
cmake -S "$src/examples/cmake-consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$root/usr" \
      -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" || { cat "$work/configure.log"; fail "configure"; }
grep -q "arrc_DIR:PATH=$root/usr/lib/cmake/arrc" "$work/consumer/CMakeCache.txt" || fail "the consumer did not find the packaged arrc"
cmake --build "$work/consumer" -j2 > "$work/build.log" || { cat "$work/build.log"; fail "build"; }
"$work/consumer/consumer"

# a newer minor version is refused
mkdir -p "$work/v03"
cat > "$work/v03/CMakeLists.txt" <<'CML'
cmake_minimum_required(VERSION 3.20)
project(v03 LANGUAGES CXX)
find_package(arrc 0.3 REQUIRED)
CML
if cmake -S "$work/v03" -B "$work/v03/build" -DCMAKE_PREFIX_PATH="$root/usr" > "$work/v03.log" 2>&1; then
  fail "find_package(arrc 0.3) accepted version 0.2"
fi
grep -q "0.2.0" "$work/v03.log" || fail "the version mismatch message does not name 0.2.0"

# pkg-config
export PKG_CONFIG_PATH="$root/usr/lib/pkgconfig"
[[ "$(pkg-config --modversion arrc)" == 0.2.* ]] || fail "pkg-config version"
arrc_bin=$(pkg-config --variable=arrc arrc)
[[ "$(realpath "$arrc_bin")" == "$(realpath "$root/usr/bin/arrc")" ]] || fail "pkg-config arrc variable: $arrc_bin"
mkdir -p "$work/pc"
"$arrc_bin" "$src/examples/cmake-consumer/kernels.arr" -o "$work/pc/kernels.hpp"
c++ -std=c++17 -O1 -I"$work/pc" "$src/examples/cmake-consumer/main.cpp" $(pkg-config --cflags --libs arrc) \
    -o "$work/pc/consumer"
"$work/pc/consumer"

# the packaged compiler finds its runtime and stdlib: arrc test on the packaged examples
"$root/usr/bin/arrc" test "$root/usr/share/doc/arrc/examples/dot.arr" "$root/usr/share/doc/arrc/examples/hello.arr"
echo "deb_package: OK"
