#!/usr/bin/env bash
# Runs every example script with the given bts binary on the embedded backend; exits non-zero
# if any fails. Used by the test suite (Tests/BTSEndToEndTests/Scripts) and CI.
#   scripts/examples/run.sh [PATH-TO-BTS]
set -u
here="$(cd "$(dirname "$0")" && pwd)"
bts="${1:-${BTS:-$here/../../.build/debug/bts}}"
if [ ! -x "$bts" ]; then
    echo "run.sh: no bts binary at $bts (build it with 'swift build')" >&2
    exit 2
fi
failed=0
for script in tour.bts smoke.bts batch.bts language.bts; do
    start=$(date +%s.%N)
    "$bts" --local --quiet "$here/$script" > /dev/null
    status=$?
    end=$(date +%s.%N)
    if [ "$status" -eq 0 ]; then
        printf 'ok    %-10s %.2fs\n' "$script" "$(echo "$end - $start" | bc)"
    else
        printf 'FAIL  %-10s exit %d\n' "$script" "$status"
        failed=1
    fi
done
exit $failed
