#!/bin/sh
# check-symbols.sh - fails if libxgd.a or libxgd.so (or, in a mingw-w64 build, libxgd.dll's
# export table) makes a defined global symbol visible whose name does not start with xgd_.
# A user links xgd next to vkd3d, Vulkan, SDL and their own code: any other name (a renderer's
# internal function, a Direct3D 12 interface ID) could collide with theirs.
#
#   .ci/check-symbols.sh [BUILD_DIR]      (default: build)
#
# NM and OBJDUMP name the tools (default nm, objdump; the mingw-w64 ones for a cross build).
set -eu
dir=${1:-build}
nm=${NM:-nm}
objdump=${OBJDUMP:-objdump}
# Names a toolchain may define in any shared object; allowed by name, never by pattern.
allowed='_init _fini _edata _end __bss_start'
# In a PE/COFF archive (mingw-w64) the symbols of COMDAT (link-once) sections stay global: the
# interface IDs INITGUID defines as __declspec(selectany) and gcc's .refptr.* pointers. A PE
# linker keeps one copy of each and never reports a duplicate, and localizing them breaks
# xgd's references when a program brings the same ones (cmake/localize-static.cmake). They
# are allowed by name, read from the archive's own COMDAT section headers.

fail=0
checked=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xgd-symbols.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/comdat"
# $2: a file of "kind name" lines; reports every name that is neither xgd_* nor allowed
check_names() {
    bad=$(awk -v allowed="$allowed" '
        BEGIN { n = split(allowed, a, " "); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
        FILENAME != ARGV[ARGC - 1] { ok[$1] = 1; next }
        $2 !~ /^xgd_/ && !($2 in ok) { print "  " $2 " (" $1 ")" }' "$tmp/comdat" "$2" |
        sort -u)
    total=$(wc -l <"$2" | tr -d ' ')
    if [ -n "$bad" ]; then
        echo "check-symbols.sh: $1 exports names outside xgd_*:" >&2
        echo "$bad" >&2
        fail=1
    else
        echo "check-symbols.sh: $1: $total global names, none outside xgd_* but those allowed"
    fi
    checked=$((checked + 1))
}

if [ -f "$dir/libxgd.a" ]; then
    # defined (not U) globals of every member: "address kind name"
    "$nm" -g --defined-only "$dir/libxgd.a" >"$tmp/nm"
    awk 'NF == 3 { print $2, $3 }' "$tmp/nm" >"$tmp/names"
    "$objdump" -h "$dir/libxgd.a" >"$tmp/sections"
    grep -o '(COMDAT [^ )]*' "$tmp/sections" | awk '{ print $2 }' | sort -u >"$tmp/comdat" || true
    [ ! -s "$tmp/comdat" ] ||
        echo "check-symbols.sh: $(wc -l <"$tmp/comdat" | tr -d ' ') COMDAT (link-once) names of $dir/libxgd.a allowed"
    check_names "$dir/libxgd.a" "$tmp/names"
    : >"$tmp/comdat"
fi
if [ -f "$dir/libxgd.so" ]; then
    "$nm" -D --defined-only "$dir/libxgd.so" >"$tmp/nm"
    awk 'NF == 3 { print $2, $3 }' "$tmp/nm" >"$tmp/names"
    check_names "$dir/libxgd.so" "$tmp/names"
fi
if [ -f "$dir/libxgd.dll" ]; then
    # the export table: "[ordinal] name" lines after "[Ordinal/Name Pointer] Table"
    "$objdump" -p "$dir/libxgd.dll" >"$tmp/objdump"
    awk '/\[Ordinal\/Name Pointer\] Table/ { on = 1; next }
         on && NF == 0 { on = 0 }
         on { print "export", $NF }' "$tmp/objdump" >"$tmp/names"
    check_names "$dir/libxgd.dll" "$tmp/names"
fi
if [ "$checked" -eq 0 ]; then
    echo "check-symbols.sh: no libxgd.a, libxgd.so or libxgd.dll in $dir" >&2
    exit 1
fi
exit "$fail"
