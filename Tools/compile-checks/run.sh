#!/usr/bin/env bash
# Compile checks: races must not compile, sound patterns must.
#
# Compiles every Swift file in Tests/CompileChecks/MustFail and Tests/CompileChecks/MustCompile,
# one file at a time, as a client of the built Rivulet module in the Swift 6 language mode:
#
#   swiftc -emit-sil -o /dev/null -swift-version 6 -parse-as-library -I <Modules> <case>.swift
#
# (`-emit-sil`, not `-typecheck`: the region-isolation errors, "sending ... risks causing data
# races", come from SIL passes that `-typecheck` does not run.) A client needs no other flag: the
# `BuiltinModule` feature that Rivulet enables is internal to the module.
#
#   MustFail/X.swift     passes when the compiler rejects it and reports exactly the errors named by
#                        its `// expected-error: <substring>` markers (see check.py for the rules).
#                        A MustFail case that compiles is a failure: the race is accepted.
#   MustCompile/X.swift  passes when it compiles with `-warnings-as-errors`.
#
# Usage:
#   Tools/compile-checks/run.sh                 check every case (builds the Rivulet module first
#                                               if it has not been built)
#   Tools/compile-checks/run.sh FILE...         check only these case files
#   Tools/compile-checks/run.sh -v ...          also print the compiler's output of failing cases
#
# Environment:
#   RIVULET_MODULES  the folder holding Rivulet.swiftmodule (default: the Modules folder of
#                    `swift build --show-bin-path`, the debug build that `swift build` makes)
#   JOBS             cases compiled at once (default: the number of cores)
#   SWIFTC           the compiler (default: swiftc)
#
# First runs the harness's own self-test (selftest.py: known verdicts, such as a MustFail case that
# compiles being judged a failure). Then prints one PASS/FAIL line per case and a summary; exits
# non-zero if any case fails. Needs the Swift toolchain and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."

verbose=()
if [[ "${1:-}" == "-v" || "${1:-}" == "--verbose" ]]; then
    verbose=(--verbose)
    shift
fi

if [[ -n "${RIVULET_MODULES:-}" ]]; then
    modules="$RIVULET_MODULES"
else
    modules="$(swift build --show-bin-path)/Modules"
    if [[ ! -f "$modules/Rivulet.swiftmodule" ]]; then
        echo "Rivulet is not built yet: swift build --target Rivulet" >&2
        swift build --target Rivulet
    fi
fi
if [[ ! -f "$modules/Rivulet.swiftmodule" ]]; then
    echo "error: no Rivulet.swiftmodule in $modules" >&2
    exit 2
fi

if [[ $# -gt 0 ]]; then
    cases=("$@")
else
    cases=()
    while IFS= read -r file; do cases+=("$file"); done < <(
        find Tests/CompileChecks/MustFail Tests/CompileChecks/MustCompile -name '*.swift' | LC_ALL=C sort
    )
fi
if [[ ${#cases[@]} -eq 0 ]]; then
    echo "error: no compile-check cases found" >&2
    exit 2
fi

jobs="${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}"
# First the harness itself, on cases whose verdict is known (a few seconds).
python3 Tools/compile-checks/selftest.py --jobs "$jobs" --swiftc "${SWIFTC:-swiftc}"
exec python3 Tools/compile-checks/check.py ${verbose[@]+"${verbose[@]}"} \
    --modules "$modules" --jobs "$jobs" --swiftc "${SWIFTC:-swiftc}" "${cases[@]}"
