#!/bin/sh
# fuzz/run.sh BUILD_DIR [SECONDS [SMALL_SECONDS]]: the fuzzing step of `make fuzz`. For each
# target: replay the committed corpus and regression inputs, then fuzz from the corpus for
# SECONDS (default 120) for the api target, whose inputs reach the whole library, and
# SMALL_SECONDS (default 20) for each file-format target, whose inputs reach one loader.
# New inputs go to BUILD_DIR/fuzz-work/<target>/ (the committed corpus is only read), crashes
# to BUILD_DIR/fuzz-artifacts/. Any crash, leak, contract violation (abort), timeout (10 s per
# input) or allocation beyond the limits fails the step.
#
# The run is reproducible, so a merge gate fails only for what the change under test did:
# libFuzzer's seed is FUZZ_SEED (default 1) and each target stops after a number of
# executions: its seconds times the rate in the table below (about two thirds of what the CI
# machine, 2 idle cores, made per second in a 10 s run from the corpus), with three times its
# seconds as the time limit, so a run on a machine like CI's makes exactly the same executions. FUZZ_SEED=0 explores instead:
# a new seed each run and only the time limit of SECONDS (what sessions run for longer to find
# new inputs; findings go to fuzz/regressions/<target>/, as a file plus a README row).
set -u
build=${1:?usage: fuzz/run.sh BUILD_DIR [SECONDS [SMALL_SECONDS]]}
api_seconds=${2:-120}
small_seconds=${3:-20}
seed=${FUZZ_SEED:-1}
here=$(cd "$(dirname "$0")" && pwd)
limits="-rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10"
status=0
for target in api png hlsl xfx image fx spirv dxbc truetype xnb; do
    case $target in
        api) seconds=$api_seconds ;;
        *) seconds=$small_seconds ;;
    esac
    # executions per second (see above)
    case $target in
        api) rate=390 ;; png) rate=5500 ;; hlsl) rate=24000 ;; xfx) rate=13000 ;;
        image) rate=170 ;; fx) rate=21000 ;; spirv) rate=4800 ;;
        dxbc) rate=17000 ;; truetype) rate=1700 ;; xnb) rate=75000 ;;
    esac
    if [ "$seed" = 0 ]; then
        bound="-runs=-1"
        limit=$seconds
    else
        bound="-seed=$seed -runs=$((rate * seconds))"
        limit=$((3 * seconds))
    fi
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
    echo "== xgd-fuzz-$target: fuzzing for ${seconds} s ($bound)"
    # shellcheck disable=SC2086
    if ! "$exe" $limits $bound -max_total_time="$limit" -print_final_stats=1 \
            -artifact_prefix="$artifacts/$target-" "$work" "$here/corpus/$target" \
            >"$work.log" 2>&1; then
        grep -v -E '^#|^    #|^"' "$work.log" | tail -n 25
        # last, so the end of a CI log keeps them: what failed, and the input itself
        grep -E "violation|ERROR|SUMMARY|Test unit written|^Base64" "$work.log" | head -n 8
        echo "xgd-fuzz-$target: FAILED (log: $work.log; inputs: $artifacts/$target-*)"
        status=1
    else
        grep -E '^#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb' "$work.log"
    fi
done
exit $status
