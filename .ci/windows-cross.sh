#!/bin/sh
# windows-cross.sh - cross-compiles xgd for 64-bit Windows (x86_64-w64-mingw32) with warnings
# as errors through CMake and cmake/mingw-w64.cmake: the library (software and Direct3D 12
# renderers, against mingw-w64's d3d12.h / dxgi1_6.h; no libspng for mingw on Debian, so
# XGD_PNG is OFF and the PNG functions return XGD_ERROR_NOT_SUPPORTED), then links two
# programs against it with -Werror: tests/consumer/main.c (static and DLL), a program that
# creates a headless Direct3D 12 device, and tests/windows/dxgi_window.c (Win32 windows: the
# DXGI flip-model swap chain and the software renderer's GDI path, read back from the screen).
# Where Wine is installed the static consumer also runs (software renderer) and must print its
# pixel check; where xvfb-run is installed too, dxgi_window.exe runs under Wine on a virtual X
# server (Wine's Direct3D 12 is vkd3d on the machine's Vulkan driver, lavapipe in CI) and must
# print "xgd dxgi window ok" (77, no Direct3D 12 device there, is reported and not a failure).
# The headless D3D12 program is only linked.
#
#   .ci/windows-cross.sh [BUILD_DIR]
#
# Debian: apt-get install mingw-w64 cmake (and wine, xvfb to run the Windows programs).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/xgd-windows-cross}
triple=${XGD_MINGW_TRIPLE:-x86_64-w64-mingw32}
cc=$triple-gcc
command -v "$cc" >/dev/null 2>&1 || {
    echo "windows-cross.sh: $cc not found (apt-get install mingw-w64)" >&2
    exit 1
}
mkdir -p "$out"

cmake -S "$root" -B "$out/build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64.cmake" \
    -DXGD_MINGW_TRIPLE="$triple" -DCMAKE_BUILD_TYPE=Release -DXGD_WERROR=ON -DXGD_D3D12=ON \
    -DXGD_VULKAN=OFF -DXGD_PNG=OFF -DXGD_BUILD_TESTS=OFF -DXGD_BUILD_TOOLS=OFF >"$out/configure.log" \
    || { cat "$out/configure.log" >&2; exit 1; }
grep -q 'xgd renderers: software;d3d12' "$out/configure.log" || {
    echo "windows-cross.sh: the Direct3D 12 renderer is not part of the build" >&2
    exit 1
}
cmake --build "$out/build" -j"$(nproc 2>/dev/null || echo 2)"
echo "windows-cross.sh: libxgd.a and libxgd.dll built for $triple (-Werror)"

flags="-std=c11 -O2 -Wall -Wextra -Wpedantic -Werror -Wstrict-prototypes -Wshadow
       -I$root/include"
# shellcheck disable=SC2086
$cc $flags -DXGD_STATIC -o "$out/xgd-consumer-static.exe" "$root/tests/consumer/main.c" \
    "$out/build/libxgd.a" -ld3d12 -ldxgi -lgdi32 -lm
# shellcheck disable=SC2086
$cc $flags -o "$out/xgd-consumer.exe" "$root/tests/consumer/main.c" \
    "$out/build/libxgd.dll.a"

# Only xgd_* is global in libxgd.a and exported from libxgd.dll (COMDAT names excepted: see
# check-symbols.sh).
NM=$triple-nm OBJDUMP=$triple-objdump sh "$root/.ci/check-symbols.sh" "$out/build"

cat > "$out/d3d12-headless.c" <<'EOF'
/* Creates a headless Direct3D 12 device through the public API, clears and reads back. It
 * also defines the Direct3D 12 interface IDs itself (INITGUID), as a program using Direct3D 12
 * next to xgd does, so the static link proves that they do not collide with xgd's. */
#define INITGUID
#include <windows.h>
#include <d3d12.h>
#include <xgd.h>

#include <stdio.h>

int main(void)
{
    if (IID_ID3D12Device.Data1 != 0x189819f1u) return 1; /* its own definition */
    xgd_device_desc dd = { .renderer = XGD_RENDERER_D3D12,
                           .pp = { .back_buffer_width = 8, .back_buffer_height = 8,
                                   .headless = true } };
    xgd_device *dev = NULL;
    if (xgd_device_create(&dd, &dev) != XGD_OK) {
        fprintf(stderr, "xgd_device_create(d3d12): %s\n", xgd_device_last_error(NULL));
        return 1;
    }
    unsigned char px[8 * 8 * 4];
    xgd_result r = xgd_clear_color(dev, (xgd_color){ 100, 149, 237, 255 });
    if (r == XGD_OK) r = xgd_get_back_buffer_data(dev, NULL, px, sizeof px);
    xgd_device_destroy(dev);
    if (r != XGD_OK || px[0] != 100 || px[1] != 149 || px[2] != 237) {
        fprintf(stderr, "d3d12 clear/readback failed (%s)\n", xgd_result_name(r));
        return 1;
    }
    printf("xgd d3d12 headless ok\n");
    return 0;
}
EOF
# shellcheck disable=SC2086
$cc $flags -DXGD_STATIC -o "$out/xgd-d3d12-headless.exe" "$out/d3d12-headless.c" \
    "$out/build/libxgd.a" -ld3d12 -ldxgi -lgdi32 -lm
# shellcheck disable=SC2086
$cc $flags -DXGD_STATIC -o "$out/xgd-dxgi-window.exe" "$root/tests/windows/dxgi_window.c" \
    "$out/build/libxgd.a" -ld3d12 -ldxgi -lgdi32 -lm
echo "windows-cross.sh: linked xgd-consumer-static.exe, xgd-consumer.exe, xgd-d3d12-headless.exe, xgd-dxgi-window.exe"

if command -v wine >/dev/null 2>&1; then
    WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" wine "$out/xgd-consumer-static.exe" \
        >"$out/consumer.log" 2>&1 || true
    if grep -q 'xgd consumer ok' "$out/consumer.log"; then
        echo "windows-cross.sh: under Wine: $(grep 'xgd consumer ok' "$out/consumer.log" | tr -d '\r')"
    else
        cat "$out/consumer.log" >&2
        echo "windows-cross.sh: the static consumer failed under Wine" >&2
        exit 1
    fi
    # The consumer ran without a display. Wine's server outlives it for a few seconds with a
    # desktop that has no display driver, and a program started meanwhile on the virtual X
    # server shares that desktop: its CreateWindowExW fails with ERROR_ACCESS_DENIED. Wait for
    # the server to exit so the windowed run starts its own, on Xvfb.
    wineserver -w 2>/dev/null || true
    if command -v xvfb-run >/dev/null 2>&1; then
        rc=0
        WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" timeout 300 \
            xvfb-run -a -s '-screen 0 1024x768x24' wine "$out/xgd-dxgi-window.exe" \
            >"$out/dxgi-window.log" 2>&1 || rc=$?
        if [ "$rc" -eq 0 ] && grep -q 'xgd dxgi window ok' "$out/dxgi-window.log"; then
            echo "windows-cross.sh: under Wine and Xvfb: xgd dxgi window ok"
        elif [ "$rc" -eq 77 ]; then
            echo "windows-cross.sh: under Wine and Xvfb: $(grep 'NOT SUPPORTED' "$out/dxgi-window.log" | tr -d '\r')"
        else
            cat "$out/dxgi-window.log" >&2
            echo "windows-cross.sh: dxgi_window.exe failed under Wine (exit $rc)" >&2
            exit 1
        fi
    else
        echo "windows-cross.sh: xvfb-run not found: dxgi_window.exe only linked"
    fi
fi
