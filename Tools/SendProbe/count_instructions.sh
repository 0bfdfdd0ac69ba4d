#!/usr/bin/env bash
# Instructions per operation of one SendProbe mode, from valgrind's callgrind (deterministic):
# the mode runs with count n and with 2n, and the difference of the two totals is divided by the
# operations that the extra n added, so process start-up and set-up cancel out.
#
#     Tools/SendProbe/count_instructions.sh MODE N [OPERATIONS_PER_COUNT]
#
# OPERATIONS_PER_COUNT (default 1) is how many operations one unit of the count performs: 5 for
# `profile` (five timed rounds of n sends), 500 for `profile-fanout` (five rounds, 100
# deliveries a send), 100 for `channel-fanout` (100 deliveries a send).
# Build first: swift build -c release --package-path Tools/SendProbe
set -euo pipefail
mode=$1 n=$2 per=${3:-1}
probe="$(dirname "$0")/.build/release/SendProbe"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
total() {
    valgrind --tool=callgrind --callgrind-out-file="$out/$1.out" "$probe" "$mode" "$1" >/dev/null 2>&1
    sed -n 's/^totals: \([0-9]*\).*/\1/p' "$out/$1.out"
}
one=$(total "$n")
two=$(total $((2 * n)))
python3 -c "print(f'$mode: {($two - $one) / ($n * $per):.1f} instructions per operation ($one at n=$n, $two at n=$((2 * n)))')"
