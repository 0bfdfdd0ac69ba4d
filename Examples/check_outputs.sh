#!/usr/bin/env bash
# Fails when what an example program prints differs from the output Examples/README.md shows for
# it: the README's ```output blocks, in order, are the outputs of enabled-control, shared-store and
# latest-request. Run after a build (`swift build --package-path Examples`); this script does not
# build.
set -euo pipefail
cd "$(dirname "$0")/.."

programs=(enabled-control shared-store latest-request)
expected="$(mktemp -d)"
trap 'rm -rf "$expected"' EXIT

# The README's output blocks, one file each: 0.txt, 1.txt, 2.txt.
python3 - "$expected" <<'PYTHON'
import pathlib, re, sys
readme = pathlib.Path("Examples/README.md").read_text()
blocks = re.findall(r"^```output\n(.*?)^```$", readme, flags=re.S | re.M)
for index, block in enumerate(blocks):
    pathlib.Path(sys.argv[1], f"{index}.txt").write_text(block)
PYTHON

status=0
for index in "${!programs[@]}"; do
    program="${programs[$index]}"
    if [[ ! -f "$expected/$index.txt" ]]; then
        echo "error: Examples/README.md has no output block for $program." >&2
        status=1
        continue
    fi
    if ! swift run --package-path Examples --skip-build "$program" >"$expected/$program.actual"; then
        echo "error: $program failed to run (build first with \`swift build --package-path Examples\`)." >&2
        status=1
    elif ! diff -u "$expected/$index.txt" "$expected/$program.actual" \
        --label "Examples/README.md ($program)" --label "swift run $program"; then
        echo "error: $program's output differs from the one Examples/README.md shows." >&2
        status=1
    fi
done
[[ $status == 0 ]] && echo "The example programs print what Examples/README.md shows."
exit $status
