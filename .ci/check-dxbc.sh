#!/bin/sh
# check-dxbc.sh - validates the committed DXBC shaders of the Direct3D 12 renderer's internal
# blit (shaders/generated/dxbc/*.h) without Wine: each blob is translated to SPIR-V by
# vkd3d-compiler (the translator the Direct3D 12 renderer runs through on Linux) and checked
# with spirv-val. Also checks that the set of blob headers is exactly what blit.h includes.
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
# every blob header is included by blit.h, and blit.h includes nothing that is missing
listed=$(sed -n 's/^#include "\(.*_[vp]s\)\.h"$/\1/p' "$dir/blit.h" | sort)
present=$(for h in "$dir"/*_vs.h "$dir"/*_ps.h; do basename "$h" .h; done | sort)
if [ "$listed" != "$present" ]; then
    echo "check-dxbc.sh: the blob headers and blit.h's includes differ:" >&2
    echo "$listed" > "$work/listed"
    echo "$present" > "$work/present"
    diff "$work/listed" "$work/present" >&2 || true
    fail=1
fi
expected=$(echo "$listed" | wc -l)
[ $n -eq "$expected" ] || { echo "check-dxbc.sh: $n blobs valid, expected $expected (blit.h)" >&2; fail=1; }
for b in blit_vs blit_ps; do
    echo "$present" | grep -qx "$b" || { echo "check-dxbc.sh: $b.h is missing" >&2; fail=1; }
done
[ $fail -eq 0 ] && echo "check-dxbc.sh: $n DXBC blobs translate to valid SPIR-V"
exit $fail
