#!/bin/sh
# compile-stock-fx.sh - regenerates shaders/generated/stock_fx.h, the fx_2_0 bytes of XNA's
# AlphaTestEffect, DualTextureEffect, EnvironmentMapEffect and SkinnedEffect, from their D3D9
# assembly in shaders/stock_effects_fx.c (assembled by MojoShader, packed by tests/fx_writer.c).
# The header is committed, so a build needs neither this script nor a C compiler run of it;
# src/graphics/stock_effects.c loads the bytes through xgd_effect_create.
#
#   shaders/compile-stock-fx.sh [OUTPUT_FILE]
#
# Needs a C compiler and MojoShader (Debian: libmojoshader-dev). The output is reproducible.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:-"$here/generated/stock_fx.h"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=c11 -O1 -DXGD_TEST_HAVE_MOJOSHADER -I"$root/tests" \
    "$here/stock_effects_fx.c" "$root/tests/fx_writer.c" -lmojoshader -o "$tmp/stock-fx"
"$tmp/stock-fx" > "$tmp/stock_fx.h"
mv "$tmp/stock_fx.h" "$out"
