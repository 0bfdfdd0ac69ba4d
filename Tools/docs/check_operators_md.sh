#!/usr/bin/env bash
# Fails when Docs/Operators.md differs from what Tools/docs/make_operators_md.py generates (from the
# checked-in Tools/docs/api-surface.md), or when the generator fails (for instance because a
# linked source or test file no longer exists). Needs only python3.
set -euo pipefail
cd "$(dirname "$0")/../.."

generated="$(mktemp)"
trap 'rm -f "$generated"' EXIT

if ! python3 Tools/docs/make_operators_md.py -o "$generated"; then
    echo "error: Tools/docs/make_operators_md.py failed (see above); fix LINKS or MEANINGS in it." >&2
    exit 1
fi

if ! diff -u Docs/Operators.md "$generated" --label Docs/Operators.md --label generated; then
    echo >&2
    echo "error: Docs/Operators.md is out of date. Regenerate it with:" >&2
    echo "    python3 Tools/docs/make_operators_md.py -o Docs/Operators.md" >&2
    exit 1
fi
echo "Docs/Operators.md is up to date."
