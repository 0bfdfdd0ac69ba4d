#!/usr/bin/env python3
"""Checks the compile-check harness itself (check.py) on small cases whose verdict is known.

    selftest.py [--swiftc PATH] [--jobs N]

The cases need no Rivulet module: each declares what it uses. Among them, a race that only the
SIL passes find (a closure sent to a `sending` parameter while the caller keeps using what it
captures), so that compiling with `-typecheck` instead of `-emit-sil` would make this test fail,
and a MustFail case that compiles, which must be judged a failure. Exits non-zero on any wrong
verdict. run.sh runs it before the real cases.
"""

import argparse
import concurrent.futures
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source folder clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check  # noqa: E402

SENDING = """
func observe(_ action: sending @escaping (Int) -> Void) {}
"""

# (folder, name, source, expected verdict, a word the reason must contain)
CASES = [
    ("MustFail", "Sanity", 'func f() -> Int {\n    let x: Int = "a"\n    return x\n}\n'
     "// expected-error: cannot convert value of type 'String'\n", True, "rejected"),
    ("MustFail", "RaceFoundOnlyInSIL", SENDING + "func f() -> Int {\n    var total = 0\n"
     "    observe { total += $0 }\n    return total\n}\n// expected-error: risks causing data races\n",
     True, "rejected"),
    ("MustFail", "CompilesButMustNot", "func f() -> Int { 1 }\n// expected-error: anything\n",
     False, "compiled, but must not"),
    ("MustFail", "RaceAbsent", SENDING + "func f() {\n    var total = 0\n    observe { total += $0 }\n}\n"
     "// expected-error: risks causing data races\n", False, "compiled, but must not"),
    ("MustFail", "WrongSubstring", 'let x: Int = "a"\n// expected-error: risks causing data races\n',
     False, "expected error not reported"),
    ("MustFail", "UnexpectedExtraError", 'let x: Int = "a"\nlet y: String = 1\n'
     "// expected-error: cannot convert value of type 'String'\n", False, "unexpected error"),
    ("MustFail", "NoMarker", 'let x: Int = "a"\n', False, "no '// expected-error"),
    ("MustFail", "LineBoundRight", "let x: Int = \"a\"  // expected-error: cannot convert\n",
     True, "rejected"),
    ("MustFail", "LineBoundWrongLine", 'let x: Int = "a"\nlet y = 1  // expected-error: cannot convert\n',
     False, "expected error not reported"),
    ("MustFail", "TwoMarkersOneError", 'let x: Int = "a"\n// expected-error: cannot convert\n'
     "// expected-error: cannot convert\n", False, "expected error not reported"),
    ("MustFail", "Alternatives", 'let x: Int = "a"\n// expected-error: no such text || cannot convert\n',
     True, "rejected"),
    ("MustCompile", "Clean", "func f() -> Int { 1 }\n", True, "compiles"),
    ("MustCompile", "Warning", "func f() {\n    let unused = 1\n}\n", False, "does not compile"),
    ("MustCompile", "Error", 'let x: Int = "a"\n', False, "does not compile"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--swiftc", default="swiftc")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    arguments = parser.parse_args()
    wrong = 0
    with tempfile.TemporaryDirectory() as root:
        for folder in ("MustFail", "MustCompile"):
            os.mkdir(os.path.join(root, folder))
        paths = []
        for folder, name, source, _, _ in CASES:
            path = os.path.join(root, folder, name + ".swift")
            with open(path, "w", encoding="utf-8") as file:
                file.write(source)
            paths.append(path)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, arguments.jobs)) as pool:
            results = list(pool.map(lambda path: check.run_case(arguments.swiftc, root, path), paths))
        for (folder, name, _, should_pass, word), (passed, reason, output) in zip(CASES, results):
            if passed != should_pass or word not in reason:
                wrong += 1
                print(
                    "harness self-test: %s/%s was judged %s (%s); expected %s with %r"
                    % (folder, name, "PASS" if passed else "FAIL", reason, "PASS" if should_pass else "FAIL", word)
                )
                if output:
                    print("    " + output.rstrip().replace("\n", "\n    "))
    if wrong:
        print("harness self-test: %d of %d verdicts wrong" % (wrong, len(CASES)))
        return 1
    print("harness self-test: %d verdicts right" % len(CASES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
