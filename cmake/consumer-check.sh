#!/usr/bin/env bash
# Installs a built xgd into a fresh prefix and builds two consumers against it: one through
# find_package(xgd) (shared and static targets), one through pkg-config. Each consumer draws
# one frame and checks a pixel, so a broken install fails here and not in a user's project.
# usage: cmake/consumer-check.sh BUILD_DIR [WORK_DIR]
set -euo pipefail

build_dir=$(cd "${1:?usage: consumer-check.sh BUILD_DIR [WORK_DIR]}" && pwd)
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/xgd-consumer.XXXXXX")}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cmake_bin=${CMAKE:-cmake}
cc_bin=${CC:-cc}

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)   # the consumers' CMAKE_PREFIX_PATH must be absolute
prefix="$work/prefix"

echo "== install into $prefix"
"$cmake_bin" --install "$build_dir" --prefix "$prefix" >"$work/install.log"

echo "== find_package(xgd) consumer"
"$cmake_bin" -S "$src/tests/consumer" -B "$work/find" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$cc_bin" -DCMAKE_BUILD_TYPE=Release >"$work/find-configure.log"
"$cmake_bin" --build "$work/find" >"$work/find-build.log"
"$work/find/xgd-consumer"
"$work/find/xgd-consumer-static"
# With vkd3d on this machine the consumer project also builds a program that uses vkd3d
# itself (its own INITGUID interface IDs) with the static library: it must exist and run.
if pkg-config --exists libvkd3d libvkd3d-utils 2>/dev/null; then
    [ -x "$work/find/xgd-consumer-vkd3d" ] || {
        echo "the vkd3d consumer was not built (see $work/find-build.log)" >&2; exit 1; }
    "$work/find/xgd-consumer-vkd3d"
fi

echo "== pkg-config consumer"
pc=$(find "$prefix" -name xgd.pc -print -quit)
[ -n "$pc" ] || { echo "xgd.pc not installed" >&2; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
libdir=$(pkg-config --variable=libdir xgd)
# shellcheck disable=SC2046
"$cc_bin" -std=c11 -Wall -Wextra -Werror -o "$work/pc-consumer" "$src/tests/consumer/main.c" \
    $(pkg-config --cflags --libs xgd)
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/pc-consumer"

echo "consumer check passed ($work)"
