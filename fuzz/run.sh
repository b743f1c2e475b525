#!/bin/sh
# fuzz/run.sh BUILD_DIR [SECONDS [SMALL_SECONDS]]: the fuzzing step of `make fuzz`. For each
# target: replay the committed corpus and regression inputs, then fuzz from the corpus for
# SECONDS (default 120) for the api target, whose inputs reach the whole library, and
# SMALL_SECONDS (default 20) for each file-format target, whose inputs reach one loader.
# New inputs go to BUILD_DIR/fuzz-work/<target>/ (the committed corpus is only read), crashes
# to BUILD_DIR/fuzz-artifacts/. Any crash, leak, contract violation (abort), timeout (10 s per
# input) or allocation beyond the limits fails the step.
set -u
build=${1:?usage: fuzz/run.sh BUILD_DIR [SECONDS [SMALL_SECONDS]]}
api_seconds=${2:-120}
small_seconds=${3:-20}
here=$(cd "$(dirname "$0")" && pwd)
limits="-rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10"
status=0
for target in api png hlsl xfx image fx spirv dxbc truetype xnb; do
    case $target in
        api) seconds=$api_seconds ;;
        *) seconds=$small_seconds ;;
    esac
    exe="$build/fuzz/xgd-fuzz-$target"
    work="$build/fuzz-work/$target"
    artifacts="$build/fuzz-artifacts"
    mkdir -p "$work" "$artifacts"
    regressions=$(find "$here/regressions/$target" -type f ! -name '*.md' 2>/dev/null | sort)
    echo "== xgd-fuzz-$target: replay of corpus and regressions"
    # shellcheck disable=SC2086
    if ! "$exe" $limits -runs=0 -artifact_prefix="$artifacts/$target-replay-" \
            "$here/corpus/$target" >"$work.replay.log" 2>&1; then
        grep -E "violation|ERROR|SUMMARY|runtime error" "$work.replay.log" | head -n 5
        echo "xgd-fuzz-$target: the committed corpus fails (log: $work.replay.log)"
        status=1
    fi
    for input in $regressions; do
        # shellcheck disable=SC2086
        if ! "$exe" $limits -artifact_prefix="$artifacts/$target-replay-" "$input" \
                >"$work.regression.log" 2>&1; then
            grep -E "violation|ERROR|SUMMARY" "$work.regression.log" | head -n 5
            echo "xgd-fuzz-$target: regression input fails: $input"
            status=1
        fi
    done
    echo "== xgd-fuzz-$target: fuzzing for ${seconds} s"
    # shellcheck disable=SC2086
    if ! "$exe" $limits -max_total_time="$seconds" -print_final_stats=1 \
            -artifact_prefix="$artifacts/$target-" "$work" "$here/corpus/$target" \
            >"$work.log" 2>&1; then
        grep -v -E '^#|^    #|^"' "$work.log" | tail -n 25
        echo "xgd-fuzz-$target: FAILED (log: $work.log; inputs: $artifacts/$target-*)"
        status=1
    else
        grep -E '^#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb' "$work.log"
    fi
done
exit $status
