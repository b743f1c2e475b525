#!/bin/sh
# check-dxbc.sh - validates the committed DXBC stock shaders (shaders/generated/dxbc/*.h)
# without Wine: each blob is translated to SPIR-V by vkd3d-compiler (the translator the
# Direct3D 12 renderer runs through on Linux) and checked with spirv-val. Also checks that the
# set of blob headers is exactly what stock.h includes and that every blob the BasicEffect
# variant table (basic_variants.h) names exists, one entry per variant.
# Debian: apt-get install vkd3d-compiler spirv-tools xxd.
#   .ci/check-dxbc.sh [HEADER_DIR]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-"$here/shaders/generated/dxbc"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
n=0
fail=0
for h in "$dir"/*_vs.h "$dir"/*_ps.h; do
    name=$(basename "$h" .h)
    sed -n 's/^ *\(0x.*\)$/\1/p' "$h" | tr -d ' ,\n' | sed 's/0x//g' | xxd -r -p > "$work/$name.dxbc"
    if [ ! -s "$work/$name.dxbc" ] || [ "$(head -c 4 "$work/$name.dxbc")" != DXBC ]; then
        echo "check-dxbc.sh: $name: not a DXBC container" >&2
        fail=1
        continue
    fi
    if ! vkd3d-compiler -x dxbc-tpf -b spirv-binary -o "$work/$name.spv" "$work/$name.dxbc" \
            2>"$work/log"; then
        cat "$work/log" >&2
        echo "check-dxbc.sh: $name: vkd3d-compiler cannot translate it" >&2
        fail=1
        continue
    fi
    if ! spirv-val "$work/$name.spv" 2>&1; then
        echo "check-dxbc.sh: $name: spirv-val rejects the translation" >&2
        fail=1
        continue
    fi
    n=$((n + 1))
done
# every blob header is included by stock.h, and stock.h includes nothing that is missing
listed=$(sed -n 's/^#include "\(.*_[vp]s\)\.h"$/\1/p' "$dir/stock.h" | sort)
present=$(for h in "$dir"/*_vs.h "$dir"/*_ps.h; do basename "$h" .h; done | sort)
if [ "$listed" != "$present" ]; then
    echo "check-dxbc.sh: the blob headers and stock.h's includes differ:" >&2
    echo "$listed" > "$work/listed"
    echo "$present" > "$work/present"
    diff "$work/listed" "$work/present" >&2 || true
    fail=1
fi
expected=$(echo "$listed" | wc -l)
[ $n -eq "$expected" ] || { echo "check-dxbc.sh: $n blobs valid, expected $expected (stock.h)" >&2; fail=1; }
# the BasicEffect variant table: variants 0..COUNT-1 in order, each naming blobs that exist
count=$(sed -n 's/^#define XGD_DXBC_BASIC_VARIANT_COUNT \([0-9]*\)$/\1/p' "$dir/basic_variants.h")
sed -n 's/^ *X(\([0-9]*\), \([a-z0-9_]*\), \([a-z0-9_]*\)).*$/\1 \2 \3/p' \
    "$dir/basic_variants.h" > "$work/variants"
v=0
while read -r variant vs ps; do
    [ "$variant" -eq $v ] || { echo "check-dxbc.sh: basic_variants.h: entry $v is $variant" >&2; fail=1; }
    for b in "$vs" "$ps"; do
        echo "$present" | grep -qx "$b" || {
            echo "check-dxbc.sh: basic_variants.h: variant $variant names $b, which has no header" >&2
            fail=1
        }
    done
    v=$((v + 1))
done < "$work/variants"
if [ -z "$count" ] || [ $v -ne "$count" ]; then
    echo "check-dxbc.sh: basic_variants.h has $v entries (XGD_DXBC_BASIC_VARIANT_COUNT ${count:-?})" >&2
    fail=1
fi
# every stock program's blobs are there (and so were validated above), including the EXT
# VolumeEffect's, which must sample a 3D image: its translation declares a 3D OpTypeImage
for b in sprite_vs sprite_ps mrt_vs mrt_ps blit_vs blit_ps volume_vs volume_ps; do
    echo "$present" | grep -qx "$b" || { echo "check-dxbc.sh: $b.h is missing" >&2; fail=1; }
done
if [ -s "$work/volume_ps.spv" ] && command -v spirv-dis >/dev/null 2>&1 &&
        ! spirv-dis "$work/volume_ps.spv" | grep -q 'OpTypeImage %float 3D'; then
    echo "check-dxbc.sh: volume_ps does not sample a Texture3D" >&2
    fail=1
fi
[ $fail -eq 0 ] && echo "check-dxbc.sh: $n DXBC blobs translate to valid SPIR-V; $v BasicEffect" \
    "variants map onto them"
exit $fail
