#!/usr/bin/env python3
"""Compiles each compile-check case against a built Rivulet module and judges the result.

Called by run.sh (see its header for usage); it can also be run directly:

    check.py --modules DIR [--jobs N] [--swiftc PATH] CASE.swift...

A case in a `MustFail` folder passes when the compiler rejects it and its errors are exactly the
expected ones: every `// expected-error: <substring>` marker is matched by an error of its own
(a marker written after code on a line must match an error reported on that line; a marker alone
on its line may match an error on any line), and every error the compiler reports contains one of
the markers' substrings, so that a typo cannot make a case fail for the wrong reason. A marker may
list alternatives, `// expected-error: <substring> || <other substring>`, where the compiler may
word the same error either way.
A case in any other folder (`MustCompile`) passes when it compiles with `-warnings-as-errors`.

Region-isolation ("sending ... risks causing data races") errors come from SIL passes that
`-typecheck` does not run, so every case is compiled with `-emit-sil`.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

MARKER = re.compile(r"//\s*expected-error:\s*(.+?)\s*$")
DIAGNOSTIC = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<column>\d+): (?P<kind>error|warning): (?P<message>.*)$")
TIMEOUT_SECONDS = 600


def markers(path):
    """The expected errors of a case: (alternative substrings, line or None when any line will do)."""
    found = []
    with open(path, encoding="utf-8") as source:
        for number, text in enumerate(source, start=1):
            match = MARKER.search(text)
            if not match:
                continue
            before = text[: match.start()].strip()
            alternatives = tuple(part.strip() for part in match.group(1).split("||") if part.strip())
            found.append((alternatives, number if before else None))
    return found


def compile_case(swiftc, modules, path, must_fail):
    command = [
        swiftc,
        "-emit-sil",
        "-o",
        os.devnull,
        "-swift-version",
        "6",
        "-parse-as-library",
        "-diagnostic-style=llvm",
        "-I",
        modules,
        path,
    ]
    if not must_fail:
        command.insert(1, "-warnings-as-errors")
    try:
        completed = subprocess.run(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT_SECONDS
        )
    except subprocess.TimeoutExpired:
        return None, "compiler timed out after %d s" % TIMEOUT_SECONDS
    return completed.returncode, completed.stdout


def errors_in(output, path):
    """The compiler's errors, as (line or None, message); a line only for errors in the case file."""
    errors = []
    real_path = os.path.realpath(path)
    for text in output.splitlines():
        match = DIAGNOSTIC.match(text)
        if match:
            if match.group("kind") != "error":
                continue
            same_file = os.path.realpath(match.group("file")) == real_path
            errors.append((int(match.group("line")) if same_file else None, match.group("message")))
        elif re.match(r"^(\S+: )?error: ", text):
            errors.append((None, text.strip()))
    return errors


def judge_must_fail(path, status, output):
    expected = markers(path)
    if not expected:
        return False, "no '// expected-error: <substring>' marker in the file"
    if status == 0:
        return False, "compiled, but must not (the race is accepted)"
    errors = errors_in(output, path)
    if not errors:
        return False, "compiler failed (status %s) without reporting an error" % status
    # Match the line-bound markers first, so that a marker for any line cannot take their error.
    unused = list(range(len(errors)))
    missing = []
    for alternatives, line in sorted(expected, key=lambda marker: marker[1] is None):
        for index in unused:
            error_line, message = errors[index]
            if any(text in message for text in alternatives) and (line is None or error_line == line):
                unused.remove(index)
                break
        else:
            wanted = " || ".join(alternatives)
            missing.append(wanted if line is None else "%s (line %d)" % (wanted, line))
    unexpected = [
        (line, message)
        for line, message in errors
        if not any(text in message for alternatives, _ in expected for text in alternatives)
    ]
    problems = []
    if missing:
        problems.append("expected error not reported: " + "; ".join(repr(text) for text in missing))
    if unexpected:
        problems.append(
            "unexpected error: "
            + "; ".join("line %s: %s" % (line if line else "?", message) for line, message in unexpected)
        )
    if problems:
        return False, " / ".join(problems)
    return True, "rejected with %d expected error(s)" % len(expected)


def judge_must_compile(status, output):
    if status == 0:
        return True, "compiles"
    errors = [message for _, message in errors_in(output, "")]
    return False, "does not compile: " + ("; ".join(errors) if errors else "status %s" % status)


def run_case(swiftc, modules, path):
    must_fail = os.path.basename(os.path.dirname(os.path.abspath(path))) == "MustFail"
    status, output = compile_case(swiftc, modules, path, must_fail)
    if status is None:
        return False, output, ""
    if must_fail:
        passed, reason = judge_must_fail(path, status, output)
    else:
        passed, reason = judge_must_compile(status, output)
    return passed, reason, output


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", required=True, help="the folder that holds Rivulet.swiftmodule")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--swiftc", default="swiftc")
    parser.add_argument("--verbose", action="store_true", help="print the compiler's output of failing cases")
    parser.add_argument("cases", nargs="+")
    arguments = parser.parse_args()

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, arguments.jobs)) as pool:
        results = list(
            pool.map(lambda path: run_case(arguments.swiftc, arguments.modules, path), arguments.cases)
        )

    failures = 0
    for path, (passed, reason, output) in zip(arguments.cases, results):
        name = os.path.join(os.path.basename(os.path.dirname(os.path.abspath(path))), os.path.basename(path))
        print("%s %s: %s" % ("PASS" if passed else "FAIL", name, reason))
        if not passed:
            failures += 1
            if arguments.verbose and output:
                print("    " + output.rstrip().replace("\n", "\n    "))
    print("\n%d case(s): %d passed, %d failed" % (len(results), len(results) - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
