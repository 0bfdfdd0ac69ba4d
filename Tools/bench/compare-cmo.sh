#!/usr/bin/env bash
# The Benchmarks package's `compare` built twice, the default release build and one with
# `-cross-module-optimization` for every module (Rivulet, OpenCombine, the workloads, compare
# itself), and the two binaries' figures side by side in one table per measurement.
#
#     Tools/bench/compare-cmo.sh                     # build both, time every core workload
#     Tools/bench/compare-cmo.sh 2 6                 # only workloads 2 and 6
#     Tools/bench/compare-cmo.sh --instructions      # callgrind counts and allocations instead
#     Tools/bench/compare-cmo.sh --no-build ...      # use the binaries already built
#
# SwiftPM cannot put an unsafe flag on a dependency from the client's manifest, so the CMO build
# is the same package built again into a scratch path of its own (Benchmarks/.build-cmo) with
# `-Xswiftc -cross-module-optimization`, which applies to every Swift module of the build. The
# default build stays in Benchmarks/.build, where `swift build -c release --package-path
# Benchmarks` puts it. Each build takes a few minutes on two cores; CI does not run this script.
#
# Timing: for each workload the default binary runs `compare N`, then the CMO binary does, so a
# slow phase of the machine lands on both; compare ratios, not absolute times. The raw output of
# every run is kept in a folder the script names at the end (RIVULET_BENCH_OUT to choose it).
# Instructions: `compare --instructions core` (or per workload) under each binary; callgrind counts
# are deterministic, so one run of each binary is enough. Needs valgrind and python3.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
package="$root/Benchmarks"
default_binary="$package/.build/release/compare"
cmo_binary="$package/.build-cmo/release/compare"

build=1 mode=time
workloads=()
for argument in "$@"; do
    case "$argument" in
    --no-build) build=0 ;;
    --instructions) mode=instructions ;;
    -h | --help)
        sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *) workloads+=("$argument") ;;
    esac
done

if [ "$build" = 1 ]; then
    echo "building the default release build (Benchmarks/.build)…" >&2
    swift build -c release --package-path "$package" --product compare >&2
    echo "building the -cross-module-optimization release build (Benchmarks/.build-cmo)…" >&2
    swift build -c release --package-path "$package" --scratch-path "$package/.build-cmo" --product compare \
        -Xswiftc -cross-module-optimization >&2
fi
for binary in "$default_binary" "$cmo_binary"; do
    [ -x "$binary" ] || {
        echo "compare-cmo: $binary is not built (run without --no-build)" >&2
        exit 1
    }
done
if [ "${#workloads[@]}" = 0 ]; then
    read -r -a workloads <<<"$("$default_binary" --list)"
fi

out="${RIVULET_BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/rivulet-cmo.XXXXXX")}"
mkdir -p "$out"
for workload in "${workloads[@]}"; do
    if [ "$mode" = time ]; then
        echo "workload $workload: default build, then CMO build…" >&2
        "$default_binary" "$workload" >"$out/default-$workload.txt"
        "$cmo_binary" "$workload" >"$out/cmo-$workload.txt"
    else
        echo "workload $workload: callgrind, default build, then CMO build…" >&2
        "$default_binary" --instructions "$workload" >"$out/default-$workload.txt"
        "$cmo_binary" --instructions "$workload" >"$out/cmo-$workload.txt"
    fi
done

echo "Rivulet compare, default release build against -cross-module-optimization (CMO), $(date -u '+%Y-%m-%d %H:%M UTC')," \
    "$(nproc) cores, $(swift --version 2>/dev/null | head -n 1)"
python3 - "$mode" "$out" "${workloads[@]}" <<'PYTHON'
import sys

mode, folder, workloads = sys.argv[1], sys.argv[2], sys.argv[3:]


def row(path, number):
    """The core table's row of workload `number` in one compare output, as {header: cell}."""
    headers = None
    with open(path, encoding="utf-8") as text:
        for line in text:
            if not line.startswith("| "):
                continue
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if cells[0] == "#":
                headers = cells
            elif headers and cells[0] == number and len(cells) == len(headers):
                return dict(zip(headers, cells))
    raise SystemExit(f"compare-cmo: no row for workload {number} in {path}")


def pair(default, cmo, key):
    return f"{default[key]} / {cmo[key]}"


if mode == "time":
    print(
        "ns per operation: median of compare's runs; ratios: the median of the runs' ratios (compare's own"
        " columns); allocations per operation. Each cell: default / CMO."
    )
    print()
    print(
        "| # | workload | per | Rivulet ns | OpenCombine ns | baseline ns | Rivulet/baseline default | Rivulet/baseline CMO"
        " | Rivulet/OpenCombine default | Rivulet/OpenCombine CMO | Rivulet allocs | OpenCombine allocs |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for number in workloads:
        default = row(f"{folder}/default-{number}.txt", number)
        cmo = row(f"{folder}/cmo-{number}.txt", number)
        cells = [
            number, default["workload"], default["per"],
            pair(default, cmo, "Rivulet ns"), pair(default, cmo, "OpenCombine ns"), pair(default, cmo, "baseline ns"),
            default["Rivulet/baseline"], cmo["Rivulet/baseline"],
            default["Rivulet/OpenCombine"], cmo["Rivulet/OpenCombine"],
            pair(default, cmo, "Rivulet allocs"), pair(default, cmo, "OpenCombine allocs"),
        ]
        print("| " + " | ".join(cells) + " |")
else:
    print(
        "Instructions per operation (callgrind: n and 2n operations, the difference over n) and allocations per"
        " operation (counted outside callgrind). Each cell: default / CMO."
    )
    print()
    print(
        "| # | workload | per | Rivulet instr | OpenCombine instr | baseline instr | Rivulet/baseline default"
        " | Rivulet/baseline CMO | Rivulet/OpenCombine default | Rivulet/OpenCombine CMO | Rivulet allocs"
        " | OpenCombine allocs | baseline allocs |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for number in workloads:
        default = row(f"{folder}/default-{number}.txt", number)
        cmo = row(f"{folder}/cmo-{number}.txt", number)
        cells = [
            number, default["workload"], default["per"],
            pair(default, cmo, "Rivulet instr"), pair(default, cmo, "OpenCombine instr"),
            pair(default, cmo, "baseline instr"),
            default["Rivulet/baseline"], cmo["Rivulet/baseline"],
            default["Rivulet/OpenCombine"], cmo["Rivulet/OpenCombine"],
            pair(default, cmo, "Rivulet allocs"), pair(default, cmo, "OpenCombine allocs"),
            pair(default, cmo, "baseline allocs"),
        ]
        print("| " + " | ".join(cells) + " |")
PYTHON
echo
echo "(raw output of every run: $out)"
