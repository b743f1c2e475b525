#!/bin/sh
# windows-cross.sh - cross-compiles the Direct3D 12 renderer for x86_64-w64-mingw32 with
# warnings as errors, against mingw-w64's d3d12.h / dxgi1_6.h (Debian: apt-get install
# mingw-w64), and links a program that creates a D3D12 renderer through the ops table.
#
#   .ci/windows-cross.sh [BUILD_DIR]
#
# Scope today: src/renderers/d3d12 plus core sources that build without libspng (no mingw
# libspng on Debian). Known gap, reported by the script instead of hidden: core's xgdi_fail /
# xgdi_warn carry format(printf), which mingw's GCC checks as ms_printf, so core's %zu messages
# fail -Werror=format there; the fix is a __MINGW_PRINTF_FORMAT attribute in renderer.h.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/xgd-windows-cross}
cc=${MINGW_CC:-x86_64-w64-mingw32-gcc}
mkdir -p "$out"
flags="-std=c11 -O2 -D__USE_MINGW_ANSI_STDIO=1 -DXGD_BUILDING -DXGD_STATIC -DXGD_HAVE_D3D12
       -Wall -Wextra -Wpedantic -Werror -Wstrict-prototypes -Wshadow
       -I$root/include -I$root/src/core"
n=0
for f in "$root"/src/renderers/d3d12/*.c; do
    # shellcheck disable=SC2086
    $cc $flags -c "$f" -o "$out/$(basename "$f" .c).o"
    n=$((n + 1))
done
echo "windows-cross.sh: $n d3d12 renderer sources compiled for Windows (-Werror)"
core_fail=0
for f in "$root"/src/core/*.c "$root"/src/graphics/*.c "$root"/src/renderers/software/*.c; do
    case "$f" in */png.c) continue ;; esac
    # shellcheck disable=SC2086
    if ! $cc $flags -c "$f" -o "$out/core-$(basename "$f" .c).o" 2>"$out/core.log"; then
        core_fail=$((core_fail + 1))
        echo "windows-cross.sh: KNOWN GAP: $(basename "$f") does not build for mingw:" \
             "$(grep -m1 error "$out/core.log" || true)"
    fi
done
if [ $core_fail -ne 0 ]; then
    echo "windows-cross.sh: $core_fail core/software sources fail under mingw (see above)" >&2
    exit 1
fi
