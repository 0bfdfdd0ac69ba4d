#!/usr/bin/env bash
# Instructions per operation (valgrind's callgrind) and allocations per operation for every
# workload of the Benchmarks package, for Rivulet, OpenCombine and the plain-closure baseline (and
# for the channel workloads: channels, core and baseline), in one Markdown table per family.
#
#     Tools/bench/instructions.sh                  # build, then every core and channel workload
#     Tools/bench/instructions.sh core             # the core workloads only (channels: likewise)
#     Tools/bench/instructions.sh 7                # one workload (C4: one channel workload)
#     Tools/bench/instructions.sh --cmo ...        # the -cross-module-optimization build instead
#     Tools/bench/instructions.sh --no-build ...   # use the binary already built
#
# It runs `compare --instructions`, which runs each side of a workload alone under callgrind with n
# and 2n operations and divides the difference by n (process start-up and set-up cancel), and
# counts each side's allocations in its own process with compare's counter (the fewest of three
# runs of the timed table's operation count). callgrind counts are deterministic: one run is
# enough, and the same binary gives the same counts on a noisy machine. Needs valgrind.
# For the default and the CMO build side by side: Tools/bench/compare-cmo.sh --instructions.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
package="$root/Benchmarks"

build=1 scratch="$package/.build" flags=() build_name="default release build"
filter=""
for argument in "$@"; do
    case "$argument" in
    --no-build) build=0 ;;
    --cmo)
        scratch="$package/.build-cmo"
        flags=(-Xswiftc -cross-module-optimization)
        build_name="release build with -cross-module-optimization"
        ;;
    -h | --help)
        sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        [ -z "$filter" ] || {
            echo "instructions.sh: one of core, channels, N or CN at most" >&2
            exit 2
        }
        filter=$argument
        ;;
    esac
done
command -v valgrind >/dev/null || {
    echo "instructions.sh: valgrind is not on PATH (apt-get install valgrind)" >&2
    exit 1
}
if [ "$build" = 1 ]; then
    swift build -c release --package-path "$package" --scratch-path "$scratch" --product compare "${flags[@]}" >&2
fi
binary="$scratch/release/compare"
[ -x "$binary" ] || {
    echo "instructions.sh: $binary is not built (run without --no-build)" >&2
    exit 1
}

echo "Rivulet workloads under callgrind, $build_name, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
    "$(swift --version 2>/dev/null | head -n 1), $(valgrind --version)"
echo
if [ -z "$filter" ]; then
    "$binary" --instructions
else
    "$binary" --instructions "$filter"
fi
