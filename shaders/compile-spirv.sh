#!/bin/sh
# compile-spirv.sh - compiles the Vulkan renderer's internal shaders from HLSL to SPIR-V with
# glslangValidator (Debian: apt-get install glslang-tools) into shaders/generated/ (the build
# runs it through src/renderers/vulkan/embed-spirv.cmake and embeds the result; nothing is
# committed).
#
#   shaders/compile-spirv.sh [OUTPUT_DIR]
#
# Outputs (entry point renamed to "main" in SPIR-V):
#   fill_samples.vert.spv, fill_samples.frag.spv (the multisampled-target sample fill)
#   Descriptor bindings (set 0): texture t0 -> binding 0.
#   mips.comp.spv (mip generation of Color images, from the GLSL shaders/mips.comp)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/generated"}
glslang=${GLSLANG_VALIDATOR:-glslangValidator}
command -v "$glslang" >/dev/null 2>&1 || {
    echo "compile-spirv.sh: $glslang not found (apt-get install glslang-tools)" >&2
    exit 1
}
mkdir -p "$out"

# compile SOURCE STAGE ENTRY OUTPUT
compile() {
    src=$1 stage=$2 entry=$3 dst=$4
    "$glslang" -D -V -S "$stage" -e main --source-entrypoint "$entry" -o "$dst" "$src" \
        >/dev/null || {
        echo "compile-spirv.sh: failed: $src $stage (rerun: $glslang -D -V -S $stage" \
             "-e main --source-entrypoint $entry $src)" >&2
        exit 1
    }
}

compile "$here/fill_samples.hlsl" vert VSMain "$out/fill_samples.vert.spv"
compile "$here/fill_samples.hlsl" frag PSMain "$out/fill_samples.frag.spv"
"$glslang" -V -o "$out/mips.comp.spv" "$here/mips.comp" >/dev/null || {
    echo "compile-spirv.sh: failed: $here/mips.comp (rerun: $glslang -V $here/mips.comp)" >&2
    exit 1
}
echo "compile-spirv.sh: fill_samples, mips -> $out"
