#!/usr/bin/env bash
# Runs the whole suite and the benches on the GPU machine (the `device` tool), from the
# repository root, over a build folder made here. Usage (on that machine):
#   bash tools/gpu-suite.sh BUILD_DIR OUT_DIR
# Needs .gpu/ from ../shared/tools/gpu-bundle.sh plus the .debs of libspng0, libmojoshader0,
# libmspack0 and libspirv-cross-c-shared0 in .gpu/ (apt-get download), which that machine lacks.
set -u
B=${1:-build-gpu}; O=${2:-${OUT:-/tmp/out}}
mkdir -p "$O"
source .gpu/env.sh
for f in .gpu/lib{spng0,mojoshader0,mspack0,spirv-cross-c-shared0}_*.deb; do [ -f "$f" ] && dpkg -x "$f" /tmp/gpu; done
export XGD_TEST_OUTPUT=/tmp/xgd-test-output
# the TrueType fixtures' font: that machine has no fonts-dejavu-core; carry it in the build folder
[ -z "${XGD_TEST_TTF:-}" ] && [ -f "$B/DejaVuSans.ttf" ] && export XGD_TEST_TTF=$PWD/$B/DejaVuSans.ttf
mkdir -p "$XGD_TEST_OUTPUT"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
  echo "== unit tests (software)"
  pass=0; fail=0; skip=0
  for t in $("$B/tests/xgd-tests" --list); do
    "$B/tests/xgd-tests" "$t" >/tmp/unit.log 2>&1; rc=$?
    case $rc in
      0) pass=$((pass+1)) ;;
      77) skip=$((skip+1)); echo "SKIP $t: $(grep -m1 'NOT SUPPORTED' /tmp/unit.log)" ;;
      *) fail=$((fail+1)); echo "FAIL $t"; tail -5 /tmp/unit.log ;;
    esac
  done
  echo "unit: $pass passed, $fail failed, $skip not supported"
  echo "== conformance"
  XGD_VK_VALIDATION=1 "$B/tools/xgd-conformance" --runner "$B/tests/xgd-tests" -j 8 --timeout 120 --agreement 1 --html /tmp/report
  echo "conformance exit: $?"
} > "$O/suite.txt" 2>&1
tar -C /tmp -czf "$O/report.tar.gz" report 2>/dev/null
{
  for r in vulkan d3d12 software; do "$B/bench/xgd-bench" --renderer "$r" --json "$O/bench-$r.json"; done
  for k in vk d3d12; do
    [ -x "$B/bench/$k-raw-bench" ] && "$B/bench/$k-raw-bench" --draws 1000,10000,100000 --frames 3 \
        --rounds 5 --json "$O/$k-raw.json" --svg "$O/$k-raw.svg"
  done
  for r in vulkan d3d12 software; do
    [ -x "$B/bench/instancing-bench" ] && "$B/bench/instancing-bench" --renderer "$r" --frames 10
    [ -x "$B/bench/effect-bench" ] && "$B/bench/effect-bench" --renderer "$r"
  done
  [ -x "$B/bench/sw-mt-bench" ] && "$B/bench/sw-mt-bench" --frames 7
  [ -x "$B/bench/hlsl-compile-bench" ] && "$B/bench/hlsl-compile-bench" --runs 5
} > "$O/bench.txt" 2>&1
tail -40 "$O/suite.txt"; cat "$O/bench.txt" | grep -v "^$" | tail -40
