#!/usr/bin/env python3
"""Documentation coverage of the public API, measured from the symbol graphs.

    Tools/docs/doc_coverage.py SYMBOL_GRAPH_DIR [--list-parameters]

Reads the symbol graphs that `swift package dump-symbol-graph --skip-synthesized-members
--skip-inherited-docs` writes (one file per module, plus one per module it extends), and for
each of Rivulet's three modules counts the public symbols and those whose own doc comment is
missing or has no summary line. Symbols the compiler declares (`init(rawValue:)` of an enum with
raw values: no source location) cannot carry a comment and are counted apart; extension blocks
(with `--emit-extension-block-symbols`) are not symbols of their own, their members are. Exits with status 1 if any public symbol is undocumented: CI
keeps the count at 0.

It also counts, without failing, the functions and initialisers that take named parameters but
whose comment documents none of them (`- Parameter x:` or a `- Parameters:` list); with
`--list-parameters` it names them.
"""
import glob
import json
import os
import sys

MODULES = ["Rivulet", "RivuletChannels", "RivuletContracts"]
CALLABLE_KINDS = {"swift.func", "swift.method", "swift.type.method", "swift.init", "swift.subscript", "swift.func.op"}


def graphs(directory, module):
    """The module's own symbol graph and those of its extensions to other modules."""
    own = os.path.join(directory, f"{module}.symbols.json")
    paths = ([own] if os.path.exists(own) else []) + sorted(glob.glob(os.path.join(directory, f"{module}@*.symbols.json")))
    for path in paths:
        with open(path) as file:
            yield json.load(file)


def comment_lines(symbol):
    return [line.get("text", "") for line in (symbol.get("docComment") or {}).get("lines", [])]


def documents_a_parameter(lines):
    return any(line.strip().startswith(("- Parameter ", "- Parameters:", "- parameter ", "- parameters:")) for line in lines)


def named_parameters(symbol):
    signature = symbol.get("functionSignature") or {}
    return [p for p in signature.get("parameters", []) if p.get("name") not in (None, "_")]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    list_parameters = "--list-parameters" in sys.argv[2:]
    undocumented_total = 0
    print(
        "| module | public symbols | without a doc comment | declared by the compiler "
        "| callables with named parameters | of which none documented |")
    print("|---|---:|---:|---:|---:|---:|")
    reports = []
    for module in MODULES:
        seen = set()
        public = 0
        implicit = 0
        undocumented = []
        with_parameters = 0
        parameters_undocumented = []
        found = False
        for graph in graphs(directory, module):
            found = True
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                if symbol["kind"]["identifier"] == "swift.extension":
                    continue  # an extension block of another module's type: its members count
                identifier = symbol["identifier"]["precise"]
                if identifier in seen:
                    continue
                seen.add(identifier)
                if "location" not in symbol:
                    implicit += 1
                    continue
                public += 1
                name = ".".join(symbol["pathComponents"])
                lines = comment_lines(symbol)
                if not lines or not lines[0].strip():
                    undocumented.append(f"{symbol['kind']['identifier']} {name}")
                    continue
                if symbol["kind"]["identifier"] in CALLABLE_KINDS and named_parameters(symbol):
                    with_parameters += 1
                    if not documents_a_parameter(lines):
                        parameters_undocumented.append(name)
        if not found:
            sys.exit(f"doc_coverage: no symbol graph for {module} in {directory}")
        print(
            f"| {module} | {public} | {len(undocumented)} | {implicit} "
            f"| {with_parameters} | {len(parameters_undocumented)} |")
        undocumented_total += len(undocumented)
        reports.append((module, undocumented, parameters_undocumented))
    for module, undocumented, parameters_undocumented in reports:
        for entry in undocumented:
            print(f"undocumented public symbol in {module}: {entry}")
        if list_parameters:
            for entry in parameters_undocumented:
                print(f"parameters not documented in {module}: {entry}")
    if undocumented_total:
        sys.exit(f"doc_coverage: {undocumented_total} public symbols have no doc comment (with a summary line)")


if __name__ == "__main__":
    main()
