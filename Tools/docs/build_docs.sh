#!/usr/bin/env bash
# Builds the DocC documentation of Rivulet's three modules, with warnings treated as errors (a
# symbol link that does not resolve, a parameter documented that does not exist, an article
# link that goes nowhere), after checking that every public symbol has a doc comment and every
# parameter and return value of a public function is documented (Tools/docs/doc_coverage.py).
#
#     Tools/docs/build_docs.sh [OUTPUT_DIR]      (default: .build/documentation)
#
# Needs only the toolchain (`swift package dump-symbol-graph`, `docc`) and python3. The guides
# in Docs/ are articles of the catalogs through symbolic links (Sources/<Module>/<Module>.docc),
# so GitHub and DocC show the same files. It builds with `-warnings-as-errors`, as CI does, so
# that after CI's build it only extracts the graphs.
set -euo pipefail
cd "$(dirname "$0")/../.."
output=${1:-.build/documentation}

# dump-symbol-graph extracts the graphs of every module of the package, the test modules too, so
# those must be built; after CI's build (the same flags) this builds nothing.
swift build --build-tests -Xswiftc -warnings-as-errors >/dev/null
swift package -Xswiftc -warnings-as-errors dump-symbol-graph --skip-synthesized-members --skip-inherited-docs --minimum-access-level public --emit-extension-block-symbols >/dev/null
graphs=$(dirname "$(ls -d .build/*/symbolgraph/Rivulet.symbols.json)")

python3 Tools/docs/doc_coverage.py "$graphs" --require-parameters
# The pages that group Signal's, SignalProducer's and PropertyProtocol's members by family are
# generated from the graphs: a new operator or a changed signature needs them written again.
python3 Tools/docs/make_docc_topics.py "$graphs" --check

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$output"
for module in Rivulet RivuletChannels RivuletContracts; do
    # Each module's own graph and its extensions of other modules' types.
    mkdir "$work/$module"
    cp "$graphs/$module.symbols.json" "$work/$module/"
    cp "$graphs/$module"@*.symbols.json "$work/$module/" 2>/dev/null || true
    rm -rf "$output/$module.doccarchive"
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$work/$module" \
        --output-dir "$output/$module.doccarchive" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.rivulet.$module" \
        --warnings-as-errors
    echo "documentation of $module: $output/$module.doccarchive"
done
