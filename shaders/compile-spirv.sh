#!/bin/sh
# compile-spirv.sh - compiles every stock shader variant from HLSL to SPIR-V with
# glslangValidator (Debian: apt-get install glslang-tools) into shaders/generated/.
#
#   shaders/compile-spirv.sh [OUTPUT_DIR]
#
# Outputs (entry point renamed to "main" in SPIR-V):
#   sprite.vert.spv, sprite.frag.spv
#   basic_NN.vert.spv, basic_NN.frag.spv for NN = 00..31, the XGDI_BASIC_* variant number
#   mrt.vert.spv, mrt.frag.spv (EXT MrtEffect, XGDI_PROGRAM_MRT: outputs SV_Target0..3)
#   volume.vert.spv, volume.frag.spv (EXT VolumeEffect, XGDI_PROGRAM_VOLUME: a Texture3D at t0)
# Descriptor bindings (set 0): cbuffer b0 -> binding 0, texture t0 -> binding 1,
# sampler s0 -> binding 2 (shifted here so the HLSL keeps plain D3D registers).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/generated"}
glslang=${GLSLANG_VALIDATOR:-glslangValidator}
command -v "$glslang" >/dev/null 2>&1 || {
    echo "compile-spirv.sh: $glslang not found (apt-get install glslang-tools)" >&2
    exit 1
}
mkdir -p "$out"

# compile SOURCE STAGE ENTRY OUTPUT [DEFINES...]
compile() {
    src=$1 stage=$2 entry=$3 dst=$4
    shift 4
    "$glslang" -D -V -S "$stage" -e main --source-entrypoint "$entry" \
        --shift-texture-binding 1 --shift-sampler-binding 2 --shift-cbuffer-binding 0 \
        "$@" -o "$dst" "$src" >/dev/null || {
        echo "compile-spirv.sh: failed: $src $stage $* (rerun: $glslang -D -V -S $stage" \
             "-e main --source-entrypoint $entry $* $src)" >&2
        exit 1
    }
}

compile "$here/sprite.hlsl" vert VSMain "$out/sprite.vert.spv"
compile "$here/sprite.hlsl" frag PSMain "$out/sprite.frag.spv"
compile "$here/mrt.hlsl" vert VSMain "$out/mrt.vert.spv"
compile "$here/mrt.hlsl" frag PSMain "$out/mrt.frag.spv"
compile "$here/volume.hlsl" vert VSMain "$out/volume.vert.spv"
compile "$here/volume.hlsl" frag PSMain "$out/volume.frag.spv"

v=0
count=0
while [ $v -lt 32 ]; do
    defs=""
    [ $((v & 1)) -ne 0 ] && defs="$defs -DVERTEX_COLOR=1"
    [ $((v & 2)) -ne 0 ] && defs="$defs -DTEXTURE=1"
    [ $((v & 4)) -ne 0 ] && defs="$defs -DLIGHTING=1"
    [ $((v & 8)) -ne 0 ] && defs="$defs -DPER_PIXEL=1"
    [ $((v & 16)) -ne 0 ] && defs="$defs -DFOG=1"
    nn=$(printf '%02d' $v)
    # $defs is split on purpose: one argument per define.
    # shellcheck disable=SC2086
    compile "$here/basic.hlsl" vert VSMain "$out/basic_$nn.vert.spv" $defs
    # shellcheck disable=SC2086
    compile "$here/basic.hlsl" frag PSMain "$out/basic_$nn.frag.spv" $defs
    count=$((count + 1))
    v=$((v + 1))
done
echo "compile-spirv.sh: sprite + mrt + volume + $count BasicEffect variants -> $out"
