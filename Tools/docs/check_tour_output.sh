#!/usr/bin/env bash
# Fails when what the tour (Sources/RivuletTour) prints differs from the checked-in golden file,
# Tools/docs/TourOutput.golden. DocumentationSamplesTests checks the outputs that README.md and
# Docs/*.md state against that golden file, so together they tie the prose to what the examples
# really print. Run after a build (`swift build`); this script does not build.
#
#     Tools/docs/check_tour_output.sh            # check
#     Tools/docs/check_tour_output.sh --update   # accept the tour's current output as the golden file
set -euo pipefail
cd "$(dirname "$0")/../.."

golden=Tools/docs/TourOutput.golden
actual="$(mktemp)"
trap 'rm -f "$actual"' EXIT

if ! swift run --skip-build RivuletTour >"$actual"; then
    echo "error: RivuletTour failed to run (build first with \`swift build\`)." >&2
    exit 1
fi

if [[ "${1:-}" == "--update" ]]; then
    cp "$actual" "$golden"
    echo "Updated $golden; review the diff, and update the stated outputs in README.md and Docs/ to match."
    exit 0
fi

if ! diff -u "$golden" "$actual" --label "$golden" --label "swift run RivuletTour"; then
    echo >&2
    echo "error: the tour's output differs from $golden." >&2
    echo "If the change is intended, update the golden file with" >&2
    echo "    Tools/docs/check_tour_output.sh --update" >&2
    echo "(or: swift run --skip-build RivuletTour > $golden), then run" >&2
    echo "    swift test --filter DocumentationSamples" >&2
    echo "to find the stated outputs in README.md and Docs/ that must change with it." >&2
    exit 1
fi
echo "The tour's output matches $golden."
