#!/usr/bin/env bash
# Fails if the checked-in combineLatest and zip families differ from what generate.py makes.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
python3 Tools/CombiningFamilies/generate.py "$out"
status=0
for file in CombineLatest.swift Zip.swift; do
    if ! diff -u "Sources/Rivulet/Operators/Combining/$file" "$out/$file"; then
        echo "error: Sources/Rivulet/Operators/Combining/$file differs from its generator;" \
            "run python3 Tools/CombiningFamilies/generate.py" >&2
        status=1
    fi
done
exit "$status"
