#!/usr/bin/env python3
"""Documentation coverage of the public API, measured from the symbol graphs.

    Tools/docs/doc_coverage.py SYMBOL_GRAPH_DIR [--require-parameters] [--list] [--module M]

Reads the symbol graphs that `swift package dump-symbol-graph --skip-synthesized-members
--skip-inherited-docs` writes (one file per module, plus one per module it extends), and for
each of Rivulet's three modules counts:
- the public symbols, and those whose own doc comment is missing or has no summary line;
- the public functions, methods, initialisers and subscripts that take parameters, and those
  whose comment leaves a parameter undocumented (`- Parameter x:`, or `- x:` in a
  `- Parameters:` list);
- those that return something other than `Void`, and those with no `- Returns:`.
Symbols the compiler declares (`init(rawValue:)` of an enum with raw values: no source
location) cannot carry a comment and are counted apart; extension blocks (with
`--emit-extension-block-symbols`) are not symbols of their own, their members are.

Exits with status 1 if a public symbol is undocumented, and with `--require-parameters` also if
a parameter or a return value is. `--list` names each gap with its file and line.
"""
import glob
import json
import os
import re
import sys

MODULES = ["Rivulet", "RivuletChannels", "RivuletContracts"]
CALLABLE_KINDS = {"swift.func", "swift.method", "swift.type.method", "swift.init", "swift.subscript", "swift.func.op"}
RETURNING_KINDS = CALLABLE_KINDS - {"swift.init"}


def graphs(directory, module):
    """The module's own symbol graph and those of its extensions to other modules."""
    own = os.path.join(directory, f"{module}.symbols.json")
    paths = ([own] if os.path.exists(own) else []) + sorted(glob.glob(os.path.join(directory, f"{module}@*.symbols.json")))
    for path in paths:
        with open(path) as file:
            yield json.load(file)


def comment_lines(symbol):
    return [line.get("text", "") for line in (symbol.get("docComment") or {}).get("lines", [])]


def documented_parameters(lines):
    """The parameter names the comment documents."""
    names = set()
    in_list = False
    for line in lines:
        stripped = line.strip()
        single = re.match(r"- [Pp]arameter\s+(\w+)\s*:", stripped)
        if single:
            names.add(single.group(1))
            in_list = False
        elif re.match(r"- [Pp]arameters\s*:", stripped):
            in_list = True
        elif in_list:
            item = re.match(r"- (\w+)\s*:", stripped)
            if item and line.startswith(("  ", "\t")) or item and not line.startswith("-"):
                names.add(item.group(1))
            elif stripped.startswith("- "):
                in_list = False
    return names


def parameter_names(symbol):
    signature = symbol.get("functionSignature") or {}
    return [p.get("internalName") or p.get("name") for p in signature.get("parameters", [])]


def returns_something(symbol):
    returns = (symbol.get("functionSignature") or {}).get("returns", [])
    spelled = "".join(fragment.get("spelling", "") for fragment in returns).strip()
    return spelled not in ("", "Void", "()")


def where(symbol):
    location = symbol["location"]
    path = location["uri"].split("/Sources/", 1)[-1]
    return f"Sources/{path}:{location['position']['line'] + 1}"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    options = sys.argv[2:]
    require_parameters = "--require-parameters" in options
    listing = "--list" in options
    only = options[options.index("--module") + 1] if "--module" in options else None
    totals = {"undocumented": 0, "parameters": 0, "returns": 0}
    print(
        "| module | public symbols | without a doc comment | declared by the compiler "
        "| callables with parameters | a parameter undocumented | returning a value | no `Returns:` |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    gaps = []
    for module in MODULES:
        if only and module != only:
            continue
        seen = set()
        counts = {"public": 0, "implicit": 0, "undocumented": 0, "callables": 0, "parameters": 0, "returning": 0, "returns": 0}
        found = False
        for graph in graphs(directory, module):
            found = True
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                kind = symbol["kind"]["identifier"]
                if kind == "swift.extension":
                    continue  # an extension block of another module's type: its members count
                identifier = symbol["identifier"]["precise"]
                if identifier in seen:
                    continue
                seen.add(identifier)
                if "location" not in symbol:
                    counts["implicit"] += 1
                    continue
                counts["public"] += 1
                name = ".".join(symbol["pathComponents"])
                lines = comment_lines(symbol)
                if not lines or not lines[0].strip():
                    counts["undocumented"] += 1
                    gaps.append(("undocumented", module, name, where(symbol)))
                    continue
                if kind in CALLABLE_KINDS and parameter_names(symbol):
                    counts["callables"] += 1
                    missing = [p for p in parameter_names(symbol) if p not in documented_parameters(lines)]
                    if missing:
                        counts["parameters"] += 1
                        gaps.append(("parameters " + ", ".join(missing), module, name, where(symbol)))
                if kind in RETURNING_KINDS and returns_something(symbol):
                    counts["returning"] += 1
                    if not any(line.strip().startswith("- Returns:") for line in lines):
                        counts["returns"] += 1
                        gaps.append(("returns", module, name, where(symbol)))
        if not found:
            sys.exit(f"doc_coverage: no symbol graph for {module} in {directory}")
        print(
            f"| {module} | {counts['public']} | {counts['undocumented']} | {counts['implicit']} "
            f"| {counts['callables']} | {counts['parameters']} | {counts['returning']} | {counts['returns']} |")
        totals["undocumented"] += counts["undocumented"]
        totals["parameters"] += counts["parameters"]
        totals["returns"] += counts["returns"]
    for gap, module, name, place in gaps:
        if gap == "undocumented" or listing:
            print(f"{place}: {module}.{name}: {gap}")
    failures = []
    if totals["undocumented"]:
        failures.append(f"{totals['undocumented']} public symbols have no doc comment (with a summary line)")
    if require_parameters and totals["parameters"]:
        failures.append(f"{totals['parameters']} callables leave a parameter undocumented")
    if require_parameters and totals["returns"]:
        failures.append(f"{totals['returns']} callables do not document what they return")
    if failures:
        sys.exit("doc_coverage: " + "; ".join(failures))


if __name__ == "__main__":
    main()
